import NotifySchedCore
import Testing

@Suite struct OccurrencePlanTests {
    private func entry(_ members: String) throws -> ScheduleEntry {
        let result = parse(nativeFeed(members))
        #expect(errors(result) == [])
        return try #require(result.schedule?.entries.first)
    }

    private func plan(_ entry: ScheduleEntry, lastRecorded: String?, now: String) -> OccurrencePlan {
        OccurrencePlan(for: entry, lastRecorded: lastRecorded.map(instant), now: instant(now), userZone: .utc)
    }

    @Test func dueOccurrenceIsDeliveredAndTheNextArmed() throws {
        let hourly = try entry(#""fireDate": "2026-01-01T00:00:00Z", "repeatInterval": "hour""#)
        #expect(
            plan(hourly, lastRecorded: "2026-01-01T09:00:00Z", now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-01T10:00:00Z"), next: instant("2026-01-01T11:00:00Z")))
    }

    @Test func downtimeOfAnHourADayOrAMonthFoldsIntoOneCatchUp() throws {
        let daily = try entry(#""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "day""#)
        let last = "2026-01-01T09:00:00Z"
        #expect(
            plan(daily, lastRecorded: last, now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(next: instant("2026-01-02T09:00:00Z")))
        #expect(
            plan(daily, lastRecorded: last, now: "2026-01-02T10:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-02T09:00:00Z"), next: instant("2026-01-03T09:00:00Z")))
        #expect(
            plan(daily, lastRecorded: last, now: "2026-01-31T10:00:00Z")
                == OccurrencePlan(
                    deliver: instant("2026-01-31T09:00:00Z"), foldsEarlier: true, next: instant("2026-02-01T09:00:00Z"))
        )
    }

    @Test func occurrenceTooLateIsRecordedAsMissedNotShown() throws {
        let daily = try entry(#""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "day", "maxLateness": "1h""#)
        #expect(
            plan(daily, lastRecorded: "2026-01-01T09:00:00Z", now: "2026-01-31T12:00:00Z")
                == OccurrencePlan(missed: instant("2026-01-31T09:00:00Z"), next: instant("2026-02-01T09:00:00Z")))
    }

    @Test func backwardClockStepNeverRefiresWhatWasRecorded() throws {
        let hourly = try entry(#""fireDate": "2026-01-01T00:00:00Z", "repeatInterval": "hour""#)
        #expect(
            plan(hourly, lastRecorded: "2026-01-01T10:00:00Z", now: "2026-01-01T08:30:00Z")
                == OccurrencePlan(next: instant("2026-01-01T11:00:00Z")))
    }

    @Test func newRepeatingEntryStartsAtItsNextOccurrence() throws {
        let daily = try entry(#""fireDate": "2020-01-01T09:00:00Z", "repeatInterval": "day""#)
        #expect(
            plan(daily, lastRecorded: nil, now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(next: instant("2026-01-02T09:00:00Z")))
    }

    @Test func pastOneShotIsDeliveredAtOnceWithinItsLatenessOnly() throws {
        let once = try entry(#""fireDate": "2026-01-01T09:00:00Z""#)
        #expect(
            plan(once, lastRecorded: nil, now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-01T09:00:00Z")))
        #expect(
            plan(once, lastRecorded: nil, now: "2026-01-03T10:00:00Z")
                == OccurrencePlan(missed: instant("2026-01-01T09:00:00Z")))
        #expect(plan(once, lastRecorded: "2026-01-01T09:00:00Z", now: "2026-01-01T10:00:00Z") == OccurrencePlan())
    }

    @Test func immediateEntryFiresOnceEver() throws {
        let now = try entry("\"body\": \"b\"")
        #expect(
            plan(now, lastRecorded: nil, now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-01T10:00:00Z")))
        #expect(plan(now, lastRecorded: "2026-01-01T10:00:00Z", now: "2026-01-02T10:00:00Z") == OccurrencePlan())
    }

    @Test func expiredEntryIsNeitherDeliveredNorArmed() throws {
        let daily = try entry(
            #""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "day", "expires": "2026-01-02T00:00:00Z""#)
        #expect(plan(daily, lastRecorded: "2026-01-01T09:00:00Z", now: "2026-01-02T09:30:00Z") == OccurrencePlan())
    }
}
