import NotifySchedCore
import Testing

@Suite struct SourceEventPlanTests {
    private let now = instant("2026-06-01T12:00:00Z")

    private func schedule(_ json: String) throws -> Schedule {
        let result = parse(json)
        #expect(errors(result) == [])
        return try #require(result.schedule)
    }

    private func plan(
        _ event: SourceEvent, _ schedule: Schedule, memory: SourceMemory = SourceMemory(),
        settings: INotifySettings = INotifySettings(), waiting: PopupQueue = PopupQueue(), onScreen: Bool = false,
        at time: Instant? = nil
    ) -> SourceEventPlan {
        SourceEventPlan(
            event, schedule: schedule, memory: memory, settings: settings, location: "feed", waiting: waiting,
            onScreen: onScreen, urlHandlers: .everyScheme, now: time ?? now)
    }

    @Test func onlyAnINotifyFeedsActionSchemesAreAskedAboutTheDesktop() throws {
        let iNotify = try schedule(
            #"{"2011/01/01": {"Title": "a", "ActionURL": "mailto:a@example.org"}, "#
                + #""2011/01/02": {"Title": "b", "ActionURL": "https://example.org/b"}, "2011/01/03": {"Title": "c"}}"#)
        let native = try schedule(
            #"{"notifications": [{"id": "n", "title": "N", "action": {"url": "https://example.org/n"}}]}"#)
        #expect(SourceEventPlan.schemesAskedAbout(in: iNotify) == ["mailto", "https"])
        #expect(SourceEventPlan.schemesAskedAbout(in: native) == [], "a native feed's events never ask")
    }

    @Test func anAlwaysOnEntryIsChosenAtEveryOccurrenceOfItsEvent() throws {
        // ON=1 leaves the progress as it was: the choice must not hang on a change of state.
        let feed = try schedule(#"{"notifications": [{"id": "deployed", "title": "A", "events": {"deploy": "ON=1"}}]}"#)
        var memory = SourceMemory()
        for step in 0..<3 {
            let chosen = plan(.posted("deploy"), feed, memory: memory, at: now + .minutes(Int64(step)))
            #expect(chosen.popups.map(\.popup.entryID) == ["deployed"], "step \(step)")
            // The popups are stored with the state, so it is there to store.
            memory.news = try #require(chosen.news, "step \(step)")
        }
    }

    @Test func aSessionStartWithANewApplicationVersionIsTheLaunchAfterAnUpgrade() throws {
        // seed semantics §2.7–§2.8: the configured application-version changing between two
        // starts is the desktop's upgrade; the launch then carries
        // app:didfinishlaunchingafterupgrade, which what_is_new listens to by default.
        let feed = try schedule(
            """
            [{"meta": {"uuid": "what_is_new", "urls": ["https://e.org/w"]}},
             {"meta": {"uuid": "launches", "urls": ["https://e.org/l"], "events": {"app:didfinishlaunching": "ON=1"}}}]
            """)
        var memory = SourceMemory()
        var shown: [[String]] = []
        for (day, version) in ["1.0", "1.0", "2.0", "2.0"].enumerated() {
            let start = plan(
                .session("session:start", countsAsRun: true), feed, memory: memory,
                settings: INotifySettings(applicationVersion: version), at: now + .days(Int64(day)))
            shown.append(start.popups.map(\.popup.entryID))
            memory.news = try #require(start.news)
        }
        #expect(shown == [["launches"], ["launches"], ["what_is_new"], ["launches"]])
        #expect(memory.news.firstStart == now)
        #expect(memory.news.applicationVersion == "2.0")
    }

    @Test func withCheckAtLaunchOffOnlyAManualCheckChecksInDebugToo() throws {
        // seed semantics §1.2 checkAtLaunch, §5.15: the "should check" veto holds in debug mode.
        let feed = try schedule(#"{"2026/01/01": {"Title": "Update"}}"#)
        let settings = INotifySettings(showOnFirstLaunch: true, debug: true, checkAtLaunch: false)
        for event in [
            SourceEvent.session("session:start", countsAsRun: true), .session("session:resume", countsAsRun: true),
        ] {
            let plan = plan(event, feed, settings: settings)
            #expect(plan.popups.isEmpty && plan.check == nil)
        }
        #expect(plan(.manualCheck, feed, settings: settings).popups.map(\.popup.entryID) == ["2026/01/01"])
    }

    @Test func aHiddenKeyIsNeverShownAndDoesNotBlockOlderOnes() throws {
        // seed semantics §5.21: the display veto shows nothing of that key and changes nothing.
        let feed = try schedule(#"{"2026/01/01": {"Title": "Old"}, "2026/02/01": {"Title": "New"}}"#)
        let settings = INotifySettings(showOnFirstLaunch: true, hiddenKeys: ["2026/02/01"])
        let chosen = plan(.session("session:start", countsAsRun: true), feed, settings: settings)
        #expect(chosen.popups.map(\.popup.entryID) == ["2026/01/01"])
    }

    @Test func anIgnoredEventEntryTakesNoPart() throws {
        let feed = try schedule(
            #"{"notifications": [{"id": "a", "title": "A", "events": {"deploy": "ON=1"}}, {"id": "b", "title": "B", "events": {"deploy": "ON=1"}}]}"#
        )
        let memory = SourceMemory(handling: SourceHandlingState(ignored: ["a"]))
        #expect(plan(.posted("deploy"), feed, memory: memory).popups.map(\.popup.entryID) == ["b"])
    }

    @Test func anEntryWaitingAlreadyIsNotChosenAgain() throws {
        let feed = try schedule(#"{"notifications": [{"id": "a", "title": "A", "events": {"deploy": "ON=1"}}]}"#)
        let waiting = PopupQueue([WaitingPopup(source: "feed", entryID: "a", occurrence: now - .minutes(1))])
        let chosen = plan(.posted("deploy"), feed, waiting: waiting)
        #expect(chosen.popups.isEmpty)
        #expect(chosen.news?.eventProgress.isEmpty == false, "the pattern took its step")
    }

    @Test func anINotifySourceShowsOneMessageAtATime() throws {
        let feed = try schedule(#"{"2011/01/01": {"Title": "old"}, "2011/02/01": {"Title": "new"}}"#)
        let memory = SourceMemory(check: SourceState(hasRun: true))
        let free = plan(.session("session:start", countsAsRun: true), feed, memory: memory)
        #expect(free.popups.map(\.popup.entryID) == ["2011/02/01"])
        let busy = plan(.session("session:start", countsAsRun: true), feed, memory: memory, onScreen: true)
        #expect(busy.popups.isEmpty)
        #expect(busy.check == SourceState(hasRun: true, lastChecked: now), "the check happened")
    }

    @Test func postedEventsLeaveINotifySourcesAloneAndManualChecksTheOthers() throws {
        let iNotify = try schedule(#"{"2011/01/01": {"Title": "old"}}"#)
        let posted = plan(.posted("deploy"), iNotify, memory: SourceMemory(check: SourceState(hasRun: true)))
        #expect(posted.popups.isEmpty && posted.check == nil)
        let news = try schedule(#"[{"title": "A"}]"#)
        let checked = plan(.manualCheck, news)
        #expect(checked.popups.isEmpty && checked.news == nil)
    }

    @Test func aManualCheckSkipsTheFirstStartAndThePeriods() throws {
        let feed = try schedule(#"{"2011/01/01": {"Title": "old"}}"#)
        let memory = SourceMemory(check: SourceState(hasRun: false, lastChecked: now - .minutes(1)))
        #expect(plan(.session("session:start", countsAsRun: true), feed, memory: memory).popups.isEmpty)
        #expect(plan(.manualCheck, feed, memory: memory).popups.map(\.popup.entryID) == ["2011/01/01"])
    }
}
