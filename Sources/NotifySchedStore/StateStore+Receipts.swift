import GRDB
import NotifySchedCore

// Receipts (docs/receipts.md): counted in the transaction that writes the ledger outcome they
// count, so that a crash neither loses nor doubles one; sealed into bodies; removed once a
// collector took them. The queue is bounded in bytes and in age; what the bounds drop is
// counted, and said in the source's next body.
extension StateStore {
    /// The most bytes the queue holds: the sealed bodies, and an estimate of the bodies of the
    /// counts not sealed yet (`queueBytes(in:)`).
    public static let receiptQueueLimit = 1 << 20
    /// The oldest a count or a body gets: older ones are dropped.
    public static let receiptRetention = TimeSpan.days(90)
    /// The feed version of a tally whose feed has none (the key's column is not nullable).
    private static let noFeedVersion: Int64 = -1

    /// Adds one to `counter` of the entry's tally of today, when the occurrence it counts is
    /// tagged; the bounds then drop the oldest tallies if a new one made the queue too big.
    static func count(
        _ counter: ReceiptCounter, source: String, entryID: String, tag: ReceiptTag?, at now: Instant,
        in database: Database
    ) throws {
        guard let tag else { return }
        let arguments: StatementArguments = [
            source, entryID, tag.feedVersion ?? noFeedVersion, ReceiptDay(now).daysSinceEpoch, counter.description,
        ]
        try database.cachedStatement(
            sql: """
                UPDATE receipt_count SET count = count + 1
                WHERE source = ? AND entry_id = ? AND feed_version = ? AND day = ? AND counter = ?
                """
        ).execute(arguments: arguments)
        guard database.changesCount == 0 else { return }
        try database.cachedStatement(
            sql:
                "INSERT INTO receipt_count (source, entry_id, feed_version, day, counter, count) VALUES (?, ?, ?, ?, ?, 1)"
        ).execute(arguments: arguments)
        try boundReceipts(in: database)
    }

    /// The ledger line of occurrence `occurrenceID`, for counting a change of it: its outcome,
    /// and what a receipt counts it under; nil when it has none.
    static func receiptLine(
        of occurrenceID: String, in database: Database
    ) throws -> (outcome: String, source: String, entryID: String, tag: ReceiptTag?)? {
        try Row.fetchOne(
            database.cachedStatement(
                sql: "SELECT source, entry_id, outcome, receipts, receipts_version FROM ledger WHERE occurrence_id = ?"),
            arguments: [occurrenceID]
        ).map { row in (row["outcome"], row["source"], row["entry_id"], ReceiptTag(ledgerRow: row)) }
    }

    /// Drops the oldest tallies, then the oldest bodies, while the queue is over its bound.
    private static func boundReceipts(in database: Database) throws {
        while try queueBytes(in: database) > receiptQueueLimit {
            if let oldest = try Row.fetchOne(
                database.cachedStatement(
                    sql: "SELECT source, entry_id, feed_version, day FROM receipt_count ORDER BY day LIMIT 1"))
            {
                try dropTally(oldest, in: database)
            } else if let batch = try Row.fetchOne(
                database.cachedStatement(
                    sql: "SELECT batch_id, source, receipts, total FROM receipt_batch ORDER BY sealed_us LIMIT 1"))
            {
                try dropBatch(batch, in: database)
            } else {
                return
            }
        }
    }

    /// The queue's size in bytes, as the database keeps it (migration `18-receipt-queue-size`).
    static func queueBytes(in database: Database) throws -> Int {
        try Int.fetchOne(database.cachedStatement(sql: "SELECT bytes FROM receipt_queue")) ?? 0
    }

    /// Drops the tally of a row's source, entry, feed version and day, adding it to its source's
    /// drops.
    private static func dropTally(_ key: Row, in database: Database) throws {
        let arguments: StatementArguments = [key["source"], key["entry_id"], key["feed_version"], key["day"]]
        let matching = "WHERE source = ? AND entry_id = ? AND feed_version = ? AND day = ?"
        let count =
            try Int.fetchOne(
                database.cachedStatement(sql: "SELECT sum(count) FROM receipt_count \(matching)"), arguments: arguments)
            ?? 0
        try database.cachedStatement(sql: "DELETE FROM receipt_count \(matching)").execute(arguments: arguments)
        try addDrops(ReceiptDrops(receipts: 1, count: count), source: key["source"], in: database)
    }

    /// Drops a sealed body (a row of its `batch_id`, `source`, `receipts`, `total`), adding
    /// it to its source's drops.
    private static func dropBatch(_ batch: Row, in database: Database) throws {
        try database.cachedStatement(sql: "DELETE FROM receipt_batch WHERE batch_id = ?").execute(arguments: [
            batch["batch_id"]
        ])
        try addDrops(
            ReceiptDrops(receipts: batch["receipts"], count: batch["total"]), source: batch["source"], in: database)
    }

    private static func addDrops(_ drops: ReceiptDrops, source: String, in database: Database) throws {
        try database.cachedStatement(
            sql: """
                INSERT INTO receipt_source (source, dropped_receipts, dropped_count) VALUES (?, ?, ?)
                ON CONFLICT (source) DO UPDATE SET
                    dropped_receipts = dropped_receipts + excluded.dropped_receipts,
                    dropped_count = dropped_count + excluded.dropped_count
                """
        ).execute(arguments: [source, drops.receipts, drops.count])
    }

    /// Drops the tallies of days before `cutoff`'s and the bodies sealed before it: the queue
    /// keeps `receiptRetention`.
    static func pruneReceipts(before cutoff: Instant, in database: Database) throws {
        let oldDays = try Row.fetchAll(
            database.cachedStatement(
                sql: "SELECT DISTINCT source, entry_id, feed_version, day FROM receipt_count WHERE day < ?"),
            arguments: [ReceiptDay(cutoff).daysSinceEpoch])
        for key in oldDays { try dropTally(key, in: database) }
        for batch in try Row.fetchAll(
            database.cachedStatement(
                sql: "SELECT batch_id, source, receipts, total FROM receipt_batch WHERE sealed_us < ?"),
            arguments: [cutoff.microseconds])
        {
            try dropBatch(batch, in: database)
        }
    }
}

extension StateStore {
    /// Seals each source's counts, and what its bounds dropped, into a body for its endpoint
    /// (`ReceiptBody.encode`), in one transaction: the counts leave the open tallies as the
    /// body that carries them is stored. Counts after this go to new tallies, sent in a later
    /// body; a collector sums the tallies of an entry's day (docs/receipts.md).
    ///
    /// - Parameters:
    ///   - endpoints: Where each source's receipts go, by location: only those are sealed.
    ///   - generator: Draws the bodies' random ids.
    /// - Returns: Every body not taken yet, the new ones with the others, oldest first.
    @discardableResult
    public func sealReceipts(
        endpoints: [String: String], at now: Instant, using generator: inout some RandomNumberGenerator
    ) throws(StoreError) -> [ReceiptBatch] {
        try write("seal the receipts") { database in
            try Self.pruneReceipts(before: now - Self.receiptRetention, in: database)
            for (source, endpoint) in endpoints.sorted(by: { $0.key < $1.key }) {
                try Self.seal(source, for: endpoint, at: now, using: &generator, in: database)
            }
            return try Self.batches(in: database)
        }
    }

    /// Starts the daemon's upload of `source`'s receipts at `now`: notes that one started, and
    /// where it goes (which `notify-sched receipts` then uses for a source whose signed feed
    /// named it), and seals what was counted into a body for `endpoint` when no body of the source waits
    /// (so that a collector that refuses gets one body a day to retry, not a pile), in one
    /// transaction.
    ///
    /// - Returns: The source's bodies waiting, oldest first.
    public func startReceiptUpload(
        of source: String, to endpoint: String, at now: Instant, using generator: inout some RandomNumberGenerator
    ) throws(StoreError) -> [ReceiptBatch] {
        try write("start the upload of the receipts of \(source)") { database in
            try Self.pruneReceipts(before: now - Self.receiptRetention, in: database)
            try database.cachedStatement(
                sql: """
                    INSERT INTO receipt_source (source, last_attempt_us, endpoint) VALUES (?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET
                        last_attempt_us = excluded.last_attempt_us, endpoint = excluded.endpoint
                    """
            ).execute(arguments: [source, now.microseconds, endpoint])
            if try Self.batches(in: database, of: source).isEmpty {
                try Self.seal(source, for: endpoint, at: now, using: &generator, in: database)
            }
            return try Self.batches(in: database, of: source)
        }
    }

    /// Seals `source`'s counts and drops into a body for `endpoint`, unless it has none. The
    /// body fits the queue's bound beside the other bodies: the oldest tallies are dropped, and
    /// said in it, when it would not.
    private static func seal(
        _ source: String, for endpoint: String, at now: Instant, using generator: inout some RandomNumberGenerator,
        in database: Database
    ) throws {
        var tallies = try tallies(of: source, in: database)
        var dropped = try drops(of: source, in: database)
        guard !tallies.isEmpty || dropped.receipts > 0 else { return }
        let room =
            receiptQueueLimit
            - (try Int.fetchOne(
                database.cachedStatement(sql: "SELECT coalesce(sum(length(body)), 0) FROM receipt_batch"))
                ?? 0)
        func encode() -> ReceiptBody {
            ReceiptBody.encode(
                source: source, tallies: tallies, dropped: dropped, day: ReceiptDay(now), using: &generator)
        }
        var body = encode()
        while body.json.utf8.count > room, !tallies.isEmpty {
            let perTally = max(1, body.json.utf8.count / tallies.count)
            let cut = min(tallies.count, (body.json.utf8.count - room) / perTally + 1)
            for tally in tallies.prefix(cut) {
                dropped.receipts += 1
                dropped.count += tally.counts.values.reduce(0, +)
            }
            tallies.removeFirst(cut)
            body = encode()
        }
        try database.cachedStatement(
            sql: """
                INSERT INTO receipt_batch (batch_id, source, endpoint, body, receipts, total, sealed_us, next_attempt_us)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            body.batchID, source, endpoint, body.json, tallies.count,
            tallies.reduce(0) { $0 + $1.counts.values.reduce(0, +) }, now.microseconds, now.microseconds,
        ])
        try database.cachedStatement(sql: "DELETE FROM receipt_count WHERE source = ?").execute(arguments: [source])
        try database.cachedStatement(
            sql: "UPDATE receipt_source SET dropped_receipts = 0, dropped_count = 0 WHERE source = ?"
        ).execute(arguments: [source])
        try boundReceipts(in: database)
    }

    /// The bodies sealed and not taken by a collector yet, oldest first.
    public func receiptBatches() throws(StoreError) -> [ReceiptBatch] {
        try read("read the receipts") { try Self.batches(in: $0) }
    }

    /// The counts of `source` not sealed yet, by day, entry and feed version.
    public func openReceipts(of source: String) throws(StoreError) -> [ReceiptTally] {
        try read("read the receipts of \(source)") { try Self.tallies(of: source, in: $0) }
    }

    /// A collector took the body `batchID` (it answered 2xx): it goes, and its source's last
    /// upload is now.
    public func receiptsSent(_ batchID: String, at now: Instant) throws(StoreError) {
        try write("record the receipts \(batchID) as sent") { database in
            guard
                let source = try String.fetchOne(
                    database.cachedStatement(sql: "SELECT source FROM receipt_batch WHERE batch_id = ?"),
                    arguments: [batchID])
            else { return }
            try database.cachedStatement(sql: "DELETE FROM receipt_batch WHERE batch_id = ?").execute(arguments: [
                batchID
            ])
            try database.cachedStatement(
                sql: """
                    INSERT INTO receipt_source (source, last_sent_us) VALUES (?, ?)
                    ON CONFLICT (source) DO UPDATE SET last_sent_us = excluded.last_sent_us, last_error = NULL
                    """
            ).execute(arguments: [source, now.microseconds])
        }
    }

    /// An upload of the body `batchID` failed with `error`: it stays, and is tried again from
    /// `retryAt` on.
    public func receiptsFailed(_ batchID: String, error: String, retryAt: Instant) throws(StoreError) {
        try write("record the failed upload of \(batchID)") { database in
            try database.cachedStatement(
                sql:
                    "UPDATE receipt_batch SET attempts = attempts + 1, next_attempt_us = ?, last_error = ? WHERE batch_id = ?"
            ).execute(arguments: [retryAt.microseconds, error, batchID])
            try database.cachedStatement(
                sql: """
                    INSERT INTO receipt_source (source, last_error)
                        SELECT source, ? FROM receipt_batch WHERE batch_id = ?
                    ON CONFLICT (source) DO UPDATE SET last_error = excluded.last_error
                    """
            ).execute(arguments: [error, batchID])
        }
    }

    /// Deletes everything queued for the sources not in `sources` (receipts turned off, or the
    /// source no longer configured): nothing of theirs is sent.
    ///
    /// - Returns: How many tallies and bodies were deleted.
    @discardableResult
    public func discardReceipts(keeping sources: Set<String>) throws(StoreError) -> Int {
        try write("discard the receipts turned off") { database in
            var deleted = 0
            let queued = try String.fetchAll(
                database.cachedStatement(
                    sql:
                        "SELECT source FROM receipt_count UNION SELECT source FROM receipt_batch UNION SELECT source FROM receipt_source"
                ))
            for source in queued where !sources.contains(source) {
                for table in ["receipt_count", "receipt_batch", "receipt_source"] {
                    try database.execute(sql: "DELETE FROM \(table) WHERE source = ?", arguments: [source])
                    if table != "receipt_source" { deleted += database.changesCount }
                }
            }
            return deleted
        }
    }

    /// What the queue holds of each source that has anything queued or sent, by location.
    public func receiptQueue() throws(StoreError) -> [String: ReceiptQueueState] {
        try read("read the receipts") { database in
            var states: [String: ReceiptQueueState] = [:]
            for row in try Row.fetchAll(
                database.cachedStatement(
                    sql:
                        "SELECT source, count(*) FROM (SELECT DISTINCT source, entry_id, feed_version, day FROM receipt_count) GROUP BY source"
                ))
            {
                states[row[0], default: ReceiptQueueState()].openReceipts = row[1]
            }
            for row in try Row.fetchAll(
                database.cachedStatement(
                    sql: """
                        SELECT source, count(*), min(CASE WHEN attempts > 0 THEN next_attempt_us END)
                        FROM receipt_batch GROUP BY source
                        """))
            {
                states[row[0], default: ReceiptQueueState()].batches = row[1]
                states[row[0]]?.nextAttempt = (row[2] as Int64?).map(Instant.init(microseconds:))
            }
            for row in try Row.fetchAll(database.cachedStatement(sql: "SELECT * FROM receipt_source")) {
                var state = states[row["source"], default: ReceiptQueueState()]
                state.dropped = ReceiptDrops(receipts: row["dropped_receipts"], count: row["dropped_count"])
                state.lastSent = (row["last_sent_us"] as Int64?).map(Instant.init(microseconds:))
                state.lastError = row["last_error"]
                state.lastAttempt = (row["last_attempt_us"] as Int64?).map(Instant.init(microseconds:))
                state.endpoint = row["endpoint"]
                states[row["source"]] = state
            }
            return states
        }
    }

    private static func tallies(of source: String, in database: Database) throws -> [ReceiptTally] {
        var tallies: [ReceiptTally] = []
        for row in try Row.fetchAll(
            database.cachedStatement(
                sql: """
                    SELECT entry_id, feed_version, day, counter, count FROM receipt_count WHERE source = ?
                    ORDER BY day, entry_id, feed_version
                    """), arguments: [source])
        {
            let version: Int64 = row["feed_version"]
            let (entryID, day) = (row["entry_id"] as String, ReceiptDay(daysSinceEpoch: row["day"]))
            let feedVersion = version == noFeedVersion ? nil : version
            guard let counter = ReceiptCounter(name: row["counter"]) else { continue }
            if let last = tallies.last, last.entryID == entryID, last.day == day, last.feedVersion == feedVersion {
                tallies[tallies.count - 1].counts[counter] = row["count"]
            } else {
                tallies.append(
                    ReceiptTally(
                        source: source, entryID: entryID, feedVersion: feedVersion, day: day,
                        counts: [counter: row["count"]]))
            }
        }
        return tallies
    }

    private static func drops(of source: String, in database: Database) throws -> ReceiptDrops {
        guard
            let row = try Row.fetchOne(
                database.cachedStatement(
                    sql: "SELECT dropped_receipts, dropped_count FROM receipt_source WHERE source = ?"),
                arguments: [source])
        else { return ReceiptDrops() }
        return ReceiptDrops(receipts: row[0], count: row[1])
    }

    /// The bodies waiting, of `source` only when given, oldest first.
    private static func batches(in database: Database, of source: String? = nil) throws -> [ReceiptBatch] {
        let only = source == nil ? "" : "WHERE source = ?"
        return try Row.fetchAll(
            database.cachedStatement(sql: "SELECT * FROM receipt_batch \(only) ORDER BY sealed_us, batch_id"),
            arguments: StatementArguments(source.map { [$0] } ?? [])
        )
        .map { row in
            ReceiptBatch(
                batchID: row["batch_id"], source: row["source"], endpoint: row["endpoint"], body: row["body"],
                receipts: row["receipts"], total: row["total"], sealedAt: Instant(microseconds: row["sealed_us"]),
                attempts: row["attempts"], nextAttempt: Instant(microseconds: row["next_attempt_us"]),
                lastError: row["last_error"])
        }
    }
}
