import NotifySchedCore
import NotifySchedPlatform
import Testing

@Suite struct CalendarExpressionTests {
    static let database = TimeZoneDatabase()

    static func parse(_ text: String, local: String? = nil) throws -> CalendarExpression {
        try CalendarExpression.parse(text, zones: database, localZone: local.flatMap { database.zone(named: $0) })
    }

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0)
        -> Instant
    {
        CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second).instant(
            atOffset: 0)
    }

    @Test(arguments: [
        ("Mon..Fri *-*-* 09:00", "Mon..Fri *-*-* 09:00:00"),
        ("Mon,Wed", "Mon,Wed *-*-* 00:00:00"),
        ("Sat-Sun,Mon 8:00", "Mon,Sat,Sun *-*-* 08:00:00"),
        ("mon,tue,wed,thu,fri,sat,sun", "*-*-* 00:00:00"),
        ("weekly", "Mon *-*-* 00:00:00"),
        ("minutely", "*-*-* *:*:00"),
        ("quarterly", "*-01,04,07,10-01 00:00:00"),
        ("semi-annually", "*-01,07-01 00:00:00"),
        ("*:0/15", "*-*-* *:00/15:00"),
        ("*-*~1", "*-*~01 00:00:00"),
        ("*:*:0/0.5", "*-*-* *:*:00/0.500000"),
        ("12:00:01.1234567", "*-*-* 12:00:01.123457"),
        ("26-3-29 2:30", "2026-03-29 02:30:00"),
        ("1..10/3-1", "*-01..10/3-01 00:00:00"),
        ("*-*-1..5/5", "*-*-01 00:00:00"),
        ("2030..2040/5-1-1", "2030..2040/5-01-01 00:00:00"),
        ("*-*-* 1,3,1,2:00", "*-*-* 01,02,03:00:00"),
        ("daily UTC", "*-*-* 00:00:00 UTC"),
        ("*-*-01 08:00:00 Europe/Berlin", "*-*-01 08:00:00 Europe/Berlin"),
        ("@1774744200", "2026-03-29 00:30:00 UTC"),
        // A seconds list that begins with every second prints as `*`, whatever follows it; a
        // minutes or hours list does not.
        ("*:4,30:0/1,3,5", "*-*-* *:04,30:*"),
        ("*:4:3,0/1", "*-*-* *:04:*"),
        ("*:4:0/2,3", "*-*-* *:04:00/2,03"),
        ("*:3,0/1:00", "*-*-* *:00/1,03:00"),
    ])
    func normalizedFormMatchesSystemd(input: String, normalized: String) throws {
        #expect(try Self.parse(input).normalized == normalized)
    }

    @Test(arguments: [
        "", "foo", "*/2", "Mon..", "Fri..Mon", "Mo", "25:00", "*:60", "*-13-01", "*-02-32", "1969-01-01", "2200-01-01",
        "*:*:60", "*:0/0", "*-*~29", "0:0:30..30", "12:00 Nowhere/Zone", "12:00 cest", "*-*-* 12:00:00:00", "Mon-12-01",
        "12:00 EDT",
    ])
    func malformedExpressionsThrowInvalidCalendar(input: String) {
        let error = #expect(throws: CoreError.self) { try Self.parse(input, local: "UTC") }
        #expect(error?.code == .invalidCalendar)
        #expect(error?.message.contains("\"\(input)\"") == true, "the message quotes the expression")
    }

    @Test func errorMessageNamesTheField() {
        let error = #expect(throws: CoreError.self) { try Self.parse("*-*-* 25:00") }
        #expect(error?.message == "calendar expression \"*-*-* 25:00\": hour 25 is outside 0…23")
    }

    @Test func weekdaysAtNineSkipTheWeekend() throws {
        let berlin = try Self.database.loadZone(named: "Europe/Berlin")
        let expression = try Self.parse("Mon..Fri 09:00")
        // 2026-03-27 is a Friday.
        #expect(
            expression.nextElapses(after: Self.utc(2026, 3, 27, 9), count: 2, in: berlin)
                == [Self.utc(2026, 3, 30, 7), Self.utc(2026, 3, 31, 7)])
    }

    @Test func springForwardGapMovesToTheNextDayAsSystemdDoes() throws {
        // systemd skips a wall-clock time that does not exist: 02:30 on 2026-03-29 never happens.
        let berlin = try Self.database.loadZone(named: "Europe/Berlin")
        let expression = try Self.parse("*-*-* 02:30")
        #expect(expression.nextElapse(after: Self.utc(2026, 3, 28, 23), in: berlin) == Self.utc(2026, 3, 30, 0, 30))
    }

    @Test func fallBackOverlapElapsesOnceAtTheFirstOccurrence() throws {
        let berlin = try Self.database.loadZone(named: "Europe/Berlin")
        let expression = try Self.parse("*-*-* 02:30")
        #expect(
            expression.nextElapses(after: Self.utc(2026, 10, 24, 23), count: 2, in: berlin)
                == [Self.utc(2026, 10, 25, 0, 30), Self.utc(2026, 10, 26, 1, 30)])
    }

    // Spring-forward gaps that `mktime` resolves backwards, before the start of the search
    // (negative DST in Dublin and Casablanca, the half-hour gap at Lord Howe): Debian's systemd
    // 252 then moves an hour on instead of finding an elapse in the past. Expected values from
    // `TZ=… systemd-analyze calendar --iterations=N --base-time=@… EXPR`.
    @Test func nextElapseInDublinSpringMatchesSystemd() throws {
        let dublin = try Self.database.loadZone(named: "Europe/Dublin")
        #expect(
            try Self.parse("hourly").nextElapses(after: Self.utc(2025, 3, 29, 22), count: 5, in: dublin)
                == [
                    Self.utc(2025, 3, 29, 23), Self.utc(2025, 3, 30, 0), Self.utc(2025, 3, 30, 1),
                    Self.utc(2025, 3, 30, 2), Self.utc(2025, 3, 30, 3),
                ])
        #expect(
            try Self.parse("daily").nextElapses(after: Self.utc(2025, 3, 30, 0, 20, 34), count: 2, in: dublin)
                == [Self.utc(2025, 3, 30, 23), Self.utc(2025, 3, 31, 23)])
    }

    @Test func nextElapseInCasablancaSpringMatchesSystemd() throws {
        let casablanca = try Self.database.loadZone(named: "Africa/Casablanca")
        #expect(
            try Self.parse("hourly").nextElapses(after: Self.utc(2025, 4, 6, 0, 30), count: 3, in: casablanca)
                == [Self.utc(2025, 4, 6, 1), Self.utc(2025, 4, 6, 2), Self.utc(2025, 4, 6, 3)])
    }

    @Test func nextElapseInLordHoweHalfHourGapMatchesSystemd() throws {
        let lordHowe = try Self.database.loadZone(named: "Australia/Lord_Howe")
        #expect(
            try Self.parse("*:0/15").nextElapses(after: Self.utc(2026, 10, 3, 15, 20, 34), count: 3, in: lordHowe)
                == [Self.utc(2026, 10, 3, 15, 30), Self.utc(2026, 10, 3, 15, 45), Self.utc(2026, 10, 3, 16)])
    }

    @Test func nextElapseWithNegativeDSTRuleMatchesSystemd() throws {
        // The rule from systemd's test-calendarspec.c: Irish time as a POSIX TZ string.
        let rule = try ZoneRules(
            identifier: "IST-1GMT-0,M10.5.0/1,M3.5.0/1", posixRule: "IST-1GMT-0,M10.5.0/1,M3.5.0/1")
        #expect(
            try Self.parse("hourly").nextElapses(after: Self.utc(2025, 3, 30), count: 4, in: rule)
                == [
                    Self.utc(2025, 3, 30, 1), Self.utc(2025, 3, 30, 2), Self.utc(2025, 3, 30, 3),
                    Self.utc(2025, 3, 30, 4),
                ])
    }

    @Test func fractionalRepetitionKeepsMicroseconds() throws {
        let expression = try Self.parse("*:*:0/0.5 UTC")
        #expect(
            expression.nextElapses(after: Self.utc(2026, 1, 1), count: 3, in: .utc)
                == [
                    Self.utc(2026, 1, 1) + TimeSpan(microseconds: 500_000), Self.utc(2026, 1, 1, 0, 0, 1),
                    Self.utc(2026, 1, 1, 0, 0, 1) + TimeSpan(microseconds: 500_000),
                ])
    }

    @Test func lastDayOfMonthCountsFromTheEnd() throws {
        let expression = try Self.parse("*-02~01 UTC")
        #expect(expression.nextElapse(after: Self.utc(2028, 1, 1), in: .utc) == Self.utc(2028, 2, 29))
    }

    @Test func namedZoneOverridesTheLocalZone() throws {
        let newYork = try Self.database.loadZone(named: "America/New_York")
        let expression = try Self.parse("*-*-* 08:00 Asia/Kolkata")
        #expect(expression.nextElapse(after: Self.utc(2026, 6, 1), in: newYork) == Self.utc(2026, 6, 1, 2, 30))
    }

    @Test func localAbbreviationSelectsDSTFlagLikeSystemd() throws {
        let berlin = try Self.database.loadZone(named: "Europe/Berlin")
        // In summer, asking for 12:00 standard time makes systemd give up ("never").
        let standard = try Self.parse("12:00 CET", local: "Europe/Berlin")
        #expect(standard.normalized == "*-*-* 12:00:00 CET")
        #expect(standard.nextElapse(after: Self.utc(2026, 3, 29, 0, 43, 20), in: berlin) == nil)
        // Without the local zone, CET is the IANA zone of that name.
        #expect(
            try Self.parse("12:00 CET").nextElapse(after: Self.utc(2026, 7, 1), in: berlin) == Self.utc(2026, 7, 1, 10))
    }

    @Test func kolkataHistoricalDaylightNameNeverElapses() throws {
        // A fresh glibc has tzname = {"IST", "+0630"} in Kolkata; DST was last used in 1945.
        let kolkata = try Self.database.loadZone(named: "Asia/Kolkata")
        let expression = try Self.parse("12:00 +0630", local: "Asia/Kolkata")
        #expect(expression.normalized == "*-*-* 12:00:00 +0630")
        #expect(expression.nextElapse(after: Self.utc(2026, 3, 29), in: kolkata) == nil)
    }

    @Test func timestampExpressionElapsesOnce() throws {
        let expression = try Self.parse("@1774744200")
        #expect(expression.nextElapse(after: Self.utc(2026, 1, 1), in: .utc) == Self.utc(2026, 3, 29, 0, 30))
        #expect(expression.nextElapse(after: Self.utc(2026, 3, 29, 0, 30), in: .utc) == nil)
    }

    @Test func impossibleDateNeverElapses() throws {
        #expect(try Self.parse("*-02-30").nextElapse(after: Self.utc(2026, 1, 1), in: .utc) == nil)
    }
}
