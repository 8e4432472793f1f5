import NotifySchedCore
import Testing

@Suite struct OccurrencePlanTests {
    private func entry(_ members: String) throws -> ScheduleEntry {
        let result = parse(nativeFeed(members))
        #expect(errors(result) == [])
        return try #require(result.schedule?.entries.first)
    }

    private func plan(
        _ entry: ScheduleEntry, settled: String?, now: String, quietHours: QuietHours? = nil,
        applicationVersion: String? = nil, watchedSince: String? = nil
    ) -> OccurrencePlan {
        OccurrencePlan(
            for: entry, settledThrough: settled.map(instant), now: instant(now),
            context: PlanningContext(
                userZone: .utc, quietHours: quietHours, applicationVersion: applicationVersion,
                watchedSince: watchedSince.map(instant)))
    }

    @Test func dueOccurrenceIsDeliveredAndTheNextArmed() throws {
        let hourly = try entry(#""fireDate": "2026-01-01T00:00:00Z", "repeatInterval": "hour""#)
        #expect(
            plan(hourly, settled: "2026-01-01T09:00:00Z", now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-01T10:00:00Z"), next: instant("2026-01-01T11:00:00Z")))
    }

    /// Downtime of an hour, a day and a month, each with a lateness allowance that the latest
    /// missed occurrence meets (one catch-up, folding the others) and one it exceeds (missed).
    @Test(arguments: [
        ("minute", "2026-01-01T10:00:30Z", "1m", "2026-01-01T10:00:00Z", true),
        ("minute", "2026-01-01T10:00:30Z", "10s", "2026-01-01T10:00:00Z", false),
        ("hour", "2026-01-02T09:20:00Z", "30m", "2026-01-02T09:00:00Z", true),
        ("hour", "2026-01-02T09:20:00Z", "15m", "2026-01-02T09:00:00Z", false),
        ("day", "2026-01-31T10:00:00Z", "24h", "2026-01-31T09:00:00Z", true),
        ("day", "2026-01-31T10:00:00Z", "30m", "2026-01-31T09:00:00Z", false),
    ])
    func downtimeOfAnHourADayOrAMonthFoldsIntoOneCatchUpWithinItsLateness(
        every interval: String, now: String, maxLateness: String, latest: String, caughtUp: Bool
    ) throws {
        let repeating = try entry(
            #""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "\#(interval)", "maxLateness": "\#(maxLateness)""#)
        let planned = plan(repeating, settled: "2026-01-01T09:00:00Z", now: now)
        if caughtUp {
            #expect(planned.deliver == instant(latest) && planned.foldsEarlier && planned.missed == nil)
        } else {
            #expect(planned.deliver == nil && planned.missed == instant(latest))
        }
        #expect(planned.next.map { $0 > instant(now) } == true, "the next occurrence is armed either way")
    }

    @Test func anOccurrenceHeldByQuietHoursIsLateOnlyFromTheirEnd() throws {
        let quiet = try #require(QuietHours(parsing: "22:00-07:00"))
        let nightly = try entry(#""fireDate": "2026-01-01T23:00:00Z", "repeatInterval": "day", "maxLateness": "10m""#)
        let last = "2026-01-01T23:00:00Z"
        #expect(
            plan(nightly, settled: last, now: "2026-01-03T07:00:00Z", quietHours: quiet)
                == OccurrencePlan(deliver: instant("2026-01-02T23:00:00Z"), next: instant("2026-01-03T23:00:00Z")),
            "at the end of quiet hours the occurrence they held is shown")
        #expect(
            plan(nightly, settled: last, now: "2026-01-03T07:20:00Z", quietHours: quiet)
                == OccurrencePlan(missed: instant("2026-01-02T23:00:00Z"), next: instant("2026-01-03T23:00:00Z")),
            "ten minutes after they ended it is late")
        #expect(
            plan(nightly, settled: last, now: "2026-01-03T07:00:00Z")
                == OccurrencePlan(missed: instant("2026-01-02T23:00:00Z"), next: instant("2026-01-03T23:00:00Z")),
            "without quiet hours it was missed")
        let critical = try entry(
            #""fireDate": "2026-01-01T23:00:00Z", "repeatInterval": "day", "maxLateness": "10m", "urgency": "critical""#
        )
        #expect(
            plan(critical, settled: last, now: "2026-01-03T07:00:00Z", quietHours: quiet).missed
                == instant("2026-01-02T23:00:00Z"), "quiet hours hold no critical popup, so none waited")
    }

    @Test func occurrenceTooLateIsRecordedAsMissedNotShown() throws {
        let daily = try entry(#""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "day", "maxLateness": "1h""#)
        #expect(
            plan(daily, settled: "2026-01-01T09:00:00Z", now: "2026-01-31T12:00:00Z")
                == OccurrencePlan(missed: instant("2026-01-31T09:00:00Z"), next: instant("2026-02-01T09:00:00Z")))
    }

    @Test func backwardClockStepNeverRefiresWhatWasRecorded() throws {
        let hourly = try entry(#""fireDate": "2026-01-01T00:00:00Z", "repeatInterval": "hour""#)
        #expect(
            plan(hourly, settled: "2026-01-01T10:00:00Z", now: "2026-01-01T08:30:00Z")
                == OccurrencePlan(next: instant("2026-01-01T11:00:00Z")))
    }

    @Test func newRepeatingEntryIsFollowedFromNowAndStartsAtItsNextOccurrence() throws {
        let daily = try entry(#""fireDate": "2020-01-01T09:00:00Z", "repeatInterval": "day""#)
        #expect(
            plan(daily, settled: nil, now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(
                    next: instant("2026-01-02T09:00:00Z"), followsFrom: instant("2026-01-01T10:00:00Z")))
    }

    /// The first occurrence of a followed recurring entry is owed: delivered when due, and caught
    /// up after a restart within its lateness, though the ledger has no record of the entry yet.
    @Test(arguments: [
        (#""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "minute""#, "2026-01-01T10:00:00Z"),
        (#""calendar": "*:*:0/10""#, "2026-01-01T09:59:50Z"),
        (#""calendar": "daily", "timeZone": "Europe/Berlin""#, "2026-01-01T23:00:00Z"),
    ])
    func followedRecurringEntryDeliversItsFirstOccurrence(trigger: String, followedAt: String) throws {
        let recurring = try entry(trigger)
        let first = try #require(plan(recurring, settled: nil, now: followedAt).next)
        #expect(
            plan(recurring, settled: followedAt, now: first.rfc3339, watchedSince: followedAt).deliver == first,
            "due while the daemon watched")
        #expect(
            plan(recurring, settled: followedAt, now: (first + .minutes(5)).rfc3339).deliver != nil,
            "caught up by a daemon that restarted after it")
    }

    @Test func zeroLatenessOccurrenceDueWhileWatchedIsOnTimeButMissedAfterADowntime() throws {
        let zbim = try entry(#""fireDate": "2026-01-01T09:00:00Z", "maxLateness": "0s""#)
        #expect(
            plan(zbim, settled: nil, now: "2026-01-01T09:00:00.000300Z", watchedSince: "2026-01-01T08:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-01T09:00:00Z")),
            "a timer that wakes 300 µs after the due time is not late")
        #expect(
            plan(zbim, settled: nil, now: "2026-01-01T09:00:01Z", watchedSince: "2026-01-01T09:00:01Z")
                == OccurrencePlan(missed: instant("2026-01-01T09:00:00Z")),
            "a daemon that started a second after it is")
    }

    @Test func entryOutsideTheApplicationVersionIsNeitherDeliveredNorArmed() throws {
        let daily = try entry(
            #""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "day", "minVersion": "2.0", "maxVersion": "2.9""#)
        #expect(plan(daily, settled: nil, now: "2026-01-05T10:00:00Z", applicationVersion: "1.9") == OccurrencePlan())
        #expect(plan(daily, settled: nil, now: "2026-01-05T10:00:00Z", applicationVersion: "2.10") == OccurrencePlan())
        #expect(plan(daily, settled: nil, now: "2026-01-05T10:00:00Z", applicationVersion: "2.2").next != nil)
        let now = try entry(#""body": "b", "minVersion": "2.0""#)
        #expect(plan(now, settled: nil, now: "2026-01-05T10:00:00Z", applicationVersion: "1.0") == OccurrencePlan())
    }

    @Test func pastOneShotIsDeliveredAtOnceWithinItsLatenessOnly() throws {
        let once = try entry(#""fireDate": "2026-01-01T09:00:00Z""#)
        #expect(
            plan(once, settled: nil, now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-01T09:00:00Z")))
        #expect(
            plan(once, settled: nil, now: "2026-01-03T10:00:00Z")
                == OccurrencePlan(missed: instant("2026-01-01T09:00:00Z")))
        #expect(plan(once, settled: "2026-01-01T09:00:00Z", now: "2026-01-01T10:00:00Z") == OccurrencePlan())
    }

    @Test func immediateEntryFiresOnceEver() throws {
        let now = try entry("\"body\": \"b\"")
        #expect(
            plan(now, settled: nil, now: "2026-01-01T10:00:00Z")
                == OccurrencePlan(deliver: instant("2026-01-01T10:00:00Z")))
        #expect(plan(now, settled: "2026-01-01T10:00:00Z", now: "2026-01-02T10:00:00Z") == OccurrencePlan())
    }

    @Test func expiredImmediateEntryIsNotDelivered() throws {
        let stale = try entry(#""body": "b", "expires": "2020-01-01T00:00:00Z""#)
        #expect(plan(stale, settled: nil, now: "2026-01-01T10:00:00Z") == OccurrencePlan())
    }

    @Test func expiredEntryIsNeitherDeliveredNorArmed() throws {
        let daily = try entry(
            #""fireDate": "2026-01-01T09:00:00Z", "repeatInterval": "day", "expires": "2026-01-02T00:00:00Z""#)
        #expect(plan(daily, settled: "2026-01-01T09:00:00Z", now: "2026-01-02T09:30:00Z") == OccurrencePlan())
    }
}
