import GRDB
import NotifySchedCore

// The instant each entry's occurrences are settled through (`OccurrencePlan`): the latest
// occurrence the ledger recorded, or the instant the daemon began following a recurring entry
// that has no record yet.
extension StateStore {
    /// The instant every entry of `source` that has one is settled through, by entry id: one
    /// query where planning a whole feed would otherwise make one per entry.
    public func settledThrough(source: String) throws(StoreError) -> [String: Instant] {
        // Its own queries rather than `latestRecords`: a record of an outcome this version does
        // not know still counts as settled. Two scans in index order, merged here: one query of
        // their union grouped by entry sorted all the rows in a temporary B-tree (40 ms for 10^5
        // entries, where these take 10), and the columns are read by position, not by name.
        try read("read the ledger of \(source)") { database in
            var settled: [String: Instant] = [:]
            let followed = try Row.fetchCursor(
                database, sql: "SELECT entry_id, since_us FROM followed_entry WHERE source = ?", arguments: [source])
            while let row = try followed.next() {
                settled[row[0]] = Instant(microseconds: row[1])
            }
            let recorded = try Row.fetchCursor(
                database,
                sql: "SELECT entry_id, max(occurrence_us) FROM ledger WHERE source = ? GROUP BY entry_id",
                arguments: [source])
            while let row = try recorded.next() {
                let id: String = row[0]
                let occurrence = Instant(microseconds: row[1])
                if let since = settled[id], since >= occurrence { continue }
                settled[id] = occurrence
            }
            return settled
        }
    }

    /// Stores that the daemon follows the recurring entries `entryIDs` of `source` from
    /// `since`, in one transaction in the background (`writeInBackground`): a first start
    /// follows every recurring entry of its feeds, and the loop plans the next feed meanwhile.
    /// Their occurrences after `since` are owed, across restarts. An entry already followed
    /// keeps its earlier instant.
    ///
    /// - Parameter failed: Gets the error, on another thread, when the write fails.
    /// - Complexity: one statement, whatever the count: the ids go to SQLite as one JSON array
    ///   (`json_each`), since binding 10^5 rows one by one took most of a second.
    public func follow(
        _ entryIDs: [String], of source: String, since: Instant, failed: @escaping @Sendable (StoreError) -> Void
    ) {
        guard !entryIDs.isEmpty else { return }
        writeInBackground(
            "store the entries followed in \(source)",
            { database in
                // Written out here, off the caller's thread: 30 ms for the 10^6 ids of a first start.
                let ids = Self.jsonArray(entryIDs)
                try database.execute(
                    sql: """
                        INSERT OR IGNORE INTO followed_entry (source, entry_id, since_us)
                        SELECT ?, value, ? FROM json_each(?)
                        """,
                    arguments: [source, since.microseconds, ids])
            }, failed: failed)
    }

    /// `strings` as a JSON array of strings (RFC 8259), written byte by byte: `JSONEncoder` took
    /// about half a second for the 10^6 ids of a first start.
    private static func jsonArray(_ strings: [String]) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        bytes.reserveCapacity(strings.reduce(2) { $0 + $1.utf8.count + 3 })
        for (position, string) in strings.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    bytes += [UInt8(ascii: "\\"), byte]
                case 0..<0x20:
                    bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                    bytes += [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The answers that hold for later occurrences of the entries of `source` (`EntryAnswer`), by
    /// entry id: Ignore from the ignored marks, "Remind Me Later" from the pending reminders
    /// with the occurrence the ledger recorded as reminded. Ignore wins over a reminder.
    public func entryAnswers(source: String) throws(StoreError) -> [String: EntryAnswer] {
        try read("read the answers in \(source)") { database in
            var answers: [String: EntryAnswer] = [:]
            let reminders = try Row.fetchCursor(
                database,
                sql: """
                    SELECT entry_id, reminded_us, until_us, (
                        SELECT max(occurrence_us) FROM ledger
                        WHERE ledger.source = reminder.source AND ledger.entry_id = reminder.entry_id
                            AND ledger.outcome = ?2) AS occurrence_us
                    FROM reminder WHERE source = ?1
                    """,
                arguments: [source, LedgerOutcome.reminded.rawValue])
            while let row = try reminders.next() {
                // A reminder whose occurrence the ledger no longer has brings nothing back.
                guard let occurrence: Int64 = row["occurrence_us"] else { continue }
                answers[row["entry_id"]] = .remind(occurrence: Instant(microseconds: occurrence), Reminder(row: row))
            }
            let ignored = try String.fetchCursor(
                database, sql: "SELECT DISTINCT entry_id FROM handling_mark WHERE source = ? AND list = 'ignored'",
                arguments: [source])
            while let entryID = try ignored.next() { answers[entryID] = .ignored }
            return answers
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
