import NotifySchedCore
import NotifySchedTesting
import Testing

/// The searches a catch-up makes find the same instants as a walk over every occurrence, at a
/// cost that does not grow with how many occurrences there are (issue 20).
@Suite struct BoundedOccurrenceSearchTests {
    /// Expressions from sub-second to yearly, some with long gaps between bursts; the dense ones
    /// (true) have too many elapses in a month to walk in a test.
    static let expressions: [(String, dense: Bool)] = [
        ("*:*:*", true), ("*:*:0/0.25", true), ("*:*:0/7", true), ("*-*-01..08 *:*:*", true),
        ("*-*-01 00:*:*", true), ("Sat,Sun *:0/5", false), ("*:0/15", false), ("*:0/20", false), ("hourly", false),
        ("daily", false), ("weekly", false), ("Mon..Fri 09:00", false), ("*-02-29 12:00", false),
        ("*-*~01 18:00", false), ("*-*-* 02:30", false), ("*-03,10-* 01..03:00:00", false),
        ("*-*-* 00/6:00:00", false), ("Tue *-*-1..7 10:00", false), ("*-12-31 23:59:59", false),
        ("quarterly", false),
    ]
    static let zones = ["UTC", "Europe/Berlin", "Europe/Dublin", "Australia/Lord_Howe", "America/New_York"]
    static let seed: UInt64 = 0x1A57

    /// The last elapse before `now` in the 31 days before it, by walking every elapse forward.
    private static func walkedLastElapse(_ expression: CalendarExpression, before now: Instant, in zone: ZoneRules)
        -> Instant?
    {
        var last: Instant?
        var cursor = (now - .days(31)).previousMicrosecond
        while let next = expression.nextElapse(after: cursor, in: zone), next < now {
            last = next
            cursor = next
        }
        return last
    }

    @Test(.computeThreads) func lastCalendarOccurrenceIsTheLastElapseBeforeNow() throws {
        var random = SplitMix64(seed: Self.seed)
        for index in 0..<400 {
            let (text, dense) = Self.expressions[index % Self.expressions.count]
            let zoneName = Self.zones.randomElement(using: &random)!
            let rules = zone(zoneName)
            let expression = try CalendarExpression.parse(text, zones: systemZones, localZone: rules)
            let now =
                Instant(secondsSinceEpoch: Int64.random(in: 1_577_836_800...2_051_222_400, using: &random))
                + TimeSpan(microseconds: Int64.random(in: 0..<1_000_000, using: &random))
            let found = Trigger.calendar(expression, zone: rules, notBefore: nil, bounds: .unbounded)
                .lastOccurrence(before: now, userZone: .utc)
            let place = "seed \(Self.seed) case \(index): \(text) in \(zoneName) before \(now)"
            if dense {
                // An elapse, before now, with no elapse between it and now.
                let last = try #require(found, "\(place): none found")
                #expect(last < now, "\(place)")
                #expect(
                    expression.nextElapse(after: last - .seconds(1), in: rules).map { $0 <= last } == true, "\(place)")
                #expect(expression.nextElapse(after: last, in: rules).map { $0 >= now } ?? true, "\(place)")
            } else {
                #expect(found == Self.walkedLastElapse(expression, before: now, in: rules), "\(place)")
            }
        }
    }

    /// Around the changes of 2026, where the search's DST handling is most delicate. There
    /// systemd's next elapse depends on its base: a walk through a fall-back's repeated hour
    /// skips the second instance of each time, and Dublin's negative DST makes a walk jump over
    /// times that exist, which a search from a nearer base finds. So the answer is checked to
    /// be an elapse with none between it and now, not to be the walk's.
    @Test(arguments: [
        ("Europe/Dublin", "2026-03-29T01:00:00Z"), ("Europe/Dublin", "2026-10-25T01:00:00Z"),
        ("Australia/Lord_Howe", "2026-10-03T15:30:00Z"), ("Australia/Lord_Howe", "2026-04-04T15:00:00Z"),
        ("America/New_York", "2026-03-08T07:00:00Z"), ("America/New_York", "2026-11-01T06:00:00Z"),
    ])
    func lastCalendarOccurrenceAroundADSTChangeIsAnElapseWithNoneBetweenItAndNow(zoneName: String, change: String)
        throws
    {
        let rules = zone(zoneName)
        for text in ["*:0/15", "*:0/20", "hourly", "daily", "*-*-* 01..03:30:00", "*:*:0/7"] {
            let expression = try CalendarExpression.parse(text, zones: systemZones, localZone: rules)
            let trigger = Trigger.calendar(expression, zone: rules, notBefore: nil, bounds: .unbounded)
            for minutes: Int64 in [-61, -1, 0, 1, 29, 31, 59, 61, 119, 181] {
                let now = instant(change) + .minutes(minutes) + .seconds(3)
                let place = "\(text) in \(zoneName) before \(now)"
                let found = try #require(trigger.lastOccurrence(before: now, userZone: .utc), "\(place)")
                #expect(found < now, "\(place)")
                #expect(expression.nextElapse(after: found - .seconds(1), in: rules) == found, "\(place)")
                #expect(expression.nextElapse(after: found, in: rules).map { $0 >= now } ?? true, "\(place)")
            }
        }
    }

    @Test func calendarEntryWithUntilEndsItsLastOccurrenceThere() throws {
        let expression = try CalendarExpression.parse("*:*:0/0.25", zones: systemZones, localZone: .utc)
        let trigger = Trigger.calendar(
            expression, zone: .utc, notBefore: nil, bounds: RecurrenceBounds(until: instant("2026-11-20T12:00:00.6Z")))
        #expect(
            trigger.lastOccurrence(before: instant("2026-11-26T00:00:00Z"), userZone: .utc)
                == instant("2026-11-20T12:00:00.5Z"))
    }

    /// What a plan needs of the occurrences after what is settled, against a walk over every
    /// one of them: settled before now (a catch-up or a timer on time) and at or after it (a
    /// recurring entry followed from now, or a clock stepped back).
    @Test func owedOccurrencesAreThoseAWalkAfterWhatIsSettledFinds() throws {
        var random = SplitMix64(seed: Self.seed)
        let sparse = Self.expressions.filter { !$0.dense }.map(\.0)
        for index in 0..<600 {
            let zoneName = Self.zones.randomElement(using: &random)!
            let rules = zone(zoneName)
            let now =
                Instant(secondsSinceEpoch: Int64.random(in: 1_577_836_800...2_051_222_400, using: &random))
                + TimeSpan(microseconds: Int64.random(in: 0..<1_000_000, using: &random))
            let trigger: Trigger
            let place: String
            if index.isMultiple(of: 2) {
                let interval = [RepeatInterval.hour, .day, .week, .month].randomElement(using: &random)!
                let first = now + .hours(Int64.random(in: -24 * 400...24 * 3, using: &random))
                trigger = .repeating(
                    first: FireTime(.absolute(first), zone: rules), every: interval, bounds: .unbounded)
                place = "every \(interval) from \(first)"
            } else {
                let text = sparse.randomElement(using: &random)!
                let expression = try CalendarExpression.parse(text, zones: systemZones, localZone: rules)
                trigger = .calendar(expression, zone: rules, notBefore: nil, bounds: .unbounded)
                place = text
            }
            let settled = now + .minutes(Int64.random(in: -60 * 24 * 3...60 * 24 * 2, using: &random))
            var memo = ElapseMemo()
            let owed = trigger.owedOccurrences(atOrBefore: now, after: settled, userZone: .utc, memo: &memo)
            var walked: [Instant] = []
            var cursor = settled
            while let next = trigger.occurrences(onOrAfter: cursor.nextMicrosecond, limit: 1, userZone: .utc).first {
                walked.append(next)
                cursor = next
                if next > now { break }
            }
            let due = walked.filter { $0 <= now }
            let context = "seed \(Self.seed) case \(index): \(place) in \(zoneName), settled \(settled), now \(now)"
            #expect(owed.latest == due.last, "\(context)")
            #expect(owed.foldsEarlier == (due.count > 1), "\(context)")
            #expect(owed.next == walked.first { $0 > now }, "\(context)")
        }
    }

    @Test func catchUpAfterMoreThanAMonthDownFindsTheLatestOccurrence() throws {
        let expression = try CalendarExpression.parse("quarterly", zones: systemZones, localZone: .utc)
        let trigger = Trigger.calendar(expression, zone: .utc, notBefore: nil, bounds: .unbounded)
        var memo = ElapseMemo()
        let owed = trigger.owedOccurrences(
            atOrBefore: instant("2026-11-26T00:00:00Z"), after: instant("2026-02-01T00:00:00Z"), userZone: .utc,
            memo: &memo)
        #expect(owed.latest == instant("2026-10-01T00:00:00Z"), "not the second owed, 2026-07-01")
        #expect(owed.foldsEarlier)
    }

    @Test func burstBeforeALongGapIsFoundWithoutWalkingIt() throws {
        let expression = try CalendarExpression.parse("*-*-01..08 *:*:*", zones: systemZones, localZone: .utc)
        let trigger = Trigger.calendar(expression, zone: .utc, notBefore: nil, bounds: .unbounded)
        #expect(
            trigger.lastOccurrence(before: instant("2026-11-20T12:00:00Z"), userZone: .utc)
                == instant("2026-11-08T23:59:59Z"))
    }

    @Test func calendarEntryBeforeItsFireDateHasNoLastOccurrence() throws {
        let expression = try CalendarExpression.parse("*:*:0/0.25", zones: systemZones, localZone: .utc)
        let trigger = Trigger.calendar(
            expression, zone: .utc, notBefore: FireTime(.absolute(instant("2026-11-20T12:00:00Z"))), bounds: .unbounded)
        #expect(trigger.lastOccurrence(before: instant("2026-11-20T12:00:00Z"), userZone: .utc) == nil)
        #expect(
            trigger.lastOccurrence(before: instant("2026-11-20T12:00:01Z"), userZone: .utc)
                == instant("2026-11-20T12:00:00.75Z"))
    }

    @Test func repeatThatEndedYearsAgoFindsItsLastOccurrenceDirectly() {
        let trigger = Trigger.repeating(
            first: FireTime(.absolute(instant("2000-01-01T00:00:00Z"))), every: .minute,
            bounds: RecurrenceBounds(until: instant("2001-01-01T00:00:30Z")))
        #expect(
            trigger.lastOccurrence(before: instant("2026-11-26T00:00:00Z"), userZone: .utc)
                == instant("2001-01-01T00:00:00Z"))
    }

    @Test func calendarCountAboveAHundredIsRefusedAtItsKey() {
        let result = parse(nativeFeed(#""calendar": "*:*:*", "fireDate": "2026-10-20T00:00:00Z", "count": 101"#))
        #expect(result.schedule?.entries.isEmpty == true)
        #expect(
            errors(result) == [
                "line 1: notifications[0].count: `count` on a `calendar` entry must be at most 100, not 101: "
                    + "its occurrences are counted one by one; bound a longer series with `until`"
            ])
    }
}
