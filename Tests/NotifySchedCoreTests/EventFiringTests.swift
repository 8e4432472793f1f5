import NotifySchedCore
import Testing

@Suite struct EventFiringTests {
    private let now = instant("2026-06-01T12:00:00Z")

    private func schedule(_ entries: String) throws -> Schedule {
        let result = parse(#"{"notifications": [\#(entries)]}"#)
        #expect(errors(result) == [])
        return try #require(result.schedule)
    }

    /// Posts `event` `count` times, threading the progress, and returns the ids each showed.
    private func firings(
        _ schedule: Schedule, _ event: String, count: Int, progress: [String: EventProgress] = [:],
        at time: Instant? = nil
    ) -> (shown: [[String]], progress: [String: EventProgress]) {
        var progress = progress
        var shown: [[String]] = []
        for _ in 0..<count {
            let firing = EventFiring(event: event, schedule: schedule, progress: progress, now: time ?? now)
            progress = firing.progress
            shown.append(firing.entries.map(\.id))
        }
        return (shown, progress)
    }

    @Test func anEntryIsShownOnTheOnStepsOfItsPatternForThatEventOnly() throws {
        let feed = try schedule(
            #"""
            {"id": "every-third", "title": "A", "events": {"build:done": "ON=1|OFF=2"}},
            {"id": "timed", "title": "B", "fireDate": "2026-06-01T13:00:00Z"},
            {"id": "other", "title": "C", "events": {"deploy": "ON=1"}}
            """#)
        #expect(
            firings(feed, "build:done", count: 7).shown == [
                ["every-third"], [], [], ["every-third"], [], [], ["every-third"],
            ])
        #expect(firings(feed, "Deploy", count: 2).shown == [["other"], ["other"]])
    }

    @Test func theDesktopsEventsCarryTheSeedNamesTheyStandFor() throws {
        // seed semantics §2.7: the launch is app:didfinishlaunching (the upgrade one after an
        // upgrade), a return to the application is app:activate.
        let feed = try schedule(
            """
            {"id": "launch", "title": "L", "events": {"app:didfinishlaunching": "ON=1|OFF=4"}},
            {"id": "upgrade", "title": "U", "events": {"app:didfinishlaunchingafterupgrade": "ON=1"}},
            {"id": "activate", "title": "A", "events": {"app:activate": "ON=1"}}
            """)
        #expect(
            firings(feed, "session:start", count: 6).shown == [["launch"], [], [], [], [], ["launch"]])
        #expect(firings(feed, "session:resume", count: 1).shown == [["activate"]])
        #expect(firings(feed, "Session:Unlock", count: 1).shown == [["activate"]])
        let upgraded = EventFiring(
            event: "session:start", schedule: feed, progress: [:], now: instant("2026-06-01T12:00:00Z"),
            upgraded: true)
        #expect(upgraded.entries.map(\.id) == ["upgrade"])
    }

    @Test func progressSurvivesAReloadAndStartsAgainWhenThePatternChanges() throws {
        let before = try schedule(#"{"id": "a", "title": "A", "events": {"e": "OFF=1|ON=1"}}"#)
        let first = firings(before, "e", count: 1)
        #expect(first.shown == [[]])
        #expect(firings(before, "e", count: 1, progress: first.progress).shown == [["a"]])
        let changed = try schedule(#"{"id": "a", "title": "A", "events": {"e": "ON=1|OFF=1"}}"#)
        #expect(firings(changed, "e", count: 1, progress: first.progress).shown == [["a"]])
    }

    @Test func everyMatchingRuleStepsAndAnyOnStepShowsTheEntryOnce() throws {
        let feed = try schedule(
            #"{"id": "a", "title": "A", "events": {"session:start": "ON=1|OFF=1", "app:didfinishlaunching": "OFF=1|ON=1"}}"#
        )
        #expect(firings(feed, "session:start", count: 3).shown == [["a"], ["a"], ["a"]])
    }

    @Test func anExpiredEntryTakesNoPartAndKeepsItsProgress() throws {
        let feed = try schedule(
            #"{"id": "a", "title": "A", "expires": "2026-05-01T00:00:00Z", "events": {"e": "ON=1"}}"#)
        let fired = firings(feed, "e", count: 2)
        #expect(fired.shown == [[], []])
        #expect(fired.progress.isEmpty)
    }

    @Test func aRuleWithdrawnAndBackStartsItsPatternAgain() throws {
        let with = try schedule(#"{"id": "a", "title": "A", "events": {"deploy": "ON=1|OFF=1"}}"#)
        let without = try schedule(#"{"id": "b", "title": "B"}"#)
        let first = firings(with, "deploy", count: 1)
        #expect(first.shown == [["a"]])
        let gone = firings(without, "deploy", count: 1, progress: first.progress)
        #expect(gone.progress.isEmpty, "the feed no longer has the rule")
        #expect(firings(with, "deploy", count: 1, progress: gone.progress).shown == [["a"]])
    }
}
