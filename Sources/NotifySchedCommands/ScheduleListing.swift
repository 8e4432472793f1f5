import Foundation
import NotifySchedCore

/// What `notify-sched list` shows: each entry with its next occurrences, as of one instant.
struct ScheduleListing {
    /// One entry of the listing; its JSON form is the contract of DESIGN §2.
    struct Row: Encodable, Equatable {
        struct Action: Encodable, Equatable {
            var label: String?
            var url: String
        }

        var id: String
        var title: String
        var body: String
        var source: String
        var dialect: String
        var urgency: String
        var action: Action?
        /// How the entry is triggered, in words; says why `occurrences` is empty for event- and
        /// check-driven entries.
        var trigger: String
        /// The next instants, RFC 3339 UTC, ascending, the first at or after `now`.
        var occurrences: [String]
        /// The last occurrence before `now` that is still within the entry's `maxLateness`:
        /// a daemon that missed it delivers it once on start.
        var catchUp: String?
        /// The first occurrence, for sorting and the table.
        var next: Instant?

        enum CodingKeys: String, CodingKey {
            case id, title, body, source, dialect, urgency, action, trigger, occurrences, catchUp
        }
    }

    var rows: [Row]

    /// Lists `schedules` as of `now`, `upcoming` occurrences per entry, sorted by next occurrence.
    init(schedules: [Schedule], now: Instant, upcoming: Int, userZone: ZoneRules) {
        var rows: [Row] = []
        for schedule in schedules {
            for entry in schedule.entries {
                var instants = entry.trigger.occurrences(onOrAfter: now, limit: upcoming, userZone: userZone)
                if let expires = entry.expires { instants.removeAll { $0 >= expires } }
                let missed = entry.trigger.lastOccurrence(before: now, userZone: userZone)
                    .flatMap { now - $0 <= entry.maxLateness ? $0 : nil }
                rows.append(
                    Row(
                        id: entry.id, title: entry.content.title, body: entry.content.body, source: schedule.source,
                        dialect: entry.dialect.rawValue, urgency: entry.content.urgency.rawValue,
                        action: entry.content.action.map { Row.Action(label: $0.label, url: $0.url.string) },
                        trigger: entry.trigger.summary(news: schedule.news),
                        occurrences: instants.map(\.rfc3339), catchUp: missed?.rfc3339, next: instants.first))
            }
        }
        // Stable: entries without a clock time keep feed order after the timed ones.
        self.rows = rows.enumerated().sorted { lhs, rhs in
            switch (lhs.element.next, rhs.element.next) {
            case (let left?, let right?): left != right ? left < right : lhs.offset < rhs.offset
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// The rows as a JSON array, pretty-printed with sorted keys.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// The rows as an aligned table: id, next occurrence in local time, title, source.
    func table(userZone: ZoneRules) -> String {
        let header = ["ID", "NEXT", "TITLE", "SOURCE"]
        let lines = rows.map { row -> [String] in
            let next = row.next.map { $0.rfc3339(offset: userZone.offset(at: $0).seconds) } ?? row.trigger
            return [row.id, next, Self.truncated(row.title, to: 40), row.source]
        }
        var widths = header.map(\.count)
        for line in lines {
            for (column, cell) in line.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        return ([header] + lines).map { cells in
            cells.enumerated().map { column, cell in
                column == cells.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    private static func truncated(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}

extension Trigger {
    /// The trigger in a few words, for `list`.
    func summary(news: NewsSettings?) -> String {
        switch self {
        case .immediate:
            return "immediately"
        case .once(let time):
            return "once at \(time.summary)"
        case .repeating(let first, let interval, let bounds):
            return "every \(interval.rawValue) from \(first.summary)\(bounds.summary)"
        case .calendar(let expression, let zone, let notBefore, let bounds):
            let zoneText = zone.map { " in \($0.identifier)" } ?? ""
            let start = notBefore.map { " from \($0.summary)" } ?? ""
            return "calendar \(expression.normalized)\(zoneText)\(start)\(bounds.summary)"
        case .events(.local(let rules)):
            return "on event " + rules.map { "\($0.name) (\($0.pattern))" }.joined(separator: ", ")
        case .events(.global):
            let rules = news?.globalEvents ?? []
            return "on event " + rules.map { "\($0.name) (\($0.pattern))" }.joined(separator: ", ")
        case .check:
            return "on iNotify check at start-up, resume and unlock"
        }
    }
}

extension FireTime {
    fileprivate var summary: String {
        switch kind {
        case .absolute(let instant): instant.rfc3339
        case .floating(let civil): "\(civil) \(zone?.identifier ?? "local time")"
        }
    }
}

extension RecurrenceBounds {
    fileprivate var summary: String {
        var text = ""
        if let until { text += " until \(until.rfc3339)" }
        if let count { text += ", \(count) \(count == 1 ? "time" : "times")" }
        return text
    }
}
