import NotifySchedCore
import NotifySchedPlatform
import Testing

/// What the daemon's core decides for each event, in virtual time: the effects it returns
/// are all the daemon does.
@Suite struct DaemonCoreTests {
    private let noon = instant("2026-06-01T12:00:00Z")

    private func core(feed: String? = nil) -> DaemonCore {
        var core = DaemonCore(
            following: OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc))
        if let feed, let schedule = parse(feed).schedule {
            _ = core.handle(.opened(FeedLoad(source: 0, schedule: schedule, settled: [:])), at: noon)
        }
        return core
    }

    @Test func theTimerFiresJustAheadOfAWakeUpWhichAnEventMeanwhileCountsFrom() throws {
        var core = core(feed: nativeFeed(#""fireDate": "2026-06-01T13:00:00Z""#))
        let wakeUp = core.nextWakeUp
        let due = try #require(wakeUp)
        let lead = DaemonCore.sendingLead
        #expect(core.timerDeadline == due - lead)
        #expect(core.timerEventInstant(firedAt: due - lead) == due, "handled at its wake-up")
        #expect(core.timerEventInstant(firedAt: due - .seconds(1)) == nil, "too early: armed again")
        #expect(core.timerEventInstant(firedAt: due + .seconds(1)) == due + .seconds(1), "late: at the clock")
        _ = core.handle(.timerWoke(clockChanged: false), at: due)
        #expect(core.instant(for: due - .milliseconds(1)) == due, "the core's time does not step back")
        #expect(core.instant(for: due - lead - .milliseconds(1)) == due - lead - .milliseconds(1), "the clock did")
        #expect(core.instant(for: due + .milliseconds(1)) == due + .milliseconds(1))
    }

    @Test func deliveriesWaitForTheLedgerOnlyWhileAPopupIsDueWithinMillisecondsAndFewWait() throws {
        let core = core(feed: nativeFeed(#""fireDate": "2026-06-01T13:00:00Z""#))
        let wakeUp = core.nextWakeUp
        let next = try #require(wakeUp)
        let waits = [
            core.deliveriesWait(1, at: next - DaemonCore.ledgerWriteGap),
            core.deliveriesWait(1, at: next - DaemonCore.ledgerWriteGap - .milliseconds(1)),
            core.deliveriesWait(DaemonCore.unrecordedLimit, at: next),
        ]
        #expect(
            waits == [true, false, false], "a popup due within the gap; time to write; a crash would show too many")
        let idle = DaemonCore(following: OccurrencePlanner(sources: [], now: noon, userZone: .utc))
        let idleWaits = idle.deliveriesWait(1, at: noon)
        #expect(!idleWaits, "nothing is due")
    }

    @Test func wakesAtTheEarliestOfAnOccurrenceACheckAndAWaitingPopup() throws {
        let schedule = try #require(parse(nativeFeed(#""fireDate": "2026-06-01T13:00:00Z""#)).schedule)
        /// A core whose feed came from the cache, checked every 3 h, its first check as stored
        /// before the restart.
        func core(checkingAt nextCheck: Instant?) -> DaemonCore {
            var core = DaemonCore(
                planner: OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc),
                polling: SourcePolling(
                    sources: [
                        .init(
                            health: SourceHealth(location: "feed", nextCheck: nextCheck),
                            settings: SourceSettings(fetchPeriod: .hours(3)))
                    ],
                    seed: 1))
            _ = core.handle(
                .sourceOpened(source: 0, .cachedCopy(FeedLoad(source: 0, schedule: schedule, settled: [:]))), at: noon)
            return core
        }
        let occurrenceFirst = core(checkingAt: noon + .hours(2)).nextWakeUp
        var checkFirst = core(checkingAt: noon + .minutes(30))
        let entry = try #require(parse(nativeFeed(#""events": {"deploy": "ON=1"}"#)).schedule?.entries.first)
        let chosen = checkFirst.handle(
            .popupsChosen(checkFirst.waiting.popups(for: [entry], of: "feed", at: noon + .minutes(10))), at: noon)
        let popupFirst = checkFirst.nextWakeUp
        let nothingAhead = self.core().nextWakeUp
        // The planner's wheel may wake it a little early for the occurrence, never late.
        #expect(occurrenceFirst.map { $0 > noon + .minutes(30) && $0 <= instant("2026-06-01T13:00:00Z") } == true)
        #expect(core(checkingAt: noon + .minutes(30)).nextWakeUp == noon + .minutes(30))
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
            core.nextWakeUp.map { $0 > one && $0 <= one + .hours(1) } == true, "the next hour is ahead")
    }

    @Test func aRecordedRunReplaysToTheSameEffects() throws {
        let feed = nativeFeed(#""fireDate": "2026-06-01T13:00:00Z", "repeatInterval": "hour""#)
        let schedule = try #require(parse(feed).schedule)
        let sources = [SourceContext(source: 0, settings: INotifySettings())]
        /// A day of `core`'s life as a driver leads it, hourly, each popup answered as shown: every
        /// event with its instant, and the effects it decided.
        func record(_ core: inout DaemonCore) -> [(event: DaemonEvent, at: Instant, effects: [DaemonEffect])] {
            var toCome: [(DaemonEvent, Instant)] = [
                (.opened(FeedLoad(source: 0, schedule: schedule, settled: [:])), noon), (.started, noon),
                (
                    .sourceEvent(
                        .session("session:start", countsAsRun: true), sources: sources, urlHandlers: .everyScheme),
                    noon
                ),
            ]
            toCome += (1...24).map { (.timerWoke(clockChanged: false), noon + .hours(Int64($0))) }
            var log: [(event: DaemonEvent, at: Instant, effects: [DaemonEffect])] = []
            while !toCome.isEmpty {
                let (event, now) = toCome.removeFirst()
                let effects = core.handle(event, at: now)
                log.append((event, now, effects))
                for case .show(let due) in effects.reversed() { toCome.insert((.shown(due, .shown), now), at: 0) }
            }
            return log
        }
        var first = core()
        var second = core()
        let recorded = record(&first)
        let again = record(&second)
        var replaying = core()
        let replayed = recorded.map { replaying.handle($0.event, at: $0.at) }
        #expect(recorded.flatMap(\.effects).count { if case .show = $0 { true } else { false } } == 24)
        #expect(again.map(\.event) == recorded.map(\.event), "a second run takes the same events")
        #expect(replayed == recorded.map(\.effects), "the same events at the same instants decide the same")
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
            following: OccurrencePlanner(
                sources: [.init(location: "a"), .init(location: "b")], now: noon, userZone: .utc))
        let schedule = try #require(parse(nativeFeed(#""events": {"deploy": "ON=1"}"#)).schedule)
        _ = core.handle(.opened(FeedLoad(source: 0, schedule: schedule, settled: [:])), at: noon)
        let sources = [0, 1].map { SourceContext(source: $0, settings: INotifySettings()) }
        let started = core.handle(
            .sourceEvent(.session("session:start", countsAsRun: true), sources: sources, urlHandlers: .everyScheme),
            at: noon)
        let taken = [0, 1, 1].map { source in
            core.handle(.checked(FeedLoad(source: source, schedule: schedule, settled: [:])), at: noon)
                .contains(.takeSessionStart(source: source))
        }
        #expect(started.map { if case .storeChoice(let source, _) = $0 { source } else { -1 } } == [0])
        #expect(taken == [false, true, false], "source 0 had its feed; 1 takes it once")
    }

    @Test func aFeedChangeReplacesAChangedEntrysPopupAndClosesAWithdrawnOnes() throws {
        var core = core(feed: #"{"notifications": [{"id": "a", "title": "A"}, {"id": "b", "title": "B"}]}"#)
        let old = try #require(core.planner.schedule(source: 0)?.entries)
        let onScreen = old.map {
            DeliveredOccurrence(id: "feed#\($0.id)", entry: $0, source: "feed", deliveredAt: noon)
        }
        for shown in onScreen { core.note(.popupShown(shown, replacing: nil)) }
        let new = try #require(parse(#"{"notifications": [{"id": "a", "title": "A, again"}]}"#).schedule)
        let effects = core.handle(.checked(FeedLoad(source: 0, schedule: new, settled: [:])), at: noon)
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
        let held = (core.waiting.items.count, core.nextWakeUp)
        let server = NotificationServer(
            name: "dunst", vendor: "knopwob", version: "1.9", specVersion: "1.2", capabilities: ["actions"])
        let back = core.handle(.serverAppeared(server), at: noon + .seconds(5))
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
        _ = core.handle(.checked(FeedLoad(source: 0, schedule: withoutB, settled: [:])), at: noon - .minutes(1))
        let seen = everyWaitingShown(&core, core.handle(.timerWoke(clockChanged: false), at: noon))
        #expect(shownEntries(seen) == ["a", "c"])
        #expect(seen.contains(.dropWaiting(items[1].popup, reason: "b is no longer in its feed")))
    }

    /// A downtime the daemon did not see, and what its start must make of it.
    struct Downtime: Sendable, CustomTestStringConvertible {
        /// How long before the latest due occurrence the last settled one lies.
        var length: TimeSpan
        /// The entry's `repeatInterval`, which `length` is a whole number of.
        var repeatInterval: String
        /// How late the latest due occurrence is at the start.
        var lateness: TimeSpan
        /// The entry's `maxLateness`; nil for the default of 24 h.
        var maxLateness: String?
        /// Whether the latest occurrence is shown (within `maxLateness`) or recorded as missed.
        var isShown: Bool
        var testDescription: String
    }

    /// Each shown case has a `maxLateness` shorter than the downtime, so that only the latest
    /// occurrence's lateness lets it through; the missed one differs from the last in nothing
    /// but its `maxLateness`.
    static let downtimes = [
        Downtime(
            length: .hours(1), repeatInterval: "minute", lateness: .seconds(20), maxLateness: "5min", isShown: true,
            testDescription: "1 h of a minutely entry, 20 s late, maxLateness 5 min: shown"),
        Downtime(
            length: .days(1), repeatInterval: "hour", lateness: .minutes(10), maxLateness: "30min", isShown: true,
            testDescription: "1 d of an hourly entry, 10 min late, maxLateness 30 min: shown"),
        Downtime(
            length: .days(30), repeatInterval: "day", lateness: .hours(2), maxLateness: "1h", isShown: false,
            testDescription: "30 d of a daily entry, 2 h late, maxLateness 1 h: missed"),
        Downtime(
            length: .days(30), repeatInterval: "day", lateness: .hours(2), maxLateness: nil, isShown: true,
            testDescription: "30 d of a daily entry, 2 h late, maxLateness 24 h by default: shown"),
    ]

    @Test(arguments: downtimes)
    func aDowntimeFoldsIntoOneCatchUpPopupWithinMaxLatenessAndIsRecordedMissedBeyondIt(_ downtime: Downtime) throws {
        let latest = noon - downtime.lateness
        let lastSettled = latest - downtime.length
        let maxLateness = downtime.maxLateness.map { #", "maxLateness": "\#($0)""# } ?? ""
        let schedule = try #require(
            parse(
                nativeFeed(
                    #""fireDate": "\#(lastSettled.rfc3339)", "repeatInterval": "\#(downtime.repeatInterval)""#
                        + maxLateness)
            ).schedule)
        // A daemon starting at noon, its state database settled through the last occurrence before the downtime.
        var core = DaemonCore(
            following: OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc))
        let effects =
            core.handle(.opened(FeedLoad(source: 0, schedule: schedule, settled: ["e": lastSettled])), at: noon)
            + core.handle(.timerWoke(clockChanged: false), at: noon)
        let shown = effects.compactMap { if case .show(let due) = $0 { due } else { nil } }
        let missed = effects.compactMap { if case .recordMissed(_, _, let occurrence) = $0 { occurrence } else { nil } }
        if downtime.isShown {
            #expect(shown.map(\.occurrence) == [latest], "the missed occurrences fold into one popup, the latest")
            #expect(shown.first?.foldsEarlier == true)
            #expect(missed.isEmpty, "nothing is recorded for the folded ones")
        } else {
            #expect(shown.isEmpty, "an occurrence later than its maxLateness is not shown")
            #expect(missed == [latest], "the latest occurrence is recorded as missed")
        }
    }

    @Test func aFeedChangeThatWithdrawsAnEntryCancelsItsPendingOccurrence() throws {
        let one = #"{"id": "later", "title": "Later", "fireDate": "2026-06-01T13:00:00Z"}"#
        let control = #"{"id": "control", "title": "Control", "fireDate": "2026-06-01T13:00:00Z"}"#
        var core = core(feed: #"{"notifications": [\#(one), \#(control)]}"#)
        let withdrawn = try #require(parse(#"{"notifications": [\#(control)]}"#).schedule)
        let changed = core.handle(.checked(FeedLoad(source: 0, schedule: withdrawn, settled: [:])), at: noon)
        let due = core.handle(.timerWoke(clockChanged: false), at: noon + .hours(1))
        #expect(changed.contains(.log(.info, "feed: 0 added, 0 changed, 1 withdrawn")))
        #expect(due.compactMap { if case .show(let due) = $0 { due.entry.id } else { nil } } == ["control"])
    }

    @Test func aNewDaemonTakesOverOnlyPopupsItDoesNotShowOfEntriesStillInTheirFeed() throws {
        var core = core(feed: threeEntries)
        let entries = try #require(core.planner.schedule(source: 0)?.entries)
        let gone = try #require(parse(nativeFeed(#""body": "Gone""#)).schedule?.entries.first)
        let left = [entries[0], entries[1], gone].enumerated().map { index, entry in
            PopupOnServer(
                DeliveredOccurrence(id: "o\(index)", entry: entry, source: "feed", deliveredAt: noon),
                popupID: UInt32(index + 1))
        }
        core.note(.popupShown(left[1].occurrence, replacing: nil))
        let prompt = PopupOnServer(left[2].occurrence, popupID: 9)
        let effects = core.handle(.leftOnScreen(left, prompts: [prompt]), at: noon)
        #expect(
            effects == [.takeOver(left[0]), .takeOverPrompt(prompt)],
            "o1 is shown already; e left the feed, and its prompt still answers")
        core.note(.promptShown(prompt.occurrence))
        #expect(
            core.handle(.leftOnScreen([], prompts: [prompt]), at: noon) == [], "a prompt up is not taken over twice")
    }

    /// The occurrence `id` of the entry `e` of "feed".
    private func occurrence(_ id: String) throws -> DeliveredOccurrence {
        let entry = try #require(parse(nativeFeed(#""fireDate": "2026-06-01T12:00:00Z""#)).schedule?.entries.first)
        return DeliveredOccurrence(id: id, entry: entry, source: "feed", deliveredAt: noon)
    }

    /// The calls `effects` answer, and the outcome they store.
    private func answers(_ effects: [DaemonEffect]) -> (calls: [DaemonEffect], stored: HandlingOutcome?) {
        var stored: HandlingOutcome?
        var calls: [DaemonEffect] = []
        for effect in effects {
            if case .storeHandling(let outcome) = effect { stored = outcome }
            if case .answerCalls = effect { calls.append(effect) }
        }
        return (calls, stored)
    }

    /// A test popup's entry.
    private let testEntry = ScheduleEntry(
        id: "test-1", dialect: .native, content: NotificationContent(title: "T", body: ""), trigger: .immediate)

    @Test func callsWaitingForAnOccurrenceAreAnsweredOnceByItsOutcomeInTheOrderTheyCame() throws {
        var core = core()
        let (a, b) = (try occurrence("a"), try occurrence("b"))
        let asked = [(1, a), (2, b), (3, a)].map { token, occurrence in
            core.handle(
                .handleCalled(token: token, .handleRequested(occurrence, showAlert: true, server: nil)), at: noon)
        }
        #expect(asked == [[.showPrompt(a)], [.showPrompt(b)], [.showPrompt(a)]], "no prompt is up yet")
        core.note(.promptShown(a))
        core.note(.promptShown(b))
        #expect(core.handle(.handleCalled(token: 4, .handleRequested(a, showAlert: true, server: nil)), at: noon) == [])
        let answered = [a, a, b].map {
            answers(core.handle(.handling(.answered($0, .prompt, .action("ok"))), at: noon))
        }
        let (status, report) = try #require(answered[0].stored).callAnswer
        #expect(
            answered.map(\.calls) == [
                [.answerCalls([1, 3, 4], about: "a", status: status, report: report)], [],
                [.answerCalls([2], about: "b", status: status, report: report)],
            ], "each call is answered once")
        #expect(answered.allSatisfy { $0.stored != nil }, "each answer is stored")
    }

    @Test func aHandleCallWaitsThroughTheScheduledPopupsClosingForThePromptsAnswer() throws {
        var core = core()
        let a = try occurrence("a")
        _ = core.handle(.handleCalled(token: 1, .handleRequested(a, showAlert: true, server: nil)), at: noon)
        core.note(.promptShown(a))
        _ = core.handle(.testRequested(token: 2, entry: testEntry, due: noon, wait: true), at: noon)
        _ = core.handle(.testShown(token: 2, .success("a")), at: noon)
        let closing = answers(core.handle(.handling(.answered(a, .scheduled, .closed(.expired))), at: noon))
        let (closedStatus, closedReport) = try #require(closing.stored).callAnswer
        #expect(
            closing.calls == [.answerCalls([2], about: "a", status: closedStatus, report: closedReport)],
            "test --wait ends")
        let answer = answers(core.handle(.handling(.answered(a, .prompt, .action("ok"))), at: noon))
        let (status, report) = try #require(answer.stored).callAnswer
        #expect(
            answer.calls == [.answerCalls([1], about: "a", status: status, report: report)],
            "handle ends with the prompt's answer")
    }

    @Test func callsStillWaitingWhenTheDaemonStopsAreAnsweredWithAFailureThatSaysWhatStays() throws {
        var core = core()
        _ = core.handle(
            .handleCalled(token: 1, .handleRequested(try occurrence("a"), showAlert: true, server: nil)), at: noon)
        _ = core.handle(.testRequested(token: 2, entry: testEntry, due: noon, wait: true), at: noon)
        _ = core.handle(.testShown(token: 2, .success("b")), at: noon)
        let effects = core.handle(.stopping, at: noon)
        #expect(effects.count == 2)
        for effect in effects {
            guard case .answerCalls(let tokens, _, let status, let report) = effect else {
                Issue.record("unexpected \(effect)")
                continue
            }
            #expect(status == "failed")
            #expect(report.contains(tokens == [1] ? "prompt" : "popup"), "\(tokens): \(report)")
        }
        #expect(core.handle(.stopping, at: noon) == [], "each call is answered once")
    }

    @Test func aTestPopupGoesOutAtItsTimeOnTheCoresTimerAndItsCallIsAnsweredOnceItIsShown() throws {
        var core = core()
        let entry = ScheduleEntry(
            id: "test-1", dialect: .native, content: NotificationContent(title: "Lunch", body: "Now"),
            trigger: .immediate)
        let asked = core.handle(.testRequested(token: 7, entry: entry, due: noon + .seconds(90), wait: false), at: noon)
        let early = core.handle(.timerWoke(clockChanged: false), at: noon + .seconds(89))
        let due = core.handle(.timerWoke(clockChanged: false), at: noon + .seconds(90))
        let shown = core.handle(.testShown(token: 7, .success("test#1")), at: noon + .seconds(90))
        #expect(asked == [], "not due yet")
        #expect(!early.contains(.showTest(token: 7, entry)), "not before its time")
        #expect(due.contains(.showTest(token: 7, entry)))
        #expect(shown == [.answerCalls([7], about: "test#1", status: "delivered", report: "")])
        #expect(
            core.handle(.timerWoke(clockChanged: false), at: noon + .seconds(91)).allSatisfy {
                if case .showTest = $0 { false } else { true }
            }, "shown once")
    }

    @Test func aTestPopupsTimeIsTheCoresNextWakeUpWhenNothingComesSooner() {
        var core = core()
        let entry = ScheduleEntry(
            id: "test-1", dialect: .native, content: NotificationContent(title: "T", body: ""), trigger: .immediate)
        _ = core.handle(.testRequested(token: 1, entry: entry, due: noon + .minutes(5), wait: true), at: noon)
        #expect(core.nextWakeUp == noon + .minutes(5))
    }

    @Test func aWaitingTestCallIsAnsweredByThePopupsOutcomeAndAFailedShowAtOnce() throws {
        var core = core()
        let entry = ScheduleEntry(
            id: "test-1", dialect: .native, content: NotificationContent(title: "T", body: ""), trigger: .immediate)
        let now = core.handle(.testRequested(token: 1, entry: entry, due: noon, wait: true), at: noon)
        _ = core.handle(.testRequested(token: 2, entry: entry, due: noon, wait: true), at: noon)
        let waits = core.handle(.testShown(token: 1, .success("a")), at: noon)
        let failed = core.handle(.testShown(token: 2, .failure(CoreError(.cannotShow, "no server"))), at: noon)
        let answered = answers(
            core.handle(.handling(.answered(try occurrence("a"), .scheduled, .closed(.dismissed))), at: noon))
        let (status, report) = try #require(answered.stored).callAnswer
        #expect(now == [.showTest(token: 1, entry)], "due at once: shown in the same turn")
        #expect(waits == [], "with wait, the call waits for the outcome")
        #expect(failed == [.answerCalls([2], about: "", status: "failed", report: "no server")])
        #expect(answered.calls == [.answerCalls([1], about: "a", status: status, report: report)])
    }

    @Test func aTestPopupNotShownWhenTheDaemonStopsHasItsCallAnsweredWithAFailure() {
        var core = core()
        let entry = ScheduleEntry(
            id: "test-1", dialect: .native, content: NotificationContent(title: "T", body: ""), trigger: .immediate)
        _ = core.handle(.testRequested(token: 3, entry: entry, due: noon + .hours(1), wait: false), at: noon)
        #expect(
            core.handle(.stopping, at: noon) == [
                .answerCalls(
                    [3], about: "", status: "failed", report: "the daemon stopped before the test popup was shown")
            ])
        #expect(core.nextWakeUp == nil, "nothing left to show")
    }

    @Test func theUsersZoneFollowsTheSystemsUnlessTZFixesIt() throws {
        let berlin = try #require(TimeZoneDatabase().zone(named: "Europe/Berlin"))
        var following = core()
        var fixed = DaemonCore(
            planner: OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc),
            polling: SourcePolling(sources: [.init(health: SourceHealth(location: "feed"))], seed: 1),
            followsSystemZone: false)
        let followed = following.handle(.zoneChanged(berlin), at: noon)
        let again = following.handle(.zoneChanged(berlin), at: noon)
        #expect(followed.first == .log(.notice, "the time zone is now Europe/Berlin; planning again"))
        #expect(following.planner.userZone == berlin)
        #expect(again == [], "the same zone again changes nothing")
        #expect(fixed.handle(.zoneChanged(berlin), at: noon) == [] && fixed.planner.userZone == .utc)
    }

    @Test func anEditedConfigurationRestartsTheDaemonOnlyWhenItChangedAndHasNoErrors() {
        let inForce = Configuration(extraSchemes: ["zoommtg"])
        var core = DaemonCore(
            planner: OccurrencePlanner(sources: [], now: noon, userZone: .utc),
            polling: SourcePolling(sources: [], seed: 1), configuration: inForce)
        let file = "/home/u/.config/notify-sched/config"
        let same = core.handle(.configurationEdited(inForce, problems: [], file: file), at: noon)
        let broken = core.handle(.configurationEdited(nil, problems: ["line 3: bad"], file: file), at: noon)
        let changed = Configuration(extraSchemes: ["zoommtg", "slack"])
        let edited = core.handle(.configurationEdited(changed, problems: [], file: file), at: noon)
        #expect(same == [], "an edit that changes nothing is no restart")
        #expect(
            broken == [
                .log(.warning, "line 3: bad"), .log(.error, "\(file) has errors; the configuration in force stays"),
            ])
        #expect(edited == [.log(.notice, "\(file) changed"), .restart(changed)])
    }

    @Test func ignoringARepeatingEntryStopsItsLaterOccurrences() throws {
        var core = core(feed: nativeFeed(#""fireDate": "2026-06-01T12:00:00Z", "repeatInterval": "hour""#))
        let before = core.planner.pendingCount
        var shown = try occurrence("a")
        shown.due = noon
        _ = core.handle(.handling(.answered(shown, .scheduled, .action("ignore"))), at: noon + .minutes(1))
        let after = core.planner.pendingCount
        #expect(before == 1)
        #expect(after == 0, "Ignore stops the entry")
    }
}
