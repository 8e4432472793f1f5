import Foundation

/// What `notify-sched history` prints: the occurrences of the ledger's window, oldest first,
/// as a table in the user's zone or as JSON.
public struct HistoryListing: Sendable {
    /// One occurrence in the JSON form; times are RFC 3339 UTC.
    public struct Row: Codable, Equatable, Sendable {
        public var occurrenceID: String
        public var source: String
        public var entry: String
        public var title: String?
        public var due: String
        public var shown: String?
        /// The ledger's outcome: `delivered` (no answer yet), `acted`, `ignored`, `reminded`,
        /// `closed`, `missed` or `suppressed`.
        public var outcome: String
        public var answered: String?
        /// Why it was suppressed, when it was.
        public var reason: SuppressionReport?
    }

    public var records: [HistoryRecord]

    public init(_ records: [HistoryRecord]) {
        self.records = records
    }

    /// The records as a JSON array, pretty-printed with sorted keys.
    public func json() throws -> String {
        let rows = records.map {
            Row(
                occurrenceID: $0.record.occurrenceID, source: $0.record.source, entry: $0.record.entryID,
                title: $0.title, due: $0.record.occurrence.rfc3339, shown: $0.shownAt?.rfc3339,
                outcome: $0.record.outcome.rawValue, answered: $0.answeredAt?.rfc3339,
                reason: $0.record.suppression.map(SuppressionReport.init))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// The records as a table at most `width` characters wide where it can be: when it was
    /// shown (or due, when missed or suppressed), what became of it and when, the entry, its
    /// title (or, suppressed, why), the source (by its name in `sourceNames`, where it has one).
    /// The occurrence ids are in the JSON.
    public func table(userZone: ZoneRules, width: Int?, sourceNames: [String: String] = [:]) -> String {
        guard !records.isEmpty else { return "nothing shown in this period" }
        let rows = records.map { item -> [String] in
            let outcome = item.answeredAt.map { "\(item.record.outcome.rawValue) \(userZone.tableClock(at: $0))" }
            return [
                userZone.tableMinute(at: item.time), outcome ?? item.record.outcome.rawValue, item.record.entryID,
                item.title ?? item.record.suppression?.words ?? "-",
                sourceNames[item.record.source] ?? item.record.source,
            ]
        }
        return TextTable(
            [
                .init("SHOWN"), .init("OUTCOME"), .init("ENTRY", cut: .end), .init("TITLE", cut: .end, floor: 24),
                .init("SOURCE", cut: .start),
            ], rows: rows
        ).lines(width: width).joined(separator: "\n")
    }
}
