import NotifySchedCore
import Testing

@Suite struct OccurrencePlannerTests {
    private let now = instant("2026-06-01T12:00:00Z")

    @Test func aRemindedEventEntryComesBackAfterTheRemindPeriod() throws {
        // An event-driven entry has no time of its own; "Remind Me Later" gives it one.
        let parsed = parse(#"{"notifications": [{"id": "deployed", "title": "A", "events": {"deploy": "ON=1"}}]}"#)
        let schedule = try #require(parsed.schedule)
        var planner = OccurrencePlanner(
            sources: [.init(location: "feed", remindPeriod: .hours(1))], now: now, userZone: .utc)
        #expect(planner.load(schedule, source: 0, settled: [:], at: now).effects.isEmpty)
        #expect(planner.nextDeadline == nil, "nothing of it is timed")
        planner.answered(.reminded, entryID: "deployed", source: "feed", occurrence: now, at: now + .minutes(5))
        // The wheel wakes at its slots' bounds on the way: follow its deadlines until it shows.
        var effects: [PlannerEffect] = []
        var due = now
        for _ in 0..<16 where effects.isEmpty {
            let deadline = planner.nextDeadline
            due = try #require(deadline)
            effects = planner.timerExpired(at: due)
        }
        #expect(due == now + .minutes(65))
        guard case .show(let shown)? = effects.first else {
            Issue.record("the reminder is shown: \(effects)")
            return
        }
        #expect(shown.entry.id == "deployed" && shown.occurrence == now)
        planner.shown(shown, .shown, at: due)
        #expect(planner.nextDeadline == nil, "shown once")
    }
}
