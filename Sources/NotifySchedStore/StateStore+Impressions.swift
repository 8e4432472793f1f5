import GRDB
import NotifySchedCore

// The impressions the caps count (`ImpressionLog`): written with each delivery, in its
// transaction, so that a crash can neither lose one nor count one twice; read at start.
extension StateStore {
    /// Every impression kept, oldest first.
    public func impressions() throws(StoreError) -> [Impression] {
        try read("read the impressions") { database in
            try Row.fetchAll(database.cachedStatement(sql: "SELECT * FROM impression ORDER BY shown_us")).map {
                row in
                let groups: String = row["groups"]
                return Impression(
                    occurrenceID: row["occurrence_id"], source: row["source"], entryID: row["entry_id"],
                    groups: groups.isEmpty ? [] : groups.split(separator: "\n").map(String.init),
                    shownAt: Instant(microseconds: row["shown_us"]), critical: row["critical"])
            }
        }
    }

    /// Records an occurrence a cap held back, and removes its popup from the waiting ones when
    /// it was one, in one transaction.
    public func recordSuppressed(_ record: LedgerRecord) throws(StoreError) {
        try write("record occurrence \(record.occurrenceID) as suppressed") { database in
            try Self.upsert(record, in: database)
            try Self.removeWaiting(record.occurrenceID, in: database)
        }
    }

    /// Counts `impression`, once per occurrence.
    static func insert(_ impression: Impression, in database: Database) throws {
        try database.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO impression (occurrence_id, source, entry_id, shown_us, groups, critical)
                VALUES (?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            impression.occurrenceID, impression.source, impression.entryID, impression.shownAt.microseconds,
            impression.groups.joined(separator: "\n"), impression.critical,
        ])
    }

    /// Deletes the impressions from before `cutoff` except each entry's latest
    /// `FrequencyCap.lifetimeLimit`, as `ImpressionLog.prune(before:)` forgets them.
    static func pruneImpressions(before cutoff: Instant, in database: Database) throws {
        try database.cachedStatement(
            sql: """
                DELETE FROM impression WHERE shown_us < ? AND (
                    SELECT count(*) FROM impression AS later
                    WHERE later.source = impression.source AND later.entry_id = impression.entry_id
                        AND later.shown_us > impression.shown_us) >= ?
                """
        ).execute(arguments: [cutoff.microseconds, FrequencyCap.lifetimeLimit])
    }
}
