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

    /// A start follows each recurring entry with its position in the schedule, and a restart
    /// on what it stored owes the occurrences that fell due meanwhile: the daily entry, due an
    /// hour into the downtime, is delivered at the restart; the one-shot entry is not followed.
    @Test func aRestartOnTheEntriesAStartFollowedOwesWhatFellDueMeanwhile() throws {
        let parsed = parse(
            #"""
            {"notifications": [
              {"id": "once", "title": "Once", "fireDate": "2026-06-02T09:00:00Z"},
              {"id": "daily", "title": "Daily", "fireDate": "2026-06-01T13:00:00Z", "repeatInterval": "day",
               "maxLateness": "1d"},
              {"id": "monday", "title": "Monday", "calendar": "Mon *-*-* 09:00 UTC"}
            ]}
            """#)
        let schedule = try #require(parsed.schedule)
        var first = OccurrencePlanner(sources: [.init(location: "feed")], now: now, userZone: .utc)
        let effects = first.load(schedule, source: 0, settled: [:], at: now).effects
        let followed = [FollowedEntry(id: "daily", position: 1), FollowedEntry(id: "monday", position: 2)]
        #expect(effects == [.follow(source: "feed", entries: followed, since: now)])

        var stored = StoredSettledInstants()
        stored.addFollowed(followed, since: now)
        let restart = now + .hours(2)
        var second = OccurrencePlanner(sources: [.init(location: "feed")], now: restart, userZone: .utc)
        #expect(second.load(schedule, source: 0, settled: stored, at: restart).effects.isEmpty, "nothing followed anew")
        guard case .show(let due)? = second.timerExpired(at: restart).first else {
            Issue.record("the daily occurrence of 13:00, in the downtime, is owed")
            return
        }
        #expect(due.entry.id == "daily" && due.occurrence == instant("2026-06-01T13:00:00Z"))
    }

    @Test func aPopupNothingOpensIsPassedOverAndAnyOtherFailureTriedAgain() {
        #expect(ShowResult(.success("feed#a")) == .shown)
        #expect(ShowResult(.failure(CoreError(.cannotOpen, "nothing opens x-app:"))) == .passedOver)
        #expect(ShowResult(.failure(CoreError(.cannotShow, "no notification server answers"))) == .failed)
    }
}
