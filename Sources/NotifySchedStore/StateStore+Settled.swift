import Foundation
import GRDB
import NotifySchedCore

// The instant each entry's occurrences are settled through (`OccurrencePlan`): the latest
// occurrence the ledger recorded, or the instant the daemon began following a recurring entry
// that has no record yet.
extension StateStore {
    /// The instant every entry of `source` that has one is settled through, by entry id: one
    /// query where planning a whole feed would otherwise make one per entry.
    public func settledThrough(source: String) throws(StoreError) -> [String: Instant] {
        // Its own query rather than `latestRecords`: a record of an outcome this version does not
        // know still counts as settled.
        try read("read the ledger of \(source)") { database in
            var settled: [String: Instant] = [:]
            let rows = try Row.fetchCursor(
                database,
                sql: """
                    SELECT entry_id, max(settled) AS settled FROM (
                        SELECT entry_id, occurrence_us AS settled FROM ledger WHERE source = ?1
                        UNION ALL
                        SELECT entry_id, since_us FROM followed_entry WHERE source = ?1)
                    GROUP BY entry_id
                    """,
                arguments: [source])
            while let row = try rows.next() {
                settled[row["entry_id"]] = Instant(microseconds: row["settled"])
            }
            return settled
        }
    }

    /// Stores that the daemon follows the recurring entries `entryIDs` of `source` from
    /// `since`, in one transaction: their occurrences after it are owed, across restarts.
    /// An entry already followed keeps its earlier instant.
    ///
    /// - Complexity: one statement, whatever the count: the ids go to SQLite as one JSON array
    ///   (`json_each`), since a first start follows every recurring entry of a feed at once and
    ///   binding 10^5 rows one by one took most of a second.
    public func follow(_ entryIDs: [String], of source: String, since: Instant) throws(StoreError) {
        guard !entryIDs.isEmpty else { return }
        try write("store the entries followed in \(source)") { database in
            let ids = String(decoding: try JSONEncoder().encode(entryIDs), as: UTF8.self)
            try database.execute(
                sql: """
                    INSERT OR IGNORE INTO followed_entry (source, entry_id, since_us)
                    SELECT ?, value, ? FROM json_each(?)
                    """,
                arguments: [source, since.microseconds, ids])
        }
    }

    /// Drops the following instants that a ledger record of the same entry supersedes.
    static func forgetFollowingSettledByTheLedger(in database: Database) throws {
        try database.execute(
            sql: """
                DELETE FROM followed_entry WHERE EXISTS (
                    SELECT 1 FROM ledger WHERE ledger.source = followed_entry.source
                    AND ledger.entry_id = followed_entry.entry_id AND ledger.occurrence_us >= followed_entry.since_us)
                """)
    }
}
