import GRDB
import NotifySchedCore

extension StateStore {
    /// The ledger's occurrences shown (or missed) at or after `since`, oldest first, of
    /// `source` only when one is given, with the title each popup had.
    ///
    /// - Complexity: one scan of the ledger, which keeps 90 days (`DaemonCore.ledgerRetention`).
    public func history(since: Instant, source: String?) throws(StoreError) -> [HistoryRecord] {
        try read("read the history") { database in
            var sql = """
                SELECT ledger.*, delivered.title, delivered.delivered_us FROM ledger
                LEFT JOIN delivered USING (occurrence_id)
                WHERE coalesce(delivered.delivered_us, ledger.occurrence_us) >= ?
                """
            var arguments: StatementArguments = [since.microseconds]
            if let source {
                sql += " AND ledger.source = ?"
                arguments += [source]
            }
            sql += " ORDER BY coalesce(delivered.delivered_us, ledger.occurrence_us), ledger.occurrence_id"
            return try Row.fetchAll(database, sql: sql, arguments: arguments).compactMap { row in
                let shown: Int64? = row["delivered_us"]
                return LedgerRecord(row: row).map {
                    HistoryRecord($0, title: row["title"], shownAt: shown.map(Instant.init(microseconds:)))
                }
            }
        }
    }
}
