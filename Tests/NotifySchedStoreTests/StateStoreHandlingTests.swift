import Foundation
import NotifySchedCore
import NotifySchedStore
import Testing

/// Delivered occurrences and the handling state in the database: what `handle ID` and a
/// restarted daemon read, written by two processes at once.
@Suite struct StateStoreHandlingTests {
    private let now = Instant(secondsSinceEpoch: 1_780_000_000)

    private func freshPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-store-\(UUID().uuidString)/state.sqlite"
        )
        .path
    }

    /// An occurrence of `entry` in `source`, due and delivered at `at`, as shown on `server`.
    private func deliver(
        _ entry: String, at: Instant, source: String = "feed", dialect: FeedDialect = .iNotify,
        news: NewsHandling? = nil, popup: UInt32? = 7, server: String? = "bus :1.4", to store: StateStore
    ) throws -> DeliveredOccurrence {
        let id = LedgerRecord.occurrenceID(source: source, entryID: entry, occurrence: at)
        let occurrence = DeliveredOccurrence(
            id: id, source: source, entryID: entry, dialect: dialect,
            content: NotificationContent(
                title: "Title of \(entry)", body: "Body", icon: "dialog-information", urgency: .critical,
                action: NotificationAction(
                    label: "Read", url: try ActionURL("mailto:news@example.org", policy: URLPolicy()))),
            category: "im.received", news: news, deliveredAt: at, due: at)
        try store.recordDelivery(
            LedgerRecord(
                occurrenceID: id, source: source, entryID: entry, occurrence: at, popupID: popup, outcome: .delivered,
                recordedAt: at),
            of: occurrence, server: server)
        return occurrence
    }

    @Test func aDeliveredOccurrenceReadsBackWithItsContentAndLedgerLine() throws {
        let store = try StateStore(path: freshPath())
        let news = NewsHandling(okLabel: "Go", cancelLabel: nil, repeats: true, contentHash: "md5", isClassic: false)
        let occurrence = try deliver("tip", at: now, dialect: .iSmartNews, news: news, to: store)
        #expect(try store.deliveredOccurrence(id: occurrence.id) == occurrence)
        #expect(try store.ledgerRecord(occurrenceID: occurrence.id)?.popupID == 7)
        #expect(try store.deliveredOccurrence(id: "0123456789abcdef") == nil)
    }

    /// What a restarted daemon shows again in place of a popup left on screen: the same timeout,
    /// sound, picture and markup body.
    @Test func aNativePopupsTimeoutSoundImageAndMarkupReadBack() throws {
        let store = try StateStore(path: freshPath())
        let id = LedgerRecord.occurrenceID(source: "feed", entryID: "rich", occurrence: now)
        let occurrence = DeliveredOccurrence(
            id: id, source: "feed", entryID: "rich", dialect: .native,
            content: NotificationContent(
                title: "Rich", body: "<b>Ship</b>", timeout: .milliseconds(1500), sound: "bell", image: "/tmp/a.png",
                markup: true),
            deliveredAt: now, due: now)
        try store.recordDelivery(
            LedgerRecord(
                occurrenceID: id, source: "feed", entryID: "rich", occurrence: now, popupID: 3, outcome: .delivered,
                recordedAt: now),
            of: occurrence, server: nil)
        #expect(try store.deliveredOccurrence(id: id) == occurrence)
    }

    @Test func anEntryIdNamesTheLatestDeliveredOccurrenceOfEachSource() throws {
        let store = try StateStore(path: freshPath())
        _ = try deliver("daily", at: now, to: store)
        let latest = try deliver("daily", at: now + .days(1), to: store)
        let other = try deliver("daily", at: now, source: "other", to: store)
        let candidates = try store.occurrences(named: "daily")
        #expect(Set(candidates.map(\.occurrenceID)) == [latest.id, other.id], "one per source, the latest")
        #expect(
            OccurrenceLookup(latest.id, candidates: try store.occurrences(named: latest.id))
                == .found(
                    occurrenceID: latest.id))
        #expect(try store.occurrences(named: "nothing") == [])
    }

    @Test func promptsAreTakenOverOnTheirServerWhileRecentAndForgottenOnceAnswered() throws {
        let store = try StateStore(path: freshPath())
        let old = try deliver("old", at: now, to: store)
        let recent = try deliver("recent", at: now, to: store)
        let elsewhere = try deliver("elsewhere", at: now, to: store)
        try store.recordPrompt(about: old.id, popupID: 3, server: "bus :1.4", at: now)
        try store.recordPrompt(about: recent.id, popupID: 4, server: "bus :1.4", at: now + .hours(30))
        try store.recordPrompt(about: elsewhere.id, popupID: 5, server: "bus :1.9", at: now + .hours(30))
        let taken = try store.promptsToTakeOver(server: "bus :1.4", since: now + .hours(6), limit: 20)
        #expect(taken.map(\.occurrence.id) == [recent.id])
        #expect(taken.map(\.popupID) == [4])
        try store.recordHandling(
            HandlingOutcome(occurrence: recent, origin: .prompt, response: .action("ok"), choice: .ok, change: .viewed),
            at: now + .hours(31))
        #expect(try store.promptsToTakeOver(server: "bus :1.4", since: now, limit: 20).isEmpty)
    }

    @Test func answersChangeTheStoredStateAndTheLedgerOutcomeTogether() throws {
        let store = try StateStore(path: freshPath())
        let first = try deliver("2026/01/01", at: now, to: store)
        let second = try deliver("2026/02/01", at: now + .seconds(1), to: store)
        try store.recordHandling(
            HandlingOutcome(occurrence: first, origin: .popup, choice: .remindLater, change: .reminded), at: now)
        #expect(try store.memory(of: "feed").handling == SourceHandlingState(lastReminded: now))
        try store.recordHandling(
            HandlingOutcome(occurrence: second, origin: .popup, choice: .ignore, change: .ignored), at: now)
        try store.recordHandling(
            HandlingOutcome(occurrence: first, origin: .popup, choice: .open, change: .viewed), at: now)
        #expect(
            try store.memory(of: "feed").handling
                == SourceHandlingState(viewed: ["2026/01/01"], ignored: ["2026/02/01"]),
            "viewing and ignoring clear iNotify's reminder")
        #expect(try store.ledgerRecord(occurrenceID: first.id)?.outcome == .acted)
        #expect(try store.ledgerRecord(occurrenceID: second.id)?.outcome == .ignored)
        try store.recordHandling(
            HandlingOutcome(occurrence: second, origin: .popup, response: .closed(.dismissed)), at: now)
        #expect(try store.ledgerRecord(occurrenceID: second.id)?.outcome == .closed)
        #expect(try store.memory(of: "other").handling == SourceHandlingState())
    }

    @Test func aMetaItemsClosingsAreKeptPerWayWithTheLatestTimeAndTheVersionOfTheSession() throws {
        let store = try StateStore(path: freshPath())
        try store.setNewsState(NewsState(applicationVersion: "2.1"), for: "feed")
        let meta = DeliveredOccurrence(
            id: "o-1", source: "feed", entryID: "survey", dialect: .iSmartNews,
            content: NotificationContent(title: "S", body: ""),
            news: NewsHandling(contentHash: "h", isClassic: false), deliveredAt: now)
        try store.recordHandling(
            HandlingOutcome(occurrence: meta, origin: .popup, choice: .cancel, change: .metaCancelled), at: now)
        try store.recordHandling(
            HandlingOutcome(occurrence: meta, origin: .popup, choice: .open, change: .metaOK), at: now + .hours(1))
        try store.recordHandling(
            HandlingOutcome(occurrence: meta, origin: .popup, choice: .open, change: .metaOK), at: now + .hours(2))
        #expect(
            try store.memory(of: "feed").handling.metaClosings == [
                "survey": [
                    .cancel: MetaClosingRecord(at: now, applicationVersion: "2.1"),
                    .ok: MetaClosingRecord(at: now + .hours(2), applicationVersion: "2.1"),
                ]
            ])
    }

    @Test func theLedgerOutcomeSaysWhatTheAnswerMeantNotWhichMarkItMade() throws {
        let store = try StateStore(path: freshPath())
        let policy = HandlingPolicy()
        // Cancel on a plain message marks it shown, yet the user declined it.
        let plain = try deliver("plain", at: now, dialect: .iSmartNews, news: NewsHandling(contentHash: "p"), to: store)
        let declined = policy.decision(for: .action(UserChoice.cancel.rawValue), of: plain)
        #expect(declined.change == .newsShown)
        try store.recordHandling(
            HandlingOutcome(occurrence: plain, origin: .popup, choice: declined.choice, change: declined.change),
            at: now)
        #expect(try store.ledgerRecord(occurrenceID: plain.id)?.outcome == .ignored)
        // OK on an `always` message opens its URL and marks nothing, yet the user acted.
        let always = try deliver(
            "always", at: now, dialect: .iSmartNews, news: NewsHandling(always: true, contentHash: "a"), to: store)
        let acted = policy.decision(for: .action(UserChoice.open.rawValue), of: always)
        #expect(acted.change == nil)
        try store.recordHandling(
            HandlingOutcome(occurrence: always, origin: .popup, choice: acted.choice, opened: acted.opens), at: now)
        #expect(try store.ledgerRecord(occurrenceID: always.id)?.outcome == .acted)
        // A failed answer leaves the occurrence as it was.
        let failed = try deliver("failed", at: now, dialect: .native, to: store)
        try store.recordHandling(
            HandlingOutcome(
                occurrence: failed, origin: .popup, choice: .open, failure: CoreError(.cannotOpen, "no handler")),
            at: now)
        #expect(try store.ledgerRecord(occurrenceID: failed.id)?.outcome == .delivered)
    }

    @Test func remindAndIgnoreOfNativeEntriesHoldForTheirLaterOccurrencesUntilShownAgain() throws {
        let store = try StateStore(path: freshPath())
        let stretch = try deliver("stretch", at: now, dialect: .native, to: store)
        let standup = try deliver("standup", at: now, dialect: .native, to: store)
        try store.recordHandling(
            HandlingOutcome(occurrence: stretch, origin: .popup, choice: .remindLater, change: .reminded),
            at: now + .minutes(1))
        try store.recordHandling(
            HandlingOutcome(occurrence: standup, origin: .popup, choice: .remindLater, change: .reminded),
            at: now + .minutes(1))
        try store.recordHandling(
            HandlingOutcome(occurrence: standup, origin: .popup, choice: .ignore, change: .ignored),
            at: now + .minutes(2))
        #expect(
            try store.entryAnswers(source: "feed") == [
                "stretch": .remind(occurrence: now, Reminder(requestedAt: now + .minutes(1))), "standup": .ignored,
            ])
        // Shown again: the reminder is answered; the ignore stays.
        _ = try deliver("stretch", at: now, dialect: .native, to: store)
        #expect(try store.entryAnswers(source: "feed") == ["standup": .ignored])
    }

    @Test func twoConnectionsWritingAtOnceLoseNothing() throws {
        let path = freshPath()
        let stores = [try StateStore(path: path), try StateStore(path: path)]
        let occurrence = try deliver("entry", at: now, dialect: .native, to: stores[0])
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<50 {
                var marked = occurrence
                marked.entryID = "\(writer)-\(index)"
                do {
                    try stores[writer].recordHandling(
                        HandlingOutcome(occurrence: marked, origin: .popup, choice: .open, change: .viewed), at: now)
                } catch {
                    failures.add("\(error)")
                }
            }
        }
        #expect(failures.messages == [])
        #expect(try stores[1].memory(of: "feed").handling.viewed.count == 100)
        #expect(try stores[0].isIntact())
    }

    @Test func onlyUnansweredLatestPopupsOfTheSameServerWithinTheWindowAreOnScreen() throws {
        let store = try StateStore(path: freshPath())
        let waiting = try deliver("waiting", at: now, to: store)
        _ = try deliver("old", at: now - .hours(30), to: store)
        _ = try deliver("elsewhere", at: now, server: "bus :1.9", to: store)
        _ = try deliver("test", at: now, server: nil, to: store)
        let answered = try deliver("answered", at: now, to: store)
        try store.recordHandling(
            HandlingOutcome(occurrence: answered, origin: .popup, choice: .ok, change: .viewed), at: now)
        _ = try deliver("repeating", at: now - .hours(1), to: store)
        _ = try deliver("repeating", at: now, popup: nil, to: store)
        let onScreen = try store.unanswered(since: now - .hours(24), server: "bus :1.4")
        #expect(onScreen.map(\.occurrence) == [waiting])
        #expect(onScreen.map(\.popupID) == [7])
        try store.setPopup(12, server: "bus :1.4", forOccurrence: waiting.id)
        #expect(try store.unanswered(since: now - .hours(24), server: "bus :1.4").map(\.popupID) == [12])
    }

    @Test func onlyTheMostRecentUnansweredPopupsAreTakenOver() throws {
        let store = try StateStore(path: freshPath())
        let delivered = try (0..<5).map { try deliver("e\($0)", at: now - .minutes(Int64(5 - $0)), to: store) }
        let latest = try store.unanswered(since: now - .hours(24), server: "bus :1.4", limit: 3)
        #expect(latest.map(\.occurrence) == Array(delivered.suffix(3)), "the most recent, oldest first")
    }
}

/// Error messages collected from several threads.
private final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [String] = []

    func add(_ message: String) {
        lock.withLock { collected.append(message) }
    }

    var messages: [String] { lock.withLock { collected } }
}

/// Popups chosen by events and checks wait in the database until their delivery is recorded.
extension StateStoreHandlingTests {
    @Test func waitingPopupsSurviveReopeningUntilTheDeliveryThatShowsThemIsRecorded() throws {
        let path = freshPath()
        let later = WaitingPopup(source: "news", entryID: "tip-2", occurrence: now + .seconds(30))
        let first = WaitingPopup(source: "news", entryID: "tip-1", occurrence: now)
        let update = WaitingPopup(source: "feed", entryID: "2026/01/01", occurrence: now)
        do {
            let store = try StateStore(path: path)
            try store.setNewsState(NewsState(runCounter: 1), for: "news", waiting: [later, first])
            try store.setSourceState(SourceState(hasRun: true, lastChecked: now), for: "feed", waiting: [update])
        }
        let store = try StateStore(path: path)
        #expect(try store.waitingPopups() == [first, update, later], "earliest first, then in the order chosen")
        #expect(try store.memory(of: "news").news.runCounter == 1, "the state the cycle changed was stored with them")
        _ = try deliver("2026/01/01", at: now, to: store)
        #expect(try store.waitingPopups() == [first, later], "recording a delivery takes its popup off the list")
        try store.removeWaitingPopup(occurrenceID: first.occurrenceID)
        #expect(try store.waitingPopups() == [later])
    }

    @Test func aCheckThatForgetsWhatWasSeenEmptiesBothListsOfItsSourceOnly() throws {
        let store = try StateStore(path: freshPath())
        for (source, entry) in [("feed", "2026/01/01"), ("other", "2026/01/01")] {
            let shown = try deliver(entry, at: now, source: source, to: store)
            try store.recordHandling(
                HandlingOutcome(occurrence: shown, origin: .popup, choice: .open, change: .viewed), at: now)
        }
        let ignored = try deliver("2026/02/01", at: now + .seconds(1), to: store)
        try store.recordHandling(
            HandlingOutcome(occurrence: ignored, origin: .popup, choice: .ignore, change: .ignored), at: now)
        try store.setSourceState(SourceState(hasRun: true, lastChecked: now), for: "feed", forgettingSeen: true)
        #expect(try store.memory(of: "feed").handling == SourceHandlingState())
        #expect(try store.memory(of: "other").handling == SourceHandlingState(viewed: ["2026/01/01"]))
    }
}
