import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

/// Calendars' alarms go off where the oracle says: generated calendars
/// (`scripts/ical-corpus.py`, seeded) whose instances recurring-ical-events expands and whose
/// alarms the ruling of docs/feed-formats.md places, compared instant by instant over a window
/// of 400 days in 20 zones.
@Suite(.computeThreads) struct ICalendarDifferentialTests {
    /// The Python with recurring-ical-events that `scripts/install-deps` makes.
    static let python = Repository.root.appendingPathComponent(".build-oracles/ical/bin/python3").path

    struct Line: Decodable {
        var name: String
        var zone: String
        var from: String
        var to: String
        var ics: String
        var alarms: [String]
    }

    @Test func generatedCalendarsAlarmsGoOffWhereTheOracleSays() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.python),
            "recurring-ical-events is the oracle: run scripts/install-deps, which installs it in .build-oracles/ical")
        let environment = ProcessInfo.processInfo.environment
        let count = environment["NOTIFY_SCHED_ICAL_CALENDARS"] ?? "10000"
        let seed = environment["NOTIFY_SCHED_ICAL_SEED"] ?? "1"
        let output = try ExternalCommand.run(
            Self.python, [Repository.root.appendingPathComponent("scripts/ical-corpus.py").path, count, seed])
        try #require(output.status == 0, "ical-corpus.py: \(output.standardError)")
        var compared = 0
        var instants = 0
        var zones = Set<String>()
        var divergences: [String] = []
        for text in output.standardOutput.split(separator: "\n") {
            let line = try JSONDecoder().decode(Line.self, from: Data(text.utf8))
            let userZone = try #require(systemZones.zone(named: line.zone))
            guard case .absolute(let from)? = Timestamp.parse(line.from),
                case .absolute(let to)? = Timestamp.parse(line.to)
            else { throw CoreError(.invalidDate, "\(line.name): window \(line.from)–\(line.to)") }
            let parser = FeedParser(zones: systemZones, userZone: userZone)
            let result = parser.parse(Array(line.ics.utf8), source: line.name)
            var actual = Set<Instant>()
            for entry in result.schedule?.entries ?? [] {
                actual.formUnion(entry.trigger.occurrences(in: from..<to, limit: 100_000, userZone: userZone))
            }
            let got = actual.sorted().map(\.rfc3339)
            compared += 1
            zones.insert(line.zone)
            instants += line.alarms.count
            if got != line.alarms || result.hasErrors {
                let missing = Set(line.alarms).subtracting(got).sorted().prefix(3)
                let extra = Set(got).subtracting(line.alarms).sorted().prefix(3)
                divergences.append(
                    "\(line.name) in \(line.zone): \(line.alarms.count) expected, \(got.count) given; missing \(missing), "
                        + "extra \(extra); \(result.diagnostics.filter { $0.severity == .error })\n\(line.ics)")
            }
        }
        if let file = environment["NOTIFY_SCHED_ICAL_DIVERGENCES"] {
            try divergences.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        }
        print(
            "calendar differential (seed \(seed)): \(compared) calendars in \(zones.count) zones, \(instants) alarm "
                + "instants compared with recurring-ical-events, \(divergences.count) calendars diverge")
        #expect(compared == Int(count))
        let first = divergences.prefix(3).joined(separator: "\n")
        #expect(
            divergences.isEmpty,
            "\(divergences.count) diverge (replay with NOTIFY_SCHED_ICAL_SEED=\(seed)); the first:\n\(first)")
    }
}
