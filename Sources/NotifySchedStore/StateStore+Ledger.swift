import GRDB
import NotifySchedCore

extension StateStore {
    /// Writes `record`, replacing any earlier record of the same occurrence.
    ///
    /// - Complexity: one transaction; O(log n) in the ledger's size.
    public func record(_ record: LedgerRecord) throws(StoreError) {
        try write("record occurrence \(record.occurrenceID)") { try Self.upsert(record, in: $0) }
    }

    /// The record of the occurrence with `occurrenceID`, or nil when notify-sched never recorded it.
    public func ledgerRecord(occurrenceID: String) throws(StoreError) -> LedgerRecord? {
        try read("read occurrence \(occurrenceID)") { database in
            try Row.fetchOne(
                database.cachedStatement(sql: "SELECT * FROM ledger WHERE occurrence_id = ?"), arguments: [occurrenceID]
            )
            .flatMap(LedgerRecord.init(row:))
        }
    }

    /// The record of the latest occurrence of every entry of `source` that has one, by entry id:
    /// when each entry last fired (or was missed) and what became of it.
    public func latestRecords(source: String) throws(StoreError) -> [String: LedgerRecord] {
        try read("read the ledger of \(source)") { database in
            var latest: [String: LedgerRecord] = [:]
            try Self.collectLatest(in: database, source: source, into: &latest)
            return latest
        }
    }

    /// The record of the latest occurrence of each of `entryIDs` of `source` that has one, by
    /// entry id: what `latestRecords(source:)` says of those entries, read through the index
    /// for them only (a page of a listing, whatever the ledger's size).
    public func latestRecords(source: String, entryIDs: [String]) throws(StoreError) -> [String: LedgerRecord] {
        try read("read the ledger of \(source)") { database in
            var latest: [String: LedgerRecord] = [:]
            // Well under SQLite's bound on the parameters of one statement.
            for chunk in stride(from: 0, to: entryIDs.count, by: 500) {
                try Self.collectLatest(
                    in: database, source: source, entryIDs: entryIDs[chunk..<min(chunk + 500, entryIDs.count)],
                    into: &latest)
            }
            return latest
        }
    }

    /// Adds the latest record of each entry of `source` (of `entryIDs` only, when given) to
    /// `latest`, by entry id.
    private static func collectLatest(
        in database: Database, source: String, entryIDs: ArraySlice<String>? = nil,
        into latest: inout [String: LedgerRecord]
    ) throws {
        let named = entryIDs.map {
            " AND entry_id IN (\(Array(repeating: "?", count: $0.count).joined(separator: ",")))"
        }
        // SQLite takes the bare columns of an aggregate query from the row holding the max().
        let rows = try Row.fetchCursor(
            database.cachedStatement(
                sql: "SELECT *, max(occurrence_us) FROM ledger WHERE source = ?\(named ?? "") GROUP BY entry_id"),
            arguments: StatementArguments([source] + Array(entryIDs ?? [])))
        while let row = try rows.next() {
            if let record = LedgerRecord(row: row) { latest[record.entryID] = record }
        }
    }

    /// The records whose popups may still be on screen: delivered, with a popup id.
    public func onScreen() throws(StoreError) -> [LedgerRecord] {
        try read("read the popups on screen") { database in
            try Row.fetchAll(
                database.cachedStatement(
                    sql: "SELECT * FROM ledger WHERE outcome = ? AND popup_id IS NOT NULL ORDER BY occurrence_us"),
                arguments: [LedgerOutcome.delivered.rawValue]
            ).compactMap(LedgerRecord.init(row:))
        }
    }
}

extension StateStore {
    /// Deletes the records written before `cutoff`, with what was kept of their popups, except
    /// each entry's latest: that one tells the planner what never to show again, so the ledger
    /// keeps one record per entry however old, and everything of the recent past.
    ///
    /// - Returns: How many records were deleted.
    @discardableResult
    public func pruneLedger(recordedBefore cutoff: Instant) throws(StoreError) -> Int {
        try write("prune the ledger") { database in
            // Each row's delivered occurrence goes with it (ON DELETE CASCADE).
            try database.cachedStatement(
                sql: """
                    DELETE FROM ledger WHERE recorded_us < ? AND occurrence_us < (
                        SELECT max(latest.occurrence_us) FROM ledger AS latest
                        WHERE latest.source = ledger.source AND latest.entry_id = ledger.entry_id)
                    """
            ).execute(arguments: [cutoff.microseconds])
            let deleted = database.changesCount
            try Self.pruneImpressions(before: cutoff, in: database)
            try Self.pruneReceipts(before: cutoff, in: database)
            return deleted
        }
    }
}

extension LedgerRecord {
    /// A record from a `ledger` row; nil when the row holds an outcome this version does not know.
    init?(row: Row) {
        guard let outcome = LedgerOutcome(rawValue: row["outcome"]) else { return nil }
        let popupID: Int64? = row["popup_id"]
        let suppression: String? = row["suppression"]
        self.init(
            occurrenceID: row["occurrence_id"], source: row["source"], entryID: row["entry_id"],
            occurrence: Instant(microseconds: row["occurrence_us"]),
            popupID: popupID.map { UInt32(truncatingIfNeeded: $0) },
            outcome: outcome, recordedAt: Instant(microseconds: row["recorded_us"]),
            suppression: suppression.flatMap(Suppression.init(encoded:)),
            receipts: ReceiptTag(ledgerRow: row))
    }
}

extension ReceiptTag {
    /// The tag of a `ledger` row's `receipts` and `receipts_version`; nil when it does not count.
    init?(ledgerRow row: Row) {
        guard row["receipts"] as Bool? ?? false else { return nil }
        self.init(feedVersion: row["receipts_version"])
    }
}
