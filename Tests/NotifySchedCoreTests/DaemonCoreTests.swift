import NotifySchedCore
import Testing

/// What the daemon's core decides for each event, in virtual time: the effects it returns
/// are all the daemon does.
@Suite struct DaemonCoreTests {
    private let noon = instant("2026-06-01T12:00:00Z")

    private func core(feed: String? = nil) -> DaemonCore {
        var core = DaemonCore(
            planner: OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc))
        if let feed, let schedule = parse(feed).schedule {
            _ = core.handle(.feedLoaded(FeedLoad(source: 0, schedule: schedule, settled: [:])), at: noon)
        }
        return core
    }

    @Test func wakesAtTheEarliestOfAnOccurrenceACheckAndAWaitingPopup() throws {
        var core = core(feed: nativeFeed(#""fireDate": "2026-06-01T13:00:00Z""#))
        let occurrenceOnly = core.nextWakeUp(nextCheck: nil)
        let checkFirst = core.nextWakeUp(nextCheck: noon + .minutes(30))
        let entry = try #require(parse(nativeFeed(#""events": {"deploy": "ON=1"}"#)).schedule?.entries.first)
        let chosen = core.handle(
            .popupsChosen(core.waiting.popups(for: [entry], of: "feed", at: noon + .minutes(10))), at: noon)
        let popupFirst = core.nextWakeUp(nextCheck: noon + .minutes(30))
        let nothingAhead = self.core().nextWakeUp(nextCheck: nil)
        // The planner's wheel may wake it a little early for the occurrence, never late.
        #expect(occurrenceOnly.map { $0 > noon + .minutes(30) && $0 <= instant("2026-06-01T13:00:00Z") } == true)
        #expect(checkFirst == noon + .minutes(30))
        #expect(popupFirst == noon + .minutes(10))
        #expect(nothingAhead == nil, "nothing ahead: no wake-up")
        #expect(chosen.isEmpty, "not yet")
    }

    @Test func aDueOccurrenceIsShownOnceAndTheNextArmed() throws {
        let one = noon + .hours(1)
        var core = core(feed: nativeFeed(#""fireDate": "2026-06-01T13:00:00Z", "repeatInterval": "hour""#))
        let due = core.handle(.timerWoke(clockChanged: false), at: one)
        let shows = due.compactMap { if case .show(let due) = $0 { due } else { nil } }
        #expect(shows.map(\.occurrence) == [one])
        _ = core.handle(.shown(try #require(shows.first), .shown), at: one)
        let again = core.handle(.timerWoke(clockChanged: false), at: one + .seconds(1))
        #expect(!again.contains { if case .show = $0 { true } else { false } }, "shown once")
        #expect(
            core.nextWakeUp(nextCheck: nil).map { $0 > one && $0 <= one + .hours(1) } == true, "the next hour is ahead")
    }

    @Test func prunesTheLedgerAtStartThenOnceADayAndAgainAfterTheClockWentBack() {
        var core = core()
        let started = core.handle(.started, at: noon)
        let wakeUps = [noon + .hours(23), noon + .days(1), noon - .hours(1)].map {
            core.handle(.timerWoke(clockChanged: false), at: $0)
        }
        let expected: [[DaemonEffect]] = [
            [],
            [.pruneLedger(before: noon + .days(1) - .days(90))],
            [.pruneLedger(before: noon - .hours(1) - .days(90))],  // the clock went back
        ]
        #expect(started == [.pruneLedger(before: noon - .days(90))])
        #expect(wakeUps == expected)
    }

    @Test func aSourceWithoutItsFeedAtTheSessionStartTakesItOnceWhenTheFeedArrives() throws {
        var core = DaemonCore(
            planner: OccurrencePlanner(
                sources: [.init(location: "a"), .init(location: "b")], now: noon, userZone: .utc))
        let schedule = try #require(parse(nativeFeed(#""events": {"deploy": "ON=1"}"#)).schedule)
        _ = core.handle(.sessionStarted(withoutFeed: [1]), at: noon)
        let taken = [0, 1, 1].map { source in
            core.handle(.feedLoaded(FeedLoad(source: source, schedule: schedule, settled: [:])), at: noon)
                .contains(.takeSessionStart(source: source))
        }
        #expect(taken == [false, true, false], "source 0 had its feed; 1 takes it once")
    }

    @Test func aFeedChangeReplacesAChangedEntrysPopupAndClosesAWithdrawnOnes() throws {
        var core = core(feed: #"{"notifications": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}]}"#)
        let old = try #require(core.planner.schedule(source: 0)?.entries)
        let onScreen = old.map {
            DeliveredOccurrence(id: "feed#\($0.id)", entry: $0, source: "feed", deliveredAt: noon)
        }
        let new = try #require(parse(#"{"notifications": [{"id": "a", "title": "A, again"}]}"#).schedule)
        let effects = core.handle(
            .feedLoaded(FeedLoad(source: 0, schedule: new, settled: [:], onScreen: onScreen)), at: noon)
        let screen = effects.compactMap { if case .changeScreen(let change) = $0 { change } else { nil } }
        #expect(
            screen == [
                .replace(DeliveredOccurrence(id: "feed#a", entry: new.entries[0], source: "feed", deliveredAt: noon)),
                .close(onScreen[1]),
            ])
    }

    /// A feed of three event-driven entries, `a`, `b` and `c`.
    private let threeEntries =
        #"{"notifications": [{"id": "a", "title": "A", "events": {"go": "ON=1"}}, "#
        + #"{"id": "b", "title": "B", "events": {"go": "ON=1"}}, "#
        + #"{"id": "c", "title": "C", "events": {"go": "ON=1"}}]}"#

    /// Popups of every entry of `core`'s feed, chosen for noon.
    private func noonPopups(_ core: borrowing DaemonCore) throws -> [PopupQueue.Item] {
        core.waiting.popups(for: try #require(core.planner.schedule(source: 0)?.entries), of: "feed", at: noon)
    }

    /// `effects` and all that follow when the server takes each waiting popup shown.
    private func everyWaitingShown(_ core: inout DaemonCore, _ effects: [DaemonEffect]) -> [DaemonEffect] {
        var seen: [DaemonEffect] = []
        var effects = effects
        while true {
            seen += effects
            guard
                let item = effects.lazy.compactMap({ if case .showWaiting(let item) = $0 { item } else { nil } }).first
            else { return seen }
            effects = core.handle(.waitingShown(item, .shown), at: noon)
        }
    }

    /// The waiting popup each effect shows, by entry id.
    private func shownEntries(_ effects: [DaemonEffect]) -> [String] {
        effects.compactMap { if case .showWaiting(let item) = $0 { item.entry?.id } else { nil } }
    }

    @Test func waitingPopupsGoOutOneAtATimeEachAfterThePreviousWasShown() throws {
        var core = core(feed: threeEntries)
        let first = core.handle(.popupsChosen(try noonPopups(core)), at: noon)
        let all = everyWaitingShown(&core, first)
        #expect(shownEntries(first) == ["a"], "one at a time")
        #expect(shownEntries(all) == ["a", "b", "c"])
        #expect(core.waiting.items.isEmpty)
    }

    @Test func aWaitingPopupTheServerDidNotTakeIsHeldWithTheRestUntilAServerAppears() throws {
        var core = core(feed: threeEntries)
        let first = core.handle(.popupsChosen(try noonPopups(core)), at: noon)
        guard case .showWaiting(let item)? = first.first else {
            Issue.record("nothing shown: \(first)")
            return
        }
        let failed = core.handle(.waitingShown(item, .failed), at: noon)
        let held = (core.waiting.items.count, core.nextWakeUp(nextCheck: nil))
        let back = core.handle(.serverAppeared, at: noon + .seconds(5))
        #expect(failed.isEmpty, "nothing more goes out")
        #expect(held == (3, noon + OccurrencePlanner.retryDelay), "all three held for the retry")
        #expect(shownEntries(back) == ["a"], "the first again, at once, when a server appears")
    }

    @Test func aWaitingPopupWhoseEntryLeftItsFeedIsDropped() throws {
        var core = core(feed: threeEntries)
        let items = try noonPopups(core)
        _ = core.handle(.waitingLoaded(items.map(\.popup)), at: noon - .minutes(1))
        let withoutB = try #require(
            parse(
                #"{"notifications": [{"id": "a", "title": "A", "events": {"go": "ON=1"}}, "#
                    + #"{"id": "c", "title": "C", "events": {"go": "ON=1"}}]}"#
            ).schedule)
        _ = core.handle(.feedLoaded(FeedLoad(source: 0, schedule: withoutB, settled: [:])), at: noon - .minutes(1))
        let seen = everyWaitingShown(&core, core.handle(.timerWoke(clockChanged: false), at: noon))
        #expect(shownEntries(seen) == ["a", "c"])
        #expect(seen.contains(.dropWaiting(items[1].popup, reason: "b is no longer in its feed")))
    }

    /// An outcome of the occurrence `id` of the entry `e` of "feed".
    private func outcome(_ id: String, _ change: StateChange? = nil) throws -> HandlingOutcome {
        let entry = try #require(parse(nativeFeed(#""fireDate": "2026-06-01T12:00:00Z""#)).schedule?.entries.first)
        return HandlingOutcome(
            occurrence: DeliveredOccurrence(id: id, entry: entry, source: "feed", deliveredAt: noon), change: change)
    }

    @Test func callsWaitingForAnOccurrenceAreAnsweredOnceByItsOutcomeInTheOrderTheyCame() throws {
        var core = core()
        for (token, id) in [(1, "a"), (2, "b"), (3, "a"), (4, "a")] {
            _ = core.handle(.callWaits(token: token, occurrenceID: id), at: noon)
        }
        _ = core.handle(.callGaveUp(token: 3, occurrenceID: "a"), at: noon)
        let answered = try ["a", "a", "b"].map { core.handle(.answered(try outcome($0), occurrence: nil), at: noon) }
        let (status, report) = try outcome("a").callAnswer
        #expect(
            answered == [
                [.answerCalls([1, 4], status: status, report: report)], [],
                [.answerCalls([2], status: status, report: report)],
            ], "each call is answered once")
    }

    @Test func ignoringARepeatingEntryStopsItsLaterOccurrences() throws {
        var core = core(feed: nativeFeed(#""fireDate": "2026-06-01T12:00:00Z", "repeatInterval": "hour""#))
        let before = core.planner.pendingCount
        _ = core.handle(.answered(try outcome("a", .ignored), occurrence: noon), at: noon + .minutes(1))
        let after = core.planner.pendingCount
        #expect(before == 1)
        #expect(after == 0, "Ignore stops the entry")
    }
}
