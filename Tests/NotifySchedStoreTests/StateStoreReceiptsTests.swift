import Foundation
import GRDB
import NotifySchedCore
import NotifySchedTesting
import Testing

@testable import NotifySchedStore

/// Receipts in the state database: each count written in the transaction of the ledger
/// outcome it counts, once per change of that outcome; sealed into bodies the OTLP schema
/// accepts; removed only once sent; bounded in bytes and age, with what was dropped said.
@Suite struct StateStoreReceiptsTests {
    private let now = Instant(secondsSinceEpoch: 1_780_000_000)
    private let tag = ReceiptTag(feedVersion: 7)
    private let endpoint = "https://collector.example.org/v1/logs"

    private func freshStore() throws -> StateStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-receipts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try StateStore(path: folder.appendingPathComponent("state.sqlite").path)
    }

    /// A delivery of `entry` of `source` due and shown at `at`, tagged with `tag`.
    private func delivery(
        _ entry: String, at: Instant, source: String = "https://portal.example.org/feed.json", tag: ReceiptTag?,
        replacing replaced: String? = nil
    ) -> StateStore.Delivery {
        let id = LedgerRecord.occurrenceID(source: source, entryID: entry, occurrence: at)
        let occurrence = DeliveredOccurrence(
            id: id, source: source, entryID: entry, dialect: .native,
            content: NotificationContent(title: entry, body: "", urgency: .normal), deliveredAt: at, due: at)
        return StateStore.Delivery(
            LedgerRecord(
                occurrenceID: id, source: source, entryID: entry, occurrence: at, outcome: .delivered, recordedAt: at,
                receipts: tag), of: occurrence, server: nil, replacing: replaced)
    }

    private func answer(_ delivery: StateStore.Delivery, _ response: PopupResponse, choice: UserChoice?)
        -> HandlingOutcome
    {
        HandlingOutcome(occurrence: delivery.occurrence, origin: .popup, response: response, choice: choice)
    }

    private func counts(_ store: StateStore, source: String = "https://portal.example.org/feed.json") throws
        -> [String: [String: Int]]
    {
        var counts: [String: [String: Int]] = [:]
        for tally in try store.openReceipts(of: source) {
            for (counter, count) in tally.counts { counts[tally.entryID, default: [:]][counter.description] = count }
        }
        return counts
    }

    @Test func aDeliveryRecordedAgainAfterACrashCountsOnceAndAnUntaggedOneNotAtAll() throws {
        let store = try freshStore()
        let shown = delivery("a", at: now, tag: tag)
        try store.recordDeliveries([shown, delivery("off", at: now, tag: nil)])
        try store.recordDeliveries([shown])
        #expect(try counts(store) == ["a": ["shown": 1]])
        #expect(try store.openReceipts(of: shown.record.source).map(\.feedVersion) == [7])
    }

    @Test func eachChangeOfAnOutcomeCountsOnceUnderTheFeedVersionThatShowedIt() throws {
        let store = try freshStore()
        let (a, b, c, d) = (
            delivery("a", at: now, tag: tag), delivery("b", at: now, tag: tag), delivery("c", at: now, tag: tag),
            delivery("d", at: now, tag: tag)
        )
        try store.recordDeliveries([a, b, c, d])
        try store.recordHandling(answer(a, .action("open"), choice: .open), at: now + .minutes(1))
        try store.recordHandling(answer(a, .action("open"), choice: .open), at: now + .minutes(2))
        try store.recordHandling(answer(b, .closed(.dismissed), choice: nil), at: now + .minutes(1))
        try store.recordHandling(answer(b, .action("ok"), choice: .ok), at: now + .minutes(3))
        try store.recordHandling(answer(c, .action("remind"), choice: .remindLater), at: now + .minutes(1))
        try store.recordHandling(answer(d, .closed(.expired), choice: nil), at: now + .minutes(1))
        #expect(
            try counts(store) == [
                "a": ["shown": 1, "acted.open": 1], "b": ["shown": 1, "dismissed": 1, "acted.ok": 1],
                "c": ["shown": 1, "snoozed": 1], "d": ["shown": 1, "expired_unseen": 1],
            ])
    }

    @Test func suppressedMissedAndReplacedOccurrencesCountWithTheirReasons() throws {
        let store = try freshStore()
        let source = "https://portal.example.org/feed.json"
        try store.recordSuppressed(
            .suppressed(
                "capped", of: source, occurrence: now, because: .entryCap(CapLimit(cap: 1, period: .days(1))), at: now,
                receipts: tag))
        try store.record(
            LedgerRecord(
                occurrenceID: "m", source: source, entryID: "late", occurrence: now - .days(1), outcome: .missed,
                recordedAt: now, receipts: tag))
        let first = delivery("r", at: now, tag: tag)
        try store.recordDeliveries([first])
        try store.recordDeliveries([delivery("r", at: now + .hours(1), tag: tag, replacing: first.record.occurrenceID)])
        #expect(
            try counts(store) == [
                "capped": ["suppressed.frequency": 1], "late": ["missed": 1], "r": ["shown": 2, "withdrawn": 1],
            ])
    }

    @Test func sealedBodiesAreOTLPLogsRequestsWhoseCountsAreTheLedgers() throws {
        try #require(OTLPOracle.isInstalled, "run scripts/install-deps, which installs the OTLP oracle")
        let store = try freshStore()
        let shown = delivery("a", at: now, tag: tag)
        try store.recordDeliveries([shown, delivery("b", at: now, tag: ReceiptTag(feedVersion: nil))])
        try store.recordHandling(answer(shown, .action("open"), choice: .open), at: now)
        var generator = SplitMix64(seed: 1)
        let batches = try store.sealReceipts(
            endpoints: [shown.record.source: endpoint], at: now + .hours(1), using: &generator)
        #expect(batches.count == 1 && batches[0].receipts == 2 && batches[0].total == 3)
        #expect(try store.openReceipts(of: shown.record.source) == [])
        let verdict = try #require(try OTLPOracle.check(batches.map(\.body)).first)
        #expect(verdict.valid, "\(verdict.error ?? "")")
        #expect(verdict.resource?["notify_sched.batch.id"]?.string == batches[0].batchID)
        #expect(verdict.resource?["notify_sched.source"]?.string == shown.record.source)
        let records = verdict.records ?? []
        #expect(records.map(\.eventName) == ["notify_sched.receipt", "notify_sched.receipt"])
        #expect(records.map { $0.attributes["notify_sched.entry.id"]?.string } == ["a", "b"])
        #expect(records[0].attributes["notify_sched.count.shown"]?.int == 1)
        #expect(records[0].attributes["notify_sched.count.acted.open"]?.int == 1)
        #expect(records[0].attributes["notify_sched.feed.version"]?.int == 7)
        #expect(records[1].attributes["notify_sched.feed.version"] == nil, "a feed without a version says none")
        #expect(records[0].attributes["notify_sched.day"]?.string == ReceiptDay(now).description)
        #expect(records[0].timeUnixNano == UInt64(ReceiptDay(now).start.microseconds) * 1000)
        #expect(Set(records.compactMap { $0.attributes["receipt.id"]?.string }).count == 2)
    }

    @Test func countsAfterSealingGoToANewBodyAndABodyLeavesOnlyOnceSent() throws {
        let store = try freshStore()
        let source = "https://portal.example.org/feed.json"
        var generator = SplitMix64(seed: 2)
        try store.recordDeliveries([delivery("a", at: now, tag: tag)])
        let first = try store.sealReceipts(endpoints: [source: endpoint], at: now, using: &generator)
        try store.recordDeliveries([delivery("a", at: now + .minutes(5), tag: tag)])
        try store.receiptsFailed(first[0].batchID, error: "503", retryAt: now + .minutes(10))
        let both = try store.sealReceipts(endpoints: [source: endpoint], at: now + .minutes(6), using: &generator)
        #expect(both.count == 2 && both[0].batchID == first[0].batchID && both[0].body == first[0].body)
        #expect(both[0].attempts == 1 && both[0].lastError == "503" && both[0].nextAttempt == now + .minutes(10))
        try store.receiptsSent(both[0].batchID, at: now + .minutes(11))
        #expect(try store.receiptBatches().map(\.batchID) == [both[1].batchID])
        let state = try #require(try store.receiptQueue()[source])
        #expect(state.batches == 1 && state.lastSent == now + .minutes(11) && state.lastError == nil)
    }

    @Test func theQueueDropsItsOldestTalliesBeyondAMebibyteAndSaysSoInTheNextBody() throws {
        try #require(OTLPOracle.isInstalled, "run scripts/install-deps, which installs the OTLP oracle")
        let store = try freshStore()
        let source = "https://portal.example.org/feed.json"
        let id = String(repeating: "x", count: 900)
        // About 1.3 KiB a tally: 800 go over the bound, oldest day first.
        let deliveries = (0..<800).map { delivery(id + "\($0)", at: now + .seconds(Int64($0)), tag: tag) }
        try store.recordDeliveries(
            deliveries.prefix(100).map { yesterdays in
                var delivery = yesterdays
                delivery.record.recordedAt = now - .days(1)
                return delivery
            })
        try store.recordDeliveries(Array(deliveries.dropFirst(100)))
        let state = try #require(try store.receiptQueue()[source])
        #expect(state.dropped.receipts > 0 && state.dropped.receipts <= 100, "\(state.dropped)")
        #expect(state.dropped.count == state.dropped.receipts)
        let kept = try store.openReceipts(of: source)
        #expect(kept.filter { $0.day == ReceiptDay(now) }.count == 700, "yesterday's tallies go first")
        #expect(kept.count == 800 - state.dropped.receipts)
        var generator = SplitMix64(seed: 3)
        let batches = try store.sealReceipts(endpoints: [source: endpoint], at: now, using: &generator)
        let verdict = try #require(try OTLPOracle.check(batches.map(\.body)).first)
        let dropped = try #require(verdict.records?.last)
        #expect(dropped.eventName == "notify_sched.receipts_dropped")
        let sealed = try #require(batches.first)
        #expect(sealed.body.utf8.count <= StateStore.receiptQueueLimit, "the body fits the bound")
        #expect(
            dropped.attributes["notify_sched.dropped.receipts"]?.int
                == Int64(state.dropped.receipts + kept.count - sealed.receipts),
            "what the bound dropped before, and the tallies that did not fit the body")
        #expect(try store.receiptQueue()[source]?.dropped == ReceiptDrops(), "said once, then reset")
        let (measured, recomputed) = try store.read("measure the queue") { database in
            (
                try StateStore.queueBytes(in: database),
                try Int.fetchOne(
                    database,
                    sql: """
                        SELECT (SELECT coalesce(sum(length(entry_id) + length(counter) + 440), 0) FROM receipt_count)
                            + (SELECT coalesce(sum(length(body)), 0) FROM receipt_batch)
                        """) ?? -1
            )
        }
        #expect(
            measured == recomputed && measured <= StateStore.receiptQueueLimit, "the database keeps the queue's size")
    }

    @Test func talliesAndBodiesOlderThanNinetyDaysGoWithTheLedgersPruning() throws {
        let store = try freshStore()
        let source = "https://portal.example.org/feed.json"
        var generator = SplitMix64(seed: 4)
        try store.recordDeliveries([delivery("old", at: now - .days(100), tag: tag)])
        _ = try store.sealReceipts(endpoints: [source: endpoint], at: now - .days(95), using: &generator)
        try store.recordDeliveries([delivery("aging", at: now - .days(91), tag: tag)])
        try store.recordDeliveries([delivery("new", at: now, tag: tag)])
        try store.pruneLedger(recordedBefore: now - StateStore.receiptRetention)
        #expect(try counts(store, source: source) == ["new": ["shown": 1]])
        #expect(try store.receiptBatches() == [])
        #expect(try store.receiptQueue()[source]?.dropped == ReceiptDrops(receipts: 2, count: 2))
    }

    @Test func turningReceiptsOffDeletesWhatWasQueuedUnsent() throws {
        let store = try freshStore()
        let (on, off) = ("https://portal.example.org/on.json", "https://portal.example.org/off.json")
        var generator = SplitMix64(seed: 5)
        try store.recordDeliveries([
            delivery("a", at: now, source: on, tag: tag), delivery("b", at: now, source: off, tag: tag),
        ])
        _ = try store.sealReceipts(endpoints: [off: endpoint], at: now, using: &generator)
        #expect(try store.discardReceipts(keeping: [on]) == 1)
        #expect(try store.receiptBatches() == [])
        #expect(try store.receiptQueue().keys.sorted() == [on])
    }
}
