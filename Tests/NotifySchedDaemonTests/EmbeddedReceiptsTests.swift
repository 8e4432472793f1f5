import NotifySchedCore
import NotifySchedDaemon
import NotifySchedStore
import Testing

/// Receipts' uploads of the real driver in virtual time: once a UTC day with a check of the
/// source, never a wake-up of their own; a body a collector refused goes again after its
/// `Retry-After`, byte for byte, until it is taken; across kills and lost answers the
/// collector's counts after its dedupe are the ledger's.
@Suite struct EmbeddedReceiptsTests {
    /// 2026-11-29T00:00:00Z.
    private let start = Instant(secondsSinceEpoch: 1_795_910_400)
    private let hourly = """
        {"version": 2, "notifications": [
          {"id": "tick", "title": "Tick", "fireDate": "2026-11-29T00:30:00Z", "repeatInterval": "hour"}]}
        """

    private func daemon(receipts: Bool = true) throws -> EmbeddedDaemon {
        try EmbeddedDaemon(feeds: [("feed.json", hourly)], at: start) { configuration in
            if receipts {
                configuration.sources[0].settings.receipts = ReceiptSettings(
                    mode: .counts, endpoint: "https://collector.example.org/v1/logs")
            }
        }
    }

    /// The popups shown as the receipts count them (what the collector holds after its dedupe,
    /// and what waits in the queue) and as the ledger records them.
    private func shown(_ daemon: EmbeddedDaemon) throws -> (sent: Int, counted: Int, ledger: Int) {
        let source = daemon.path(of: "feed.json")
        let sent = try daemon.collector.dedupedCounts["tick"]?["shown"] ?? 0
        let open = try daemon.store.openReceipts(of: source).reduce(0) { $0 + ($1.counts[.shown] ?? 0) }
        let sealed = try daemon.store.receiptBatches().reduce(0) { $0 + $1.total }
        // Each occurrence shown has a line; an unanswered one is closed when the next replaces it.
        let ledger = try daemon.ledger(of: "feed.json").filter { $0.outcome != .missed }.count
        return (sent, sent + open + sealed, ledger)
    }

    @Test func receiptsGoOnceADayWithACheckAndNeverWakeTheMachineOnTheirOwn() throws {
        let on = try daemon()
        let off = try daemon(receipts: false)
        var postsByDay: [Int] = []
        for day in 1...4 {
            on.advance(to: start + .days(Int64(day)))
            off.advance(to: start + .days(Int64(day)))
            postsByDay.append(on.collector.posts)
        }
        #expect(
            postsByDay == [1, 2, 3, 4], "one upload each UTC day; the daemon logged:\n\(on.log.joined(separator: "\n"))"
        )
        #expect(on.timerFires == off.timerFires, "the uploads rode on checks: \(on.timerFires) ≠ \(off.timerFires)")
        let shown = try shown(on)
        #expect(shown.counted == shown.ledger, "every popup counted once, sent or waiting")
        #expect(shown.sent >= 72, "three days' popups went")
        try expectValidOTLP(on.collector.received)
        #expect(off.collector.posts == 0)
        #expect(try off.store.receiptQueue().isEmpty)
    }

    @Test func aRefusedBodyGoesAgainAfterTheCollectorsRetryAfterUntilItIsTakenOnce() throws {
        let daemon = try daemon()
        daemon.collector.answerNext([
            .refuse(503, retryAfter: .delay(.hours(2))), .refuse(429, retryAfter: .delay(.hours(3))),
        ])
        var refusedAt: [Instant] = []
        while daemon.collector.received.isEmpty, daemon.clock.now < start + .days(6) {
            let posts = daemon.collector.posts
            daemon.advance(by: .minutes(30))
            if daemon.collector.posts > posts, daemon.collector.received.isEmpty { refusedAt.append(daemon.clock.now) }
        }
        #expect(daemon.collector.posts == 3 && daemon.collector.received.count == 1, "\(daemon.log)")
        let refusals = daemon.log.filter { $0.contains("receipts not sent") }
        #expect(refusals.count == 2 && refusals[0].contains("answered 503") && refusals[1].contains("answered 429"))
        #expect(refusedAt.count == 2 && refusedAt[1] - refusedAt[0] >= .hours(2), "after the Retry-After: \(refusedAt)")
        try expectValidOTLP(daemon.collector.received)
        daemon.advance(to: start + .days(3))
        let shown = try shown(daemon)
        #expect(shown.counted == shown.ledger && shown.sent > 0)
    }

    @Test func aBodyWhoseAnswerWasLostIsSentAgainAndTheCollectorsDedupeCountsItOnce() throws {
        let daemon = try daemon()
        daemon.collector.answerNext([.takeAndLoseAnswer])
        daemon.advance(to: start + .days(2))
        let received = daemon.collector.received
        #expect(received.count >= 2 && received[0] == received[1], "the same body, byte for byte")
        try expectValidOTLP(received)
        let shown = try shown(daemon)
        #expect(shown.counted == shown.ledger && shown.sent > 0)
    }

    @Test func aDaemonKilledAfterTheDaysUploadDoesNotUploadAgainThatDay() throws {
        let daemon = try daemon()
        while daemon.collector.posts == 0 { daemon.advance(by: .minutes(30)) }
        let uploadedAt = try #require(try daemon.store.receiptQueue()[daemon.path(of: "feed.json")]?.lastAttempt)
        try daemon.killAndRestart()
        daemon.advance(to: ReceiptDay(uploadedAt).start + .days(1) - .seconds(1))
        #expect(daemon.collector.posts == 1, "at most one upload a day, across the kill")
        try expectValidOTLP(daemon.collector.received)
        daemon.advance(to: start + .days(3))
        let shown = try shown(daemon)
        #expect(shown.counted == shown.ledger && shown.sent > 0)
    }
}
