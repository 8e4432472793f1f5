import GRDB
import NotifySchedCore

extension StateStore {
    /// Every popup waiting to be shown, earliest first (in the order they were chosen when due
    /// together).
    public func waitingPopups() throws(StoreError) -> [WaitingPopup] {
        try read("read the waiting popups") { database in
            try Row.fetchAll(
                database.cachedStatement(
                    sql: "SELECT source, entry_id, occurrence_us FROM waiting_popup ORDER BY occurrence_us, rowid")
            ).map { row in
                WaitingPopup(
                    source: row["source"], entryID: row["entry_id"],
                    occurrence: Instant(microseconds: row["occurrence_us"]))
            }
        }
    }

    /// Forgets a waiting popup that will not be shown (its entry is gone, or nothing opens its
    /// action). A delivered one leaves with `recordDelivery(_:of:server:)`.
    public func removeWaitingPopup(occurrenceID: String) throws(StoreError) {
        try write("forget the waiting popup \(occurrenceID)") { try Self.removeWaiting(occurrenceID, in: $0) }
    }

    static func insert(_ popups: [WaitingPopup], in database: Database) throws {
        for popup in popups {
            try database.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO waiting_popup (occurrence_id, source, entry_id, occurrence_us)
                    VALUES (?, ?, ?, ?)
                    """
            ).execute(arguments: [popup.occurrenceID, popup.source, popup.entryID, popup.occurrence.microseconds])
        }
    }

    static func removeWaiting(_ occurrenceID: String, in database: Database) throws {
        try database.cachedStatement(sql: "DELETE FROM waiting_popup WHERE occurrence_id = ?").execute(arguments: [
            occurrenceID
        ])
    }
}
