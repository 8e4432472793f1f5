import Foundation
import GRDB
import NotifySchedCore

// The instant each entry's occurrences are settled through (`OccurrencePlan`): the latest
// occurrence the ledger recorded, or the instant the daemon began following a recurring entry
// that has no record yet.
extension StateStore {
    /// What the entries of `source` are settled through: one read where planning a whole feed
    /// would otherwise make one per entry.
    public func settledThrough(source: String) throws(StoreError) -> StoredSettledInstants {
        // Its own queries rather than `latestRecords`: a record of an outcome this version does
        // not know still counts as settled. The columns are read by position, not by name.
        try read("read the ledger of \(source)") { database in
            var settled = StoredSettledInstants()
            let batches = try Row.fetchCursor(
                database.cachedStatement(sql: "SELECT since_us, entries FROM followed_batch WHERE source = ?"),
                arguments: [source])
            while let row = try batches.next() {
                let since = Instant(microseconds: row[0])
                try row.withUnsafeData(atIndex: 1) { data in
                    settled.addFollowed(encoded: data.map { [UInt8]($0) } ?? [], since: since)
                }
            }
            let recorded = try Row.fetchCursor(
                database.cachedStatement(
                    sql: "SELECT entry_id, max(occurrence_us) FROM ledger WHERE source = ? GROUP BY entry_id"),
                arguments: [source])
            while let row = try recorded.next() {
                settled.addRecorded(id: row[0], occurrence: Instant(microseconds: row[1]))
            }
            return settled
        }
    }

    /// Stores that the daemon follows the recurring entries `entries` of `source` from `since`,
    /// in the background (`writeInBackground`): a first start follows every recurring entry of
    /// its feeds, and the loop plans the next feed meanwhile. Their occurrences after `since`
    /// are owed, across restarts. An entry already followed keeps its earlier instant.
    ///
    /// - Parameter failed: Gets the error, on another thread, when the write fails.
    /// - Complexity: one row, whatever the count: the entries go in one value
    ///   (`FollowedEntry.encoded(_:)`), written out on the writes' thread.
    public func follow(
        _ entries: [FollowedEntry], of source: String, since: Instant,
        failed: @escaping @Sendable (StoreError) -> Void
    ) {
        guard !entries.isEmpty else { return }
        writeInBackground(
            "store the entries followed in \(source)",
            { database in
                try database.cachedStatement(
                    sql: "INSERT INTO followed_batch (source, since_us, entries) VALUES (?, ?, ?)"
                ).execute(arguments: [source, since.microseconds, Data(FollowedEntry.encoded(entries))])
            }, failed: failed)
    }

    /// The answers that hold for later occurrences of the entries of `source` (`EntryAnswer`), by
    /// entry id: Ignore from the ignored marks, "Remind Me Later" from the pending reminders
    /// with the occurrence the ledger recorded as reminded. Ignore wins over a reminder.
    public func entryAnswers(source: String) throws(StoreError) -> [String: EntryAnswer] {
        try read("read the answers in \(source)") { database in
            var answers: [String: EntryAnswer] = [:]
            let reminders = try Row.fetchCursor(
                database.cachedStatement(
                    sql: """
                        SELECT entry_id, reminded_us, until_us, (
                            SELECT max(occurrence_us) FROM ledger
                            WHERE ledger.source = reminder.source AND ledger.entry_id = reminder.entry_id
                                AND ledger.outcome = ?2) AS occurrence_us
                        FROM reminder WHERE source = ?1
                        """),
                arguments: [source, LedgerOutcome.reminded.rawValue])
            while let row = try reminders.next() {
                // A reminder whose occurrence the ledger no longer has brings nothing back.
                guard let occurrence: Int64 = row["occurrence_us"] else { continue }
                answers[row["entry_id"]] = .remind(occurrence: Instant(microseconds: occurrence), Reminder(row: row))
            }
            let ignored = try String.fetchCursor(
                database.cachedStatement(
                    sql: "SELECT DISTINCT entry_id FROM handling_mark WHERE source = ? AND list = 'ignored'"),
                arguments: [source])
            while let entryID = try ignored.next() { answers[entryID] = .ignored }
            return answers
        }
    }
}
