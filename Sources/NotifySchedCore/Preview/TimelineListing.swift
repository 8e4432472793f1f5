import Foundation

/// Timelines (`PreviewRun`), one per zone, as `notify-sched preview` prints them: a table per
/// zone, or one JSON array of every occurrence and every entry without one.
public struct TimelineListing: Sendable {
    /// One occurrence, or one entry without any in the window, in `preview --json`.
    public struct Row: Codable, Equatable, Sendable {
        public var entry: String
        public var source: String
        public var title: String
        /// The zone's IANA name.
        public var zone: String
        /// When the popup shows, or the occurrence is decided, RFC 3339 in UTC; nil for an
        /// entry without an occurrence in the window.
        public var at: String?
        /// When the occurrence is due; nil as `at`.
        public var due: String?
        /// `shows`, `folded`, `suppressed`, or `none` for an entry without an occurrence.
        public var outcome: String
        /// Why it does not show; nil when it shows.
        public var reason: SuppressionReport?
    }

    public var timelines: [Timeline]
    /// The entries the timelines are about, in feed order, feed after feed.
    public let entries: [Entry]
    /// Each entry's title, by source and id.
    private let titles: [String: String]

    /// An entry of the previewed feeds.
    public struct Entry: Sendable, Hashable {
        public var source: String
        public var id: String
        public var title: String
    }

    /// - Parameter schedules: The feeds the timelines were computed from, for the entries' titles
    ///   and order.
    public init(_ timelines: [Timeline], schedules: [Schedule]) {
        self.timelines = timelines
        var titles: [String: String] = [:]
        var entries: [Entry] = []
        for schedule in schedules {
            for entry in schedule.entries where titles[schedule.source + "\n" + entry.id] == nil {
                titles[schedule.source + "\n" + entry.id] = entry.content.title
                entries.append(Entry(source: schedule.source, id: entry.id, title: entry.content.title))
            }
        }
        self.titles = titles
        self.entries = entries
    }

    func title(_ entryID: String, of source: String) -> String { titles[source + "\n" + entryID] ?? "" }

    /// Every row, zone after zone: the occurrences by when they show, then the entries without one.
    public var rows: [Row] {
        timelines.flatMap { timeline in
            let zone = timeline.zone.identifier
            return timeline.occurrences.map { occurrence in
                Row(
                    entry: occurrence.entryID, source: occurrence.source,
                    title: title(occurrence.entryID, of: occurrence.source), zone: zone, at: occurrence.at.rfc3339,
                    due: occurrence.due.rfc3339, outcome: occurrence.outcome.rawValue,
                    reason: occurrence.reason.map(SuppressionReport.init))
            }
                + timeline.quietEntries.map { quiet in
                    Row(
                        entry: quiet.entryID, source: quiet.source, title: title(quiet.entryID, of: quiet.source),
                        zone: zone, outcome: "none", reason: SuppressionReport(quiet))
                }
        }
    }

    /// The rows as a JSON array.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// A table per zone, at most `width` characters wide where it can be: when each popup shows
    /// (or the occurrence is decided) in the zone, the outcome, the entry, when it was due where
    /// that differs, and why it does not show or its title; then the entries without an
    /// occurrence, and a count of each outcome.
    public func table(width: Int?) -> String {
        timelines.map { timeline in
            let zone = timeline.zone
            var lines = [
                "\(zone.identifier): \(zone.tableMinute(at: timeline.window.lowerBound)) to "
                    + "\(zone.tableMinute(at: timeline.window.upperBound))"
            ]
            let rows = timeline.occurrences.map { occurrence -> [String] in
                [
                    zone.tableMinute(at: occurrence.at), occurrence.outcome.rawValue, occurrence.entryID,
                    occurrence.reason?.words ?? title(occurrence.entryID, of: occurrence.source),
                    occurrence.due == occurrence.at ? "-" : zone.tableMinute(at: occurrence.due),
                ]
            }
            if rows.isEmpty {
                lines.append("no occurrence in the window")
            } else {
                lines += TextTable(
                    [
                        .init("AT"), .init("OUTCOME"), .init("ENTRY", cut: .end),
                        .init("TITLE OR REASON", cut: .end, floor: 24), .init("DUE", optional: true),
                    ], rows: rows
                ).lines(width: width)
            }
            if let cut = timeline.cutShortAt {
                lines.append(
                    "the timeline stops at \(zone.tableMinute(at: cut)), at the limit of "
                        + "\(PreviewRun.occurrenceLimit) occurrences; a later --from shows what comes after")
            }
            for quiet in timeline.quietEntries {
                lines.append("\(quiet.entryID): no occurrence in the window: \(quiet.words)")
            }
            let counts = TimelineOutcome.allCases.map { outcome in
                "\(timeline.occurrences.count { $0.outcome == outcome }) \(outcome.rawValue)"
            }
            lines.append(counts.joined(separator: ", "))
            return lines.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }
}
