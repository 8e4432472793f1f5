import Foundation
import NotifySchedCore
import NotifySchedPlatform
import Testing

/// Recurrence rules expanded as libical's test vectors (`icalrecur_test.txt`) and RFC 5545's
/// own examples (§3.8.5.3) list them, each read as a calendar event with an alarm at its start.
///
/// Where the vectors and python-dateutil (which `recurring-ical-events`, the calendar oracle,
/// runs on) disagree, the core follows the ruling in docs/feed-formats.md ("Calendars: where the
/// oracles disagree"), and the test checks that it gives what the ruling says.
struct RecurrenceVectorTests {
    struct Vector {
        var name: String
        var dtstart: String
        /// An `EXDATE` content line, when the source excludes a time.
        var exdate: String?
        var rrule: String
        var limit: Int?
        var expect: [String]
        /// What python-dateutil gives where it disagrees with the source.
        var dateutil: [String]?
        /// Whether the source says the start is not an instance (libical then leaves it out).
        var startIsNoInstance: Bool
    }

    static func vectors(_ file: String) throws -> [Vector] {
        let url = Repository.root.appendingPathComponent("Sources/NotifySchedTesting/Fixtures/ICalendar/\(file)")
        let text = try String(contentsOf: url, encoding: .utf8)
        var vectors: [Vector] = []
        for block in text.components(separatedBy: "\n\n") {
            var fields: [String: String] = [:]
            var startIsNoInstance = false
            for line in block.split(separator: "\n") {
                if line.hasPrefix("#") {
                    if line.contains("is not an instance") { startIsNoInstance = true }
                    continue
                }
                guard let colon = line.firstIndex(of: ":") else { continue }
                fields[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            guard let name = fields["name"], let dtstart = fields["dtstart"], let rrule = fields["rrule"],
                let expect = fields["expect"]
            else { continue }
            let dateutil = fields["note"].map {
                $0.replacingOccurrences(of: "dateutil gives the set as ", with: "")
                    .replacingOccurrences(of: "dateutil gives ", with: "")
            }
            vectors.append(
                Vector(
                    name: name, dtstart: dtstart, exdate: fields["exdate"], rrule: rrule,
                    limit: Int(fields["limit"] ?? ""),
                    expect: expect.split(separator: ",").map(String.init),
                    dateutil: dateutil?.split(separator: ",").map(String.init), startIsNoInstance: startIsNoInstance))
        }
        return vectors
    }

    /// The instances the core gives for `vector`, written as the vector writes them.
    static func instances(of vector: Vector, count: Int) throws -> [String] {
        let calendar = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:vector\r
            \(vector.dtstart)\r
            \(vector.exdate ?? "X-NONE:0")\r
            RRULE:\(vector.rrule)\r
            BEGIN:VALARM\r
            ACTION:DISPLAY\r
            TRIGGER:PT0S\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let result = FeedParser(zones: systemZones, userZone: .utc).parse(Array(calendar.utf8), source: "vector.ics")
        let entry = try #require(result.schedule?.entries.first, "\(vector.name): \(result.diagnostics)")
        let zoneName = vector.dtstart.split(separator: ";").first { $0.hasPrefix("TZID=") }
            .map { String($0.dropFirst(5).prefix { $0 != ":" }) }
        let zone = try zoneName.map { try #require(systemZones.zone(named: $0)) } ?? .utc
        let dateOnly = vector.dtstart.contains("VALUE=DATE:")
        let utc = vector.dtstart.hasSuffix("Z")
        return entry.trigger.occurrences(
            onOrAfter: Instant(secondsSinceEpoch: -2_208_988_800), limit: count, userZone: .utc
        ).map { instant in
            let civil = zone.civil(at: instant)
            var text = String(format: "%04d%02d%02d", civil.year, civil.month, civil.day)
            if !dateOnly { text += String(format: "T%02d%02d%02d", civil.hour, civil.minute, civil.second) }
            return utc ? text + "Z" : text
        }
    }

    @Test(arguments: ["libical-recurrences.txt", "rfc5545-examples.txt"])
    func everyVectorExpandsAsItsSourceOrItsRulingSays(file: String) throws {
        let vectors = try Self.vectors(file)
        #expect(vectors.count > 40)
        var agreed = 0
        var followedDateutil: [String] = []
        var startAdded: [String] = []
        var failures: [String] = []
        for vector in vectors {
            let count = vector.limit ?? max(vector.expect.count, vector.dateutil?.count ?? 0) + 5
            let actual = try Self.instances(of: vector, count: count)
            // A start the rule does not give is an instance all the same (as recurring-ical-events has it).
            let withStart = vector.startIsNoInstance ? Array(actual.dropFirst()) : actual
            if actual == vector.expect {
                agreed += 1
            } else if withStart == vector.expect {
                startAdded.append(vector.name)
            } else if let dateutil = vector.dateutil,
                actual == Array(dateutil.prefix(count)) || withStart == Array(dateutil.prefix(count - 1))
            {
                followedDateutil.append(vector.name)
            } else {
                failures.append("\(vector.name) (\(vector.rrule)): expected \(vector.expect), got \(actual)")
            }
        }
        print(
            "\(file): \(vectors.count) vectors, \(agreed) as listed, \(followedDateutil.count) as dateutil "
                + "(\(followedDateutil.joined(separator: "; "))), \(startAdded.count) with the unsynchronized start "
                + "as an instance")
        #expect(failures.isEmpty, "\(failures.count) differ:\n\(failures.joined(separator: "\n"))")
    }
}
