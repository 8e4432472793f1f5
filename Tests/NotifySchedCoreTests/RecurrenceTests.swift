import NotifySchedCore
import Testing

@Suite struct RecurrenceTests {
    private func floating(_ text: String, in zoneName: String? = nil) -> FireTime {
        guard case .floating(let civil)? = Timestamp.parse(text) else { preconditionFailure("\(text) is not floating") }
        return FireTime(.floating(civil), zone: zoneName.map(zone))
    }

    private func next(_ trigger: Trigger, after now: String, _ count: Int, userZone: ZoneRules = .utc) -> [Instant] {
        trigger.occurrences(onOrAfter: instant(now), limit: count, userZone: userZone)
    }

    @Test(arguments: [
        ("Europe/Berlin", "2026-03-29T02:30:00", "2026-03-29T03:30:00+02:00"),
        ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T03:30:00-04:00"),
        ("Australia/Lord_Howe", "2026-10-04T02:15:00", "2026-10-04T02:45:00+11:00"),
    ])
    func springForwardGapShiftsForwardByGapLength(zoneName: String, local: String, expected: String) {
        #expect(floating(local, in: zoneName).instant(userZone: .utc) == instant(expected))
    }

    @Test(arguments: [
        ("Europe/Berlin", "2026-10-25T02:30:00", "2026-10-25T02:30:00+02:00"),
        ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T01:30:00-04:00"),
        ("Australia/Lord_Howe", "2026-04-05T01:45:00", "2026-04-05T01:45:00+11:00"),
    ])
    func fallBackOverlapFiresAtTheFirstOfTheTwoTimes(zoneName: String, local: String, expected: String) {
        #expect(floating(local, in: zoneName).instant(userZone: .utc) == instant(expected))
    }

    @Test func dailyRepeatKeepsLocalTimeAcrossDST() {
        let trigger = Trigger.repeating(
            first: floating("2026-03-27T09:00:00", in: "Europe/Berlin"), every: .day, bounds: .unbounded)
        #expect(
            next(trigger, after: "2026-03-27T00:00:00Z", 4) == [
                instant("2026-03-27T09:00:00+01:00"), instant("2026-03-28T09:00:00+01:00"),
                instant("2026-03-29T09:00:00+02:00"), instant("2026-03-30T09:00:00+02:00"),
            ])
    }

    @Test func dailyRepeatInsideTheGapShiftsOnlyOnTheGapDay() {
        let trigger = Trigger.repeating(
            first: floating("2026-03-28T02:30:00", in: "Europe/Berlin"), every: .day, bounds: .unbounded)
        #expect(
            next(trigger, after: "2026-03-28T00:00:00Z", 3) == [
                instant("2026-03-28T02:30:00+01:00"), instant("2026-03-29T03:30:00+02:00"),
                instant("2026-03-30T02:30:00+02:00"),
            ])
    }

    @Test func weeklyRepeatFromAnAbsoluteTimeKeepsTheWallClockOfItsZone() {
        let first = FireTime(.absolute(instant("2026-10-19T08:00:00Z")), zone: zone("Europe/London"))
        let trigger = Trigger.repeating(first: first, every: .week, bounds: .unbounded)
        #expect(
            next(trigger, after: "2026-10-19T00:00:00Z", 2) == [
                instant("2026-10-19T09:00:00+01:00"), instant("2026-10-26T09:00:00+00:00"),
            ])
    }

    @Test func hourlyRepeatIsAFixedHourAcrossDST() {
        let trigger = Trigger.repeating(
            first: floating("2026-10-25T01:30:00", in: "Europe/Berlin"), every: .hour, bounds: .unbounded)
        #expect(
            next(trigger, after: "2026-10-24T00:00:00Z", 3) == [
                instant("2026-10-24T23:30:00Z"), instant("2026-10-25T00:30:00Z"), instant("2026-10-25T01:30:00Z"),
            ])
    }

    @Test func monthlyRepeatOnThe31stClampsLikeFoundationCalendar() {
        let trigger = Trigger.repeating(first: floating("2026-01-31T10:00:00"), every: .month, bounds: .unbounded)
        #expect(
            next(trigger, after: "2026-01-01T00:00:00Z", 4) == [
                instant("2026-01-31T10:00:00Z"), instant("2026-02-28T10:00:00Z"), instant("2026-03-31T10:00:00Z"),
                instant("2026-04-30T10:00:00Z"),
            ])
    }

    @Test func yearlyRepeatOnLeapDayClampsToFebruary28() {
        let trigger = Trigger.repeating(first: floating("2028-02-29T12:00:00"), every: .year, bounds: .unbounded)
        #expect(
            next(trigger, after: "2029-01-01T00:00:00Z", 4) == [
                instant("2029-02-28T12:00:00Z"), instant("2030-02-28T12:00:00Z"), instant("2031-02-28T12:00:00Z"),
                instant("2032-02-29T12:00:00Z"),
            ])
    }

    @Test func countAndUntilBoundTheRepeat() {
        let counted = Trigger.repeating(
            first: floating("2026-01-01T08:00:00"), every: .day, bounds: RecurrenceBounds(count: 3))
        #expect(
            next(counted, after: "2026-01-02T00:00:00Z", 10) == [
                instant("2026-01-02T08:00:00Z"), instant("2026-01-03T08:00:00Z"),
            ])
        let until = Trigger.repeating(
            first: floating("2026-01-01T08:00:00"), every: .day,
            bounds: RecurrenceBounds(until: instant("2026-01-03T08:00:00Z")))
        #expect(
            next(until, after: "2026-01-01T09:00:00Z", 10) == [
                instant("2026-01-02T08:00:00Z"), instant("2026-01-03T08:00:00Z"),
            ])
        #expect(
            until.lastOccurrence(before: instant("2027-01-01T00:00:00Z"), userZone: .utc)
                == instant("2026-01-03T08:00:00Z"))
    }

    @Test func repeatFarInThePastFindsTheNextOccurrenceQuickly() {
        let trigger = Trigger.repeating(first: floating("1990-01-01T00:00:00"), every: .minute, bounds: .unbounded)
        #expect(next(trigger, after: "2026-06-01T12:00:30Z", 1) == [instant("2026-06-01T12:01:00Z")])
        #expect(
            trigger.lastOccurrence(before: instant("2026-06-01T12:00:30Z"), userZone: .utc)
                == instant("2026-06-01T12:00:00Z"))
    }

    @Test func absoluteTimeStaysPutWhenTheUserZoneChanges() {
        let trigger = Trigger.once(FireTime(.absolute(instant("2030-03-10T12:00:00Z"))))
        #expect(
            next(trigger, after: "2030-01-01T00:00:00Z", 1, userZone: zone("America/New_York")) == [
                instant("2030-03-10T12:00:00Z")
            ])
        #expect(
            next(trigger, after: "2030-01-01T00:00:00Z", 1, userZone: zone("Europe/Berlin")) == [
                instant("2030-03-10T12:00:00Z")
            ])
    }

    @Test func floatingTimeFollowsTheUserZone() {
        let trigger = Trigger.once(floating("2030-03-10T12:00:00"))
        #expect(
            next(trigger, after: "2030-01-01T00:00:00Z", 1, userZone: zone("America/New_York")) == [
                instant("2030-03-10T12:00:00-04:00")
            ])
        #expect(
            next(trigger, after: "2030-01-01T00:00:00Z", 1, userZone: zone("Europe/Berlin")) == [
                instant("2030-03-10T12:00:00+01:00")
            ])
    }

    @Test func pastOneShotHasNoOccurrenceButIsCaughtUpWithinItsLateness() throws {
        let result = parse(nativeFeed(#""fireDate": "2026-01-01T10:00:00Z""#))
        let entry = try #require(result.schedule?.entries.first)
        let now = instant("2026-01-01T12:00:00Z")
        #expect(entry.trigger.occurrences(onOrAfter: now, limit: 1, userZone: .utc) == [])
        #expect(entry.trigger.lastOccurrence(before: now, userZone: .utc) == instant("2026-01-01T10:00:00Z"))
    }

    @Test func calendarEntryIsReadInTheEntryZoneAndCountsFromFireDate() throws {
        let result = parse(
            nativeFeed(
                #""calendar": "*-*-* 09:00:00", "timeZone": "Asia/Kolkata", "fireDate": "2026-01-01T00:00:00Z", "count": 3"#
            ))
        let entry = try #require(result.schedule?.entries.first)
        #expect(
            entry.trigger.occurrences(onOrAfter: instant("2026-01-02T00:00:00Z"), limit: 5, userZone: .utc) == [
                instant("2026-01-02T09:00:00+05:30"), instant("2026-01-03T09:00:00+05:30"),
            ])
    }

    @Test func calendarCountWithoutFireDateIsAnError() {
        #expect(
            errors(parse(nativeFeed(#""calendar": "daily", "count": 3"#))) == [
                "line 1: notifications[0].count: `count` on a `calendar` entry needs `fireDate` to count from"
            ])
    }

    @Test func badCalendarExpressionIsReportedWithItsText() {
        let messages = errors(parse(nativeFeed(#""calendar": "Mon..Funday 9:00""#)))
        #expect(messages.count == 1)
        #expect(
            messages.first?.hasPrefix(
                "line 1: notifications[0].calendar: `calendar`: calendar expression \"Mon..Funday 9:00\": ") == true)
    }
}
