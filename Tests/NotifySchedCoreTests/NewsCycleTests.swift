import NotifySchedCore
import Testing

@Suite struct NewsCycleTests {
    private let now = instant("2026-06-01T12:00:00Z")

    private func schedule(_ json: String) throws -> Schedule {
        let result = parse(json)
        #expect(errors(result) == [])
        return try #require(result.schedule)
    }

    /// Runs `count` cycles of `event`, threading the state, and returns what each showed (by title).
    private func cycles(
        _ schedule: Schedule, event: String, count: Int, state: NewsState = NewsState(), shown: Set<String> = []
    ) -> (shown: [[String]], state: NewsState) {
        var state = state
        var result: [[String]] = []
        for _ in 0..<count {
            let cycle = NewsCycle(
                event: event, schedule: schedule, state: state, handling: SourceHandlingState(shownNews: shown),
                now: now)
            state = cycle.state
            result.append(
                cycle.items.map { item in schedule.entries.first { $0.id == item.entryID }?.content.title ?? "?" })
        }
        return (result, state)
    }

    @Test func globalPatternGatesClassicMessagesOnAndOff() throws {
        let feed = try schedule(#"[{"event": {"name": "session:start", "pattern": "ON=2|OFF=4"}}, {"title": "A"}]"#)
        let shown = cycles(feed, event: "session:start", count: 7).shown
        #expect(shown == [["A"], ["A"], [], [], [], [], ["A"]])
    }

    @Test func progressPersistsWhilePatternIsUnchangedAndResetsWhenItChanges() throws {
        let before = try schedule(#"[{"event": {"name": "e", "pattern": "OFF=1|ON=1"}}, {"title": "A"}]"#)
        let first = cycles(before, event: "e", count: 1)
        #expect(first.shown == [[]])
        let reloaded = try schedule(
            #"[{"event": {"name": "e", "pattern": "OFF=1|ON=1"}}, {"title": "A"}, {"title": "B"}]"#)
        #expect(cycles(reloaded, event: "e", count: 1, state: first.state).shown == [["A", "B"]])
        let changed = try schedule(#"[{"event": {"name": "e", "pattern": "OFF=2|ON=1"}}, {"title": "A"}]"#)
        #expect(cycles(changed, event: "e", count: 3, state: first.state).shown == [[], [], ["A"]])
    }

    @Test func inactiveGlobalEventShowsNothingAtAll() throws {
        let feed = try schedule(
            """
            [{"event": {"name": "e", "pattern": "OFF=1"}}, {"title": "A"},
             {"meta": {"uuid": "m", "urls": ["https://e.org/m"], "events": {"e": "ON=1"}}}]
            """)
        #expect(cycles(feed, event: "e", count: 1).shown == [["m"]])
        let globalOnly = try schedule(#"[{"event": {"name": "e", "pattern": "OFF=1"}}, {"title": "A"}]"#)
        #expect(cycles(globalOnly, event: "e", count: 1).shown == [[]])
    }

    @Test func anActivationWithoutMatchingEventsShowsClassicMessagesOnly() throws {
        // seed semantics §2.7: only app:activate (a resume or an unlock) shows classic messages
        // when no event object matches; the launch, like any other event, then shows nothing.
        let feed = try schedule(
            """
            [{"event": {"name": "other", "pattern": "ON=1"}}, {"title": "A"},
             {"meta": {"uuid": "m", "urls": ["https://e.org/m"]}}]
            """)
        #expect(cycles(feed, event: "session:resume", count: 1).shown == [["A"]])
        #expect(cycles(feed, event: "session:unlock", count: 1).shown == [["A"]])
        #expect(cycles(feed, event: "session:start", count: 1).shown == [[]])
        #expect(cycles(feed, event: "unknown", count: 1).shown == [[]])
    }

    @Test func defaultEventsShowEverythingAtLaunchAndOnEveryReturnToTheSession() throws {
        // seed semantics §5.35: without global events, app:activate, app:didfinishlaunching and
        // app:didfinishlaunchingafterupgrade are each ON=1.
        let feed = try schedule(#"[{"title": "A"}]"#)
        #expect(cycles(feed, event: "session:start", count: 2).shown == [["A"], ["A"]])
        #expect(cycles(feed, event: "session:resume", count: 1).shown == [["A"]])
        #expect(cycles(feed, event: "session:unlock", count: 1).shown == [["A"]])
        #expect(cycles(feed, event: "App:Activate", count: 1).shown == [["A"]])
    }

    @Test func itemWithLocalEventsFollowsThemAndIgnoresGlobalOnes() throws {
        let feed = try schedule(
            """
            [{"event": {"name": "e1", "pattern": "ON=1"}},
             {"meta": {"uuid": "local", "urls": ["https://e.org/l"], "events": {"e2": "ON=1"}}},
             {"meta": {"uuid": "global", "urls": ["https://e.org/g"]}}]
            """)
        #expect(cycles(feed, event: "e1", count: 1).shown == [["global"]])
        #expect(cycles(feed, event: "e2", count: 1).shown == [["local"]])
    }

    @Test func shownMessagesAreLeftOutButAlwaysMessagesNeverAre() throws {
        let feed = try schedule(#"[{"title": "Once"}, {"title": "Always", "always": true}]"#)
        let once = try #require(feed.entries.first?.news?.contentHash)
        #expect(cycles(feed, event: "session:start", count: 1, shown: [once]).shown == [["Always"]])
    }

    @Test func windowAndCounterHoldMessagesBack() throws {
        let feed = try schedule(
            """
            [{"title": "Future", "start": "2026-06-02T00:00:00Z"}, {"title": "Ended", "end": "2026-06-01T12:00:00Z"},
             {"title": "Started", "start": "2026-06-01T12:00:00Z"}, {"title": "Third run", "counter": 3}]
            """)
        #expect(cycles(feed, event: "session:start", count: 1, state: NewsState(runCounter: 2)).shown == [["Started"]])
        #expect(
            cycles(feed, event: "session:start", count: 1, state: NewsState(runCounter: 3)).shown == [
                ["Started", "Third run"]
            ])
        #expect(
            cycles(feed, event: "session:start", count: 1, state: NewsState(runCounter: 0)).shown == [
                ["Started", "Third run"]
            ])
    }

    @Test func gateLimitsEachCycle() throws {
        let feed = try schedule(
            #"[{"gate": 2}, {"title": "1"}, {"title": "2"}, {"title": "3"}, {"title": "4"}, {"title": "5"}]"#)
        #expect(cycles(feed, event: "session:start", count: 1).shown == [["1", "2"]])
    }

    @Test func queueShowsOneMessagePerCycleInRotationAfterUnqueuedOnes() throws {
        let feed = try schedule(
            """
            [{"queues": [{"name": "A", "timeout": 30}]},
             {"title": "m1"}, {"title": "a1", "queue": "A"}, {"title": "a2", "queue": "A"}, {"title": "a3", "queue": "A"},
             {"title": "m4"}]
            """)
        let run = cycles(feed, event: "session:start", count: 4)
        #expect(run.shown == [["m1", "m4", "a1"], ["m1", "m4", "a2"], ["m1", "m4", "a3"], ["m1", "m4", "a1"]])
        let cycle = NewsCycle(event: "session:start", schedule: feed, state: NewsState(), handling: .init(), now: now)
        #expect(cycle.items.map(\.delay) == [.zero, .zero, .seconds(30)])
    }

    @Test func whatTheGateCutsOffDoesNotTurnItsQueue() throws {
        // Seed semantics §2.6: the gate drops the rest of the cycle, so queue B is not reached.
        let feed = try schedule(
            """
            [{"gate": 1}, {"title": "a1", "queue": "A"}, {"title": "a2", "queue": "A"},
             {"title": "b1", "queue": "B"}, {"title": "b2", "queue": "B"}]
            """)
        let run = cycles(feed, event: "session:start", count: 2)
        #expect(run.shown == [["a1"], ["a2"]])
        #expect(run.state.queueIndexes["b"] == nil)
    }

    @Test func twoGlobalEventsOfOneNameKeepTheirOwnProgress() throws {
        // Each event object has its own progress: OFF=1|ON=1 and ON=1|OFF=1 together are on at every step.
        let feed = try schedule(
            """
            [{"event": {"name": "e", "pattern": "OFF=1|ON=1"}}, {"event": {"name": "e", "pattern": "ON=1|OFF=1"}},
             {"title": "A", "always": true}]
            """)
        #expect(cycles(feed, event: "e", count: 4).shown == [["A"], ["A"], ["A"], ["A"]])
    }

    @Test func metaItemsRotatePerEventInPriorityOrder() throws {
        let feed = try schedule(
            """
            [{"meta": {"uuid": "b", "urls": ["https://e.org/b"]}},
             {"meta": {"uuid": "a", "urls": ["https://e.org/a"]}},
             {"meta": {"uuid": "top", "urls": ["https://e.org/t"], "priority": 9}},
             {"meta": {"uuid": "c", "urls": ["https://e.org/c"], "priority": -1}}]
            """)
        #expect(
            cycles(feed, event: "session:start", count: 5).shown == [
                ["top"], ["a"], ["b"], ["c"], ["top"],
            ])
    }
}
