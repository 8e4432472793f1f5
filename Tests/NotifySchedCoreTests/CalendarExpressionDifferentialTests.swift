import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

@testable import NotifySchedCore

/// Runs `systemd-analyze calendar` on seeded random expressions and requires the same
/// accept/reject decision, the same normalized form and the same elapse instants.
///
/// systemd prints instants to the second, so instants are compared floored to whole seconds;
/// sub-second behaviour still shows because each iteration starts from the previous exact
/// result. Figures at the time of writing: 400 expressions × 6 zones × 6 base times, about
/// 14 000 expression runs and 60 000 instants compared per run.
@Suite(.ownThread) struct CalendarExpressionDifferentialTests {
    static let zones = [
        "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo",
    ]
    static let baseTimes: [String] = [
        "1774744200",  // 2026-03-29 00:30Z, Berlin springs forward at 01:00Z
        "1792888200.5",  // 2026-10-25 00:30:00.5Z, Berlin falls back at 01:00Z
        "1772951400",  // 2026-03-08 06:30Z, New York springs forward at 07:00Z
        "1793510999.999999",  // 2026-11-01 05:29:59.999999Z, New York falls back at 06:00Z
        "1775313000",  // 2026-04-04 14:30Z, Lord Howe falls back at 15:00Z
        "1781526896.789",  // 2026-06-15 12:34:56.789Z, an ordinary day
    ]
    static let iterations = 5
    static let expressionCount = 400

    struct Outcome: Equatable, CustomStringConvertible {
        var normalized: String?
        var seconds: [Int64]

        var description: String {
            guard let normalized else { return "rejected" }
            return "\(normalized) -> \(seconds.map { Instant(secondsSinceEpoch: $0).rfc3339 })"
        }
    }

    @Test func matchesSystemdAnalyze() throws {
        guard let systemdAnalyze = ExternalCommand.locate("systemd-analyze") else {
            Issue.record("systemd-analyze is not installed; the differential test cannot run")
            return
        }
        let database = TimeZoneDatabase()
        var generator = SplitMix64(seed: 0xCA1E_DA25)
        var compared = 0
        var runs = 0
        var mismatches: [String] = []
        for zoneName in Self.zones {
            let localZone = try database.loadZone(named: zoneName)
            var expressions = (0..<Self.expressionCount).map { _ in
                CalendarExpressionGenerator.expression(
                    using: &generator, abbreviations: Self.stableAbbreviations[zoneName] ?? [])
            }
            expressions = Array(Set(expressions)).sorted()
            for base in Self.baseTimes {
                let result = try Self.compare(
                    expressions, zone: localZone, base: base, iterations: Self.iterations, tool: systemdAnalyze,
                    database: database)
                runs += expressions.count
                compared += result.compared
                mismatches += result.mismatches
            }
        }
        print(
            "calendar differential: \(runs) expression runs over \(Self.zones.count) zones and \(Self.baseTimes.count) base times, \(compared) instants compared, \(mismatches.count) mismatches"
        )
        for mismatch in mismatches.prefix(40) { Issue.record(Comment(rawValue: mismatch)) }
        #expect(mismatches.isEmpty, "every expression behaves as systemd-analyze")
    }

    /// Expressions whose elapses fall in or next to DST gaps and overlaps, iterated 24 times
    /// from just before each transition, in every zone with DST.
    @Test func matchesSystemdAnalyzeAcrossDSTTransitions() throws {
        guard let systemdAnalyze = ExternalCommand.locate("systemd-analyze") else {
            Issue.record("systemd-analyze is not installed; the differential test cannot run")
            return
        }
        let expressions = Self.transitionExpressions
        let transitions: [(zone: String, bases: [String])] = [
            ("Europe/Berlin", ["1774742400", "1774747799", "1792886400", "1792890000.25"]),
            ("America/New_York", ["1772945999", "1772951400.5", "1793505600", "1793512800"]),
            ("Australia/Lord_Howe", ["1775309400", "1775313900", "1791212400", "1791216000.75"]),
        ]
        let database = TimeZoneDatabase()
        var compared = 0
        var mismatches: [String] = []
        for (zoneName, bases) in transitions {
            let localZone = try database.loadZone(named: zoneName)
            for base in bases {
                let result = try Self.compare(
                    expressions, zone: localZone, base: base, iterations: 24, tool: systemdAnalyze, database: database)
                compared += result.compared
                mismatches += result.mismatches
            }
        }
        print(
            "calendar DST differential: \(expressions.count) expressions x 12 base times, \(compared) instants compared, \(mismatches.count) mismatches"
        )
        for mismatch in mismatches.prefix(20) { Issue.record(Comment(rawValue: mismatch)) }
        #expect(mismatches.isEmpty, "every expression behaves as systemd-analyze around DST transitions")
    }

    /// Expressions whose elapses fall in or next to DST gaps and overlaps.
    static let transitionExpressions = [
        "*-*-* 02:30", "*-*-* 02:00", "*-*-* 01:30", "*-*-* 03:00", "*-*-* 02:15:30", "*:0/15", "*:0/20:30",
        "*:*:0/20", "hourly", "daily", "*-*-* *:30", "*-*-* 02:*:00", "*-*-* 01,02,03:45", "Sun *-*-* 02:30",
        "*-*~1 02:30", "*-*-* 00/2:10", "*-*-* 02:30 Europe/Berlin", "*-*-* 02:15 Australia/Lord_Howe",
        "*-*-* 01:30 America/New_York", "*-*-* 23:59:59.5", "*:*:59.999999", "*-*-* 02:30:00/0.25",
        "*-*-* 00:00", "*-*-* 00:30", "*-*-* 23:30", "*-*-* 01:00", "weekly", "monthly",
    ]

    /// POSIX `TZ` rules, glibc's own grammar: negative DST (Ireland's), 30-minute DST (Lord Howe's),
    /// southern hemisphere, Julian days, hours past 24 and below 0, DST all year.
    static let posixRules = [
        "IST-1GMT0,M10.5.0,M3.5.0/1", "IST-1GMT-0,M10.5.0/1,M3.5.0/1", "EST5EDT,M3.2.0,M11.1.0",
        "CET-1CEST,M3.5.0,M10.5.0/3", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", "NZST-12NZDT,M9.5.0,M4.1.0/3",
        "<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", "AEST-10AEDT,M10.1.0,M4.1.0/3", "<+00>0<+01>,0/0,J365/25",
        "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "WET0WEST,J60/1,J300/2", "<+0545>-5:45", "UTC0",
    ]

    /// Every zone of the tz database and a set of POSIX rules, each from just before one of its
    /// transitions between 2020 and 2035 drawn at random (an ordinary instant when it has none),
    /// so that a class of bug cannot hide in a zone nobody listed.
    @Test func matchesSystemdAnalyzeInEveryZoneAroundItsTransitions() throws {
        guard let systemdAnalyze = ExternalCommand.locate("systemd-analyze") else {
            Issue.record("systemd-analyze is not installed; the differential test cannot run")
            return
        }
        let database = TimeZoneDatabase()
        let index = try String(contentsOfFile: database.directory + "/tzdata.zi", encoding: .utf8)
        let names = index.split(separator: "\n").filter { $0.hasPrefix("Z ") }.map {
            String($0.split(separator: " ")[1])
        }
        var zones = try names.map { try database.loadZone(named: $0) }
        zones += try Self.posixRules.map { try ZoneRules(identifier: $0, posixRule: $0) }
        let from = Instant(secondsSinceEpoch: 1_577_836_800)  // 2020-01-01
        let until = Instant(secondsSinceEpoch: 2_082_758_400)  // 2036-01-01
        var generator = SplitMix64(seed: 0x2020_2035)
        var compared = 0
        var givenUp = 0
        var mismatches: [String] = []
        for zone in zones {
            var transitions: [Instant] = []
            var cursor = from
            while let next = zone.nextTransition(after: cursor), next < until {
                transitions.append(next)
                cursor = next
            }
            let start =
                transitions.randomElement(using: &generator)
                ?? from + .seconds(Int64.random(in: 0..<(until - from).seconds, using: &generator))
            // From up to two hours before it, at a random microsecond.
            let base = start - TimeSpan(microseconds: Int64.random(in: 1...7_200_000_000, using: &generator))
            let text = "\(base.microseconds / 1_000_000).\(CivilDateTime.padded(Int(base.microseconds % 1_000_000), 6))"
            let result = try Self.compare(
                Self.transitionExpressions, zone: zone, base: text, iterations: 8, tool: systemdAnalyze,
                database: database)
            compared += result.compared
            givenUp += result.givenUp
            mismatches += result.mismatches
        }
        print(
            "calendar differential in every zone: \(zones.count) zones and POSIX rules, one base time each, "
                + "\(compared) instants compared, \(givenUp) runs where systemd gives up, \(mismatches.count) mismatches"
        )
        for mismatch in mismatches.prefix(40) { Issue.record(Comment(rawValue: mismatch)) }
        #expect(mismatches.isEmpty, "every expression behaves as systemd-analyze in every zone")
    }

    /// Runs systemd-analyze once on `expressions` with `TZ` set to `zone` and compares each
    /// expression's outcome with ours.
    static func compare(
        _ expressions: [String], zone: ZoneRules, base: String, iterations: Int, tool: String,
        database: TimeZoneDatabase
    ) throws -> (compared: Int, mismatches: [String], givenUp: Int) {
        let output = try ExternalCommand.run(
            tool, ["calendar", "--iterations=\(iterations)", "--base-time=@\(base)"] + expressions,
            environment: ["TZ": zone.identifier, "SYSTEMD_COLORS": "0", "SYSTEMD_PAGER": "cat"])
        let theirs = parse(output.standardOutput, count: expressions.count)
        // systemd 252 gives up on some expressions after its 1 000 rounds ("Infinite loop in
        // calendar calculation") where a midnight DST gap swallows a candidate: such an
        // expression prints no table, as a rejected one does, but it parsed.
        let givenUp = Set(
            output.standardError.split(separator: "\n").compactMap { line -> String? in
                let prefix = "Failed to determine next elapse for '"
                guard line.hasPrefix(prefix), let end = line.range(of: "': ") else { return nil }
                return String(line[line.index(line.startIndex, offsetBy: prefix.count)..<end.lowerBound])
            })
        // One systemd-analyze process computes the whole batch, so glibc's mktime state is shared.
        var mktime = GlibcMktime()
        var compared = 0
        var mismatches: [String] = []
        var givenUpCount = 0
        for (expression, expected) in zip(expressions, theirs) {
            let mine = outcome(
                expression, after: instant(fromEpochText: base), localZone: zone, database: database,
                mktime: &mktime, iterations: iterations)
            compared += expected.seconds.count
            if givenUp.contains(expression) {
                // Ours must parse it too, and stop by itself (it did, to get here).
                givenUpCount += 1
                if mine.normalized == nil {
                    mismatches.append(
                        "TZ=\(zone.identifier) base @\(base) '\(expression)': systemd parsed it, we did not")
                }
            } else if mine != expected {
                mismatches.append(
                    "TZ=\(zone.identifier) base @\(base) '\(expression)': systemd \(expected), ours \(mine)")
            }
        }
        return (compared, mismatches, givenUpCount)
    }

    /// Abbreviations glibc's `tzname` keeps whatever instant was converted last; others (such
    /// as Kolkata's `+0630`) change as systemd-analyze converts times and are tested alone.
    static let stableAbbreviations: [String: [String]] = [
        "Europe/Berlin": ["CET", "CEST", "cest"],
        "America/New_York": ["EST", "EDT"],
        "Australia/Lord_Howe": ["+1030", "+11"],
        "Asia/Kolkata": ["IST"],
    ]

    static func instant(fromEpochText text: String) -> Instant {
        let parts = text.split(separator: ".")
        var microseconds = (Int64(parts[0]) ?? 0) * 1_000_000
        if parts.count > 1 {
            let digits = String(parts[1]).padding(toLength: 6, withPad: "0", startingAt: 0)
            microseconds += Int64(digits) ?? 0
        }
        return Instant(microseconds: microseconds)
    }

    /// Our answer, threading glibc's `mktime` state through the batch as systemd-analyze's one
    /// process does.
    static func outcome(
        _ text: String, after base: Instant, localZone: ZoneRules, database: TimeZoneDatabase,
        mktime: inout GlibcMktime, iterations: Int
    ) -> Outcome {
        guard let expression = try? CalendarExpression.parse(text, zones: database, localZone: localZone) else {
            return Outcome(normalized: nil, seconds: [])
        }
        var seconds: [Int64] = []
        var cursor = base
        while seconds.count < iterations,
            let next = expression.nextElapse(after: cursor, in: localZone, mktime: &mktime)
        {
            seconds.append(next.secondsSinceEpoch)
            cursor = next
        }
        return Outcome(normalized: expression.normalized, seconds: seconds)
    }

    /// Splits systemd-analyze's standard output into one outcome per expression: a table per
    /// accepted expression, nothing for a rejected one, and an empty line between expressions.
    static func parse(_ output: String, count: Int) -> [Outcome] {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)[...]
        var outcomes: [Outcome] = []
        for _ in 0..<count {
            var block: [String] = []
            while let line = lines.first, !line.isEmpty {
                block.append(line)
                lines.removeFirst()
            }
            if !lines.isEmpty { lines.removeFirst() }
            guard !block.isEmpty else {
                outcomes.append(Outcome(normalized: nil, seconds: []))
                continue
            }
            var outcome = Outcome(normalized: nil, seconds: [])
            var pendingLocal: Int64?
            for line in block {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let label = line[..<colon].trimmingCharacters(in: .whitespaces)
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if label == "Normalized form" {
                    outcome.normalized = value
                } else if label == "Next elapse" || label.hasPrefix("Iter. #") {
                    if let pendingLocal { outcome.seconds.append(pendingLocal) }
                    pendingLocal = value == "never" ? nil : timestamp(value)
                } else if label == "(in UTC)" {
                    pendingLocal = timestamp(value)
                }
            }
            if let pendingLocal { outcome.seconds.append(pendingLocal) }
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// `Sun 2026-03-29 01:30:00 UTC` to seconds; only UTC lines are read for their value.
    static func timestamp(_ text: String) -> Int64? {
        let fields = text.split(separator: " ")
        guard fields.count >= 3 else { return nil }
        let date = fields[1].split(separator: "-").compactMap { Int($0) }
        let time = fields[2].split(separator: ":").compactMap { Int($0) }
        guard date.count == 3, time.count == 3 else { return nil }
        let civil = CivilDateTime(
            year: date[0], month: date[1], day: date[2], hour: time[0], minute: time[1], second: time[2])
        return civil.instant(atOffset: 0).secondsSinceEpoch
    }
}
