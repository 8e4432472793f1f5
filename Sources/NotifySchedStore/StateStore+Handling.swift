import GRDB
import NotifySchedCore

extension StateStore {
    /// A popup the server accepted, for the ledger: its line and what handling it later needs.
    public struct Delivery: Sendable {
        /// The ledger line, with the server's popup id when there is one.
        public var record: LedgerRecord
        /// The occurrence as shown, for `handle ID` and a restarted daemon.
        public var occurrence: DeliveredOccurrence
        /// Which notification server instance took it (`DesktopNotifier.serverInstance`); nil
        /// when its popup is never to be shown again by a restarted daemon.
        public var server: String?
        /// The earlier occurrence whose unanswered popup this one replaced on screen: it is
        /// recorded `closed`.
        public var replaced: String?
        /// What the caps count of it: nil for a test popup, which they do not.
        public var impression: Impression?

        public init(
            _ record: LedgerRecord, of occurrence: DeliveredOccurrence, server: String?,
            replacing replaced: String? = nil, impression: Impression? = nil
        ) {
            self.record = record
            self.occurrence = occurrence
            self.server = server
            self.replaced = replaced
            self.impression = impression
        }
    }

    /// Records that the server accepted the popup of `occurrence` (see `Delivery`), in one
    /// transaction.
    public func recordDelivery(
        _ record: LedgerRecord, of occurrence: DeliveredOccurrence, server: String?, replacing replaced: String? = nil
    ) throws(StoreError) {
        try recordDeliveries([Delivery(record, of: occurrence, server: server, replacing: replaced)])
    }

    /// Records popups the server accepted, in their order, in one transaction (one sync to
    /// disk for a burst): each one's ledger line and what handling it later needs. A pending
    /// reminder of an entry (`EntryAnswer.remind`) ends: a popup of it is on screen again.
    ///
    /// - Complexity: one transaction of a few rows per delivery; O(log n) each in the ledger's size.
    public func recordDeliveries(_ deliveries: [Delivery]) throws(StoreError) {
        guard !deliveries.isEmpty else { return }
        try write(Self.recording(deliveries)) { try Self.record(deliveries, in: $0) }
    }

    /// Records like `recordDeliveries(_:)`, without waiting for the write and its sync to disk:
    /// the caller's thread goes on at once (`writeInBackground`). Every read and write made
    /// afterwards waits for it, so each sees it.
    ///
    /// - Parameter failed: Gets the error, on another thread, when the write fails.
    public func recordDeliveriesInBackground(
        _ deliveries: [Delivery], failed: @escaping @Sendable (StoreError) -> Void
    ) {
        guard !deliveries.isEmpty else { return }
        writeInBackground(Self.recording(deliveries), { try Self.record(deliveries, in: $0) }, failed: failed)
    }

    private static func recording(_ deliveries: [Delivery]) -> String {
        deliveries.count == 1
            ? "record delivery \(deliveries[0].record.occurrenceID)" : "record \(deliveries.count) deliveries"
    }

    private static func record(_ deliveries: [Delivery], in database: Database) throws {
        for delivery in deliveries {
            let (record, occurrence, server, replaced) = (
                delivery.record, delivery.occurrence, delivery.server, delivery.replaced
            )
            try Self.upsert(record, in: database)
            try Self.removeWaiting(record.occurrenceID, in: database)
            if let impression = delivery.impression { try Self.insert(impression, in: database) }
            // Shown again, or a later occurrence shown: the entry's reminder is answered.
            try database.cachedStatement(
                sql: "DELETE FROM reminder WHERE source = ? AND entry_id = ?"
            ).execute(arguments: [record.source, record.entryID])
            if let replaced {
                try database.cachedStatement(
                    sql: """
                        UPDATE ledger SET outcome = ?, popup_id = NULL, recorded_us = ?
                        WHERE occurrence_id = ? AND outcome = ?
                        """
                ).execute(arguments: [
                    LedgerOutcome.closed.rawValue, record.recordedAt.microseconds, replaced,
                    LedgerOutcome.delivered.rawValue,
                ])
                if database.changesCount == 1, let line = try Self.receiptLine(of: replaced, in: database) {
                    try Self.count(
                        .withdrawn, source: line.source, entryID: line.entryID, tag: line.tag, at: record.recordedAt,
                        in: database)
                }
            }
            let content = occurrence.content
            let action = content.action
            let news = occurrence.news
            try database.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO delivered (
                        occurrence_id, dialect, title, body, icon, urgency, category, action_label, action_url,
                        news_ok_label, news_cancel_label, news_repeats, news_always, news_hash, news_is_classic,
                        delivered_us, server, timeout_us, sound, image, markup)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                record.occurrenceID, occurrence.dialect.rawValue, content.title, content.body, content.icon,
                content.urgency.rawValue, occurrence.category, action?.label, action?.url.string, news?.okLabel,
                news?.cancelLabel, news?.repeats, news?.always, news?.contentHash, news?.isClassic,
                occurrence.deliveredAt.microseconds, server, content.timeout?.microseconds, content.sound,
                content.image, content.markup,
            ])
        }
    }

    /// Stores a new popup id for a delivered occurrence: the server showed it again (after it
    /// restarted, or when a restarted daemon re-issued it).
    public func setPopup(_ popupID: UInt32, server: String?, forOccurrence occurrenceID: String) throws(StoreError) {
        try write("record the popup of \(occurrenceID)") { database in
            try database.cachedStatement(
                sql: "UPDATE ledger SET popup_id = ? WHERE occurrence_id = ?"
            ).execute(arguments: [Int64(popupID), occurrenceID])
            try database.cachedStatement(
                sql: "UPDATE delivered SET server = ? WHERE occurrence_id = ?"
            ).execute(arguments: [server, occurrenceID])
        }
    }

    /// The occurrence delivered under `id`, or nil when notify-sched never delivered one.
    public func deliveredOccurrence(id: String) throws(StoreError) -> DeliveredOccurrence? {
        try read("read delivered occurrence \(id)") { database in
            try Row.fetchOne(
                database.cachedStatement(
                    sql: """
                        SELECT delivered.*, ledger.source, ledger.entry_id, ledger.occurrence_us FROM delivered
                        JOIN ledger USING (occurrence_id) WHERE occurrence_id = ?
                        """),
                arguments: [id]
            ).flatMap(DeliveredOccurrence.init(row:))
        }
    }

    /// The delivered occurrences whose occurrence id or entry id is `id`, for
    /// `OccurrenceLookup`: the one of that occurrence id, or the latest of each source's entry
    /// of that id.
    ///
    /// - Complexity: O(s log n) for s sources (the ledger's index by entry id).
    public func occurrences(named id: String) throws(StoreError) -> [OccurrenceLookup.Candidate] {
        try read("look up \(id)") { database in
            try Row.fetchAll(
                database.cachedStatement(
                    sql: """
                        SELECT occurrence_id, source, entry_id, occurrence_us FROM ledger JOIN delivered USING (occurrence_id)
                        WHERE occurrence_id = ?
                        UNION
                        SELECT occurrence_id, source, entry_id, max(occurrence_us) FROM ledger JOIN delivered USING (occurrence_id)
                        WHERE entry_id = ? GROUP BY source
                        """),
                arguments: [id, id]
            ).map { row in
                OccurrenceLookup.Candidate(
                    occurrenceID: row[0], source: row[1], entryID: row[2], occurrence: Instant(microseconds: row[3]))
            }
        }
    }

    /// The occurrences whose popups may still be on screen and still matter: delivered since
    /// `since`, not answered or closed yet, shown by the notification server instance `server`,
    /// and the latest occurrence of their entry (a newer one supersedes them); the `limit` most
    /// recent of them, oldest first.
    ///
    /// - Complexity: O(k log n) for k occurrences delivered since `since`.
    public func unanswered(
        since: Instant, server: String, limit: Int = .max
    ) throws(StoreError) -> [PopupOnServer] {
        try read("read the popups on screen") { database in
            try Row.fetchAll(
                database.cachedStatement(
                    sql: """
                        SELECT delivered.*, ledger.source, ledger.entry_id, ledger.occurrence_us, ledger.popup_id FROM delivered
                        JOIN ledger USING (occurrence_id)
                        WHERE delivered.delivered_us >= ? AND delivered.server = ? AND ledger.outcome = ?
                            AND ledger.popup_id IS NOT NULL
                            AND ledger.occurrence_us = (
                                SELECT max(later.occurrence_us) FROM ledger AS later
                                WHERE later.source = ledger.source AND later.entry_id = ledger.entry_id)
                        ORDER BY delivered.delivered_us DESC LIMIT ?
                        """),
                arguments: [since.microseconds, server, LedgerOutcome.delivered.rawValue, Int64(clamping: limit)]
            ).reversed().compactMap(Self.shownPopup)
        }
    }

    /// Records that the prompt about `occurrenceID` is on screen since `now` as popup `popupID`
    /// of the notification server instance `server`, until it is answered (`recordHandling`).
    public func recordPrompt(
        about occurrenceID: String, popupID: UInt32, server: String, at now: Instant
    ) throws(StoreError) {
        try write("record the prompt about \(occurrenceID)") { database in
            try database.cachedStatement(
                sql: "INSERT OR REPLACE INTO prompt (occurrence_id, popup_id, server, shown_us) VALUES (?, ?, ?, ?)"
            ).execute(arguments: [occurrenceID, Int64(popupID), server, now.microseconds])
        }
    }

    /// The prompts a restarted daemon takes over on the notification server instance `server`:
    /// those shown there since `since`, the `limit` most recent, oldest first, with their popup
    /// ids. The others are forgotten: their server went away with them, or they are old.
    ///
    /// - Complexity: O(p log n) for p stored prompts.
    public func promptsToTakeOver(
        server: String, since: Instant, limit: Int
    ) throws(StoreError) -> [PopupOnServer] {
        try write("take over the prompts on screen") { database in
            try database.cachedStatement(
                sql: "DELETE FROM prompt WHERE server != ? OR shown_us < ?"
            ).execute(arguments: [server, since.microseconds])
            return try Row.fetchAll(
                database.cachedStatement(
                    sql: """
                        SELECT delivered.*, ledger.source, ledger.entry_id, ledger.occurrence_us, prompt.popup_id FROM prompt
                        JOIN delivered USING (occurrence_id) JOIN ledger USING (occurrence_id)
                        ORDER BY prompt.shown_us DESC LIMIT ?
                        """),
                arguments: [Int64(clamping: limit)]
            ).reversed().compactMap(Self.shownPopup)
        }
    }

    /// A delivered occurrence with the server's id of its popup, from a row of `delivered.*`,
    /// the ledger's `source` and `entry_id`, and a `popup_id`.
    private static func shownPopup(_ row: Row) -> PopupOnServer? {
        let popupID: Int64 = row["popup_id"]
        return DeliveredOccurrence(row: row).map { PopupOnServer($0, popupID: UInt32(truncatingIfNeeded: popupID)) }
    }

    /// Stores what handling one notification came to, in one transaction: the state change the
    /// answer made, applied to the stored state (so a `handle` in another process and the
    /// daemon never undo each other's changes), and the ledger outcome of the occurrence.
    ///
    /// - Parameters:
    ///   - outcome: What handling came to.
    ///   - now: When; a reminder counts from it.
    /// - Complexity: O(m) in the marks of the occurrence's source, which are read; the write is
    ///   as small as the change.
    public func recordHandling(_ outcome: HandlingOutcome, at now: Instant) throws(StoreError) {
        let occurrence = outcome.occurrence
        try write("record the answer to \(occurrence.id)") { database in
            if let change = outcome.change {
                let stored = try Self.handlingState(occurrence.source, in: database)
                var state = HandlingState(sources: [occurrence.source: stored])
                // A meta item's closing notes the version the source's last session started in.
                let version = try String.fetchOne(
                    database.cachedStatement(sql: "SELECT application_version FROM source_state WHERE source = ?"),
                    arguments: [occurrence.source])
                state.apply(
                    change, to: occurrence, at: now, applicationVersion: version, remindUntil: outcome.remindUntil)
                try Self.writeChange(from: stored, to: state[occurrence.source], for: occurrence.source, in: database)
            }
            if outcome.endsPrompt {
                try database.cachedStatement(sql: "DELETE FROM prompt WHERE occurrence_id = ?").execute(arguments: [
                    occurrence.id
                ])
            }
            if let ledgerOutcome = LedgerOutcome(outcome) {
                // Counted once per change of the line's outcome: an answer given twice counts once.
                if let line = try Self.receiptLine(of: occurrence.id, in: database),
                    line.outcome != ledgerOutcome.rawValue, let counter = ReceiptCounter(outcome)
                {
                    try Self.count(
                        counter, source: line.source, entryID: line.entryID, tag: line.tag, at: now, in: database)
                }
                try database.cachedStatement(
                    sql: "UPDATE ledger SET outcome = ?, recorded_us = ? WHERE occurrence_id = ?"
                ).execute(arguments: [ledgerOutcome.rawValue, now.microseconds, occurrence.id])
            }
        }
    }

    /// Writes `record`, and counts its outcome in the receipts when it is tagged: a delivery
    /// when the occurrence had no line yet (its popup shown again, after a crash or a
    /// "Remind Me Later", counts once), another outcome when the line did not have it already.
    static func upsert(_ record: LedgerRecord, in database: Database) throws {
        let before = record.receipts == nil ? nil : try receiptLine(of: record.occurrenceID, in: database)
        try database.cachedStatement(
            sql: """
                INSERT INTO ledger (
                    occurrence_id, source, entry_id, occurrence_us, popup_id, outcome, recorded_us, suppression,
                    receipts, receipts_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (occurrence_id) DO UPDATE SET
                    popup_id = excluded.popup_id, outcome = excluded.outcome, recorded_us = excluded.recorded_us,
                    suppression = excluded.suppression, receipts = excluded.receipts,
                    receipts_version = excluded.receipts_version
                """
        ).execute(arguments: [
            record.occurrenceID, record.source, record.entryID, record.occurrence.microseconds,
            record.popupID.map { Int64($0) }, record.outcome.rawValue, record.recordedAt.microseconds,
            record.suppression?.encoded, record.receipts != nil, record.receipts?.feedVersion,
        ])
        let counts = record.outcome == .delivered ? before == nil : before?.outcome != record.outcome.rawValue
        if counts {
            try count(
                ReceiptCounter(recording: record.outcome, suppression: record.suppression), source: record.source,
                entryID: record.entryID, tag: record.receipts, at: record.recordedAt, in: database)
        }
    }

    /// What the user has done with the notifications of `source`.
    static func handlingState(_ source: String, in database: Database) throws -> SourceHandlingState {
        var state = SourceHandlingState()
        for row in try Row.fetchAll(
            database.cachedStatement(
                sql: "SELECT list, entry_id FROM handling_mark WHERE source = ? ORDER BY position"),
            arguments: [source])
        {
            if row["list"] == "viewed" {
                state.viewed.append(row["entry_id"])
            } else {
                state.ignored.append(row["entry_id"])
            }
        }
        let lastReminded = try Int64.fetchOne(
            database.cachedStatement(sql: "SELECT last_reminded_us FROM source_state WHERE source = ?"),
            arguments: [source])
        state.lastReminded = lastReminded.map(Instant.init(microseconds:))
        for row in try Row.fetchAll(
            database.cachedStatement(sql: "SELECT entry_id, reminded_us, until_us FROM reminder WHERE source = ?"),
            arguments: [source])
        {
            state.reminded[row["entry_id"]] = Reminder(row: row)
        }
        state.shownNews = Set(
            try String.fetchAll(
                database.cachedStatement(sql: "SELECT content_hash FROM news_shown WHERE source = ?"),
                arguments: [source]))
        for row in try Row.fetchAll(
            database.cachedStatement(
                sql: "SELECT uuid, closing, closed_us, application_version FROM meta_closing WHERE source = ?"),
            arguments: [source])
        {
            guard let closing = MetaClosing(rawValue: row["closing"]) else { continue }
            state.metaClosings[row["uuid"], default: [:]][closing] = MetaClosingRecord(
                at: Instant(microseconds: row["closed_us"]), applicationVersion: row["application_version"])
        }
        return state
    }

    /// Writes what changed from `old` to `new`, the stored state of `source`: O(size of the
    /// change), since an answer appends a mark or sets a time and never rewrites the lists.
    private static func writeChange(
        from old: SourceHandlingState, to new: SourceHandlingState, for source: String, in database: Database
    ) throws {
        for (list, before, after) in [("viewed", old.viewed, new.viewed), ("ignored", old.ignored, new.ignored)] {
            var added = after[...]
            if after.starts(with: before) {
                added = after.dropFirst(before.count)
            } else {
                try database.cachedStatement(
                    sql: "DELETE FROM handling_mark WHERE source = ? AND list = ?"
                ).execute(arguments: [source, list])
            }
            for key in added {
                try database.cachedStatement(
                    sql: "INSERT INTO handling_mark (source, list, entry_id) VALUES (?, ?, ?)"
                ).execute(arguments: [source, list, key])
            }
        }
        if new.lastReminded != old.lastReminded {
            try database.cachedStatement(
                sql: """
                    INSERT INTO source_state (source, last_reminded_us) VALUES (?, ?)
                    ON CONFLICT (source) DO UPDATE SET last_reminded_us = excluded.last_reminded_us
                    """
            ).execute(arguments: [source, new.lastReminded?.microseconds])
        }
        for key in Set(old.reminded.keys).union(new.reminded.keys) where old.reminded[key] != new.reminded[key] {
            try database.cachedStatement(
                sql: "DELETE FROM reminder WHERE source = ? AND entry_id = ?"
            ).execute(arguments: [source, key])
            if let reminder = new.reminded[key] {
                try database.cachedStatement(
                    sql: "INSERT INTO reminder (source, entry_id, reminded_us, until_us) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [source, key, reminder.requestedAt.microseconds, reminder.until?.microseconds])
            }
        }
        for hash in new.shownNews.subtracting(old.shownNews) {
            try database.cachedStatement(
                sql: "INSERT INTO news_shown (source, content_hash) VALUES (?, ?)"
            ).execute(arguments: [source, hash])
        }
        for hash in old.shownNews.subtracting(new.shownNews) {
            try database.cachedStatement(
                sql: "DELETE FROM news_shown WHERE source = ? AND content_hash = ?"
            ).execute(arguments: [source, hash])
        }
        for (uuid, closings) in new.metaClosings {
            for (closing, record) in closings where old.metaClosings[uuid]?[closing] != record {
                try database.cachedStatement(
                    sql: """
                        INSERT INTO meta_closing (source, uuid, closing, closed_us, application_version)
                        VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT (source, uuid, closing) DO UPDATE SET
                            closed_us = excluded.closed_us, application_version = excluded.application_version
                        """
                ).execute(arguments: [
                    source, uuid, closing.rawValue, record.at.microseconds, record.applicationVersion,
                ])
            }
        }
    }
}

extension DeliveredOccurrence {
    /// An occurrence from a `delivered` row joined with its ledger line; nil when the row holds
    /// a dialect or urgency this version does not know.
    init?(row: Row) {
        guard let dialect = FeedDialect(rawValue: row["dialect"]), let urgency = Urgency(rawValue: row["urgency"])
        else { return nil }
        var action: NotificationAction?
        if let url: String = row["action_url"] {
            // The URL passed the allowed schemes when it was delivered; the handler checks them
            // again before opening, so reading accepts any scheme that is not forbidden outright.
            let scheme = String(url.prefix { $0 != ":" })
            guard let parsed = try? ActionURL(url, policy: URLPolicy(extraSchemes: [scheme])) else { return nil }
            action = NotificationAction(label: row["action_label"], url: parsed)
        }
        var news: NewsHandling?
        if let hash: String = row["news_hash"] {
            news = NewsHandling(
                okLabel: row["news_ok_label"], cancelLabel: row["news_cancel_label"], repeats: row["news_repeats"],
                always: row["news_always"], contentHash: hash, isClassic: row["news_is_classic"])
        }
        self.init(
            id: row["occurrence_id"], source: row["source"], entryID: row["entry_id"], dialect: dialect,
            content: NotificationContent(
                title: row["title"], body: row["body"], icon: row["icon"], urgency: urgency, action: action,
                timeout: (row["timeout_us"] as Int64?).map(TimeSpan.init(microseconds:)), sound: row["sound"],
                image: row["image"], markup: row["markup"]),
            category: row["category"], news: news, deliveredAt: Instant(microseconds: row["delivered_us"]),
            due: (row["occurrence_us"] as Int64?).map(Instant.init(microseconds:)))
    }
}

extension Reminder {
    /// A reminder from a `reminder` row's `reminded_us` and `until_us`.
    init(row: Row) {
        let until: Int64? = row["until_us"]
        self.init(
            requestedAt: Instant(microseconds: row["reminded_us"]), until: until.map(Instant.init(microseconds:)))
    }
}
