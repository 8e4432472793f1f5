import Foundation
import NotifySchedCore
import NotifySchedPlatform
import Testing

/// Calendars read as feeds: which entries their alarms become, when those go off, what the
/// popups say, and how a malformed or hostile calendar is reported.
struct ICalendarFeedTests {
    static let berlin = systemZones.zone(named: "Europe/Berlin")!

    /// A calendar holding `body`, with CRLF line ends.
    static func calendar(_ body: String) -> [UInt8] {
        let lines =
            ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//notify-sched//tests//EN"]
            + body.split(separator: "\n").map(String.init) + ["END:VCALENDAR"]
        return Array((lines.joined(separator: "\r\n") + "\r\n").utf8)
    }

    static func parse(
        _ body: String, userZone: ZoneRules = berlin, policy: AlarmPolicy = .embedded
    ) -> FeedParseResult {
        FeedParser(zones: systemZones, userZone: userZone, alarmPolicy: policy).parse(
            calendar(body), source: "test.ics")
    }

    static func alarms(_ entry: ScheduleEntry, from: String, count: Int = 10, userZone: ZoneRules = berlin) throws
        -> [String]
    {
        guard case .absolute(let start) = try #require(Timestamp.parse(from)) else {
            throw CoreError(.invalidDate, from)
        }
        return entry.trigger.occurrences(onOrAfter: start, limit: count, userZone: userZone).map(\.rfc3339)
    }

    static let weekly = """
        BEGIN:VEVENT
        UID:standup
        DTSTART;TZID=Europe/Berlin:20261130T093000
        DTEND;TZID=Europe/Berlin:20261130T094500
        RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR
        EXDATE;TZID=Europe/Berlin:20261202T093000
        SUMMARY:Stand-up
        LOCATION:Room 4
        DESCRIPTION:Bring your notes\\, please.\\nhttps://meet.jit.si/our-standup
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        TRIGGER:-PT10M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:standup
        RECURRENCE-ID;TZID=Europe/Berlin:20261204T093000
        DTSTART;TZID=Europe/Berlin:20261204T110000
        DTEND;TZID=Europe/Berlin:20261204T111500
        SUMMARY:Stand-up (moved)
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Reminder
        TRIGGER:-PT5M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:standup
        RECURRENCE-ID;TZID=Europe/Berlin:20261207T093000
        STATUS:CANCELLED
        DTSTART;TZID=Europe/Berlin:20261207T093000
        END:VEVENT
        """

    @Test func eachAlarmIsAnEntryOverTheInstancesLeftByExclusionsAndOverrides() throws {
        let result = Self.parse(Self.weekly)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let entries = try #require(result.schedule?.entries)
        #expect(entries.map(\.id) == ["standup/1", "standup/20261204T093000/1"])
        #expect(result.schedule?.dialect == .iCalendar)
        // Mondays, Wednesdays and Fridays at 09:20 Berlin, less the excluded 2 December, the moved
        // 4 December and the cancelled 7 December.
        #expect(
            try Self.alarms(entries[0], from: "2026-11-29T00:00:00Z", count: 4) == [
                "2026-11-30T08:20:00Z", "2026-12-09T08:20:00Z", "2026-12-11T08:20:00Z", "2026-12-14T08:20:00Z",
            ])
        #expect(try Self.alarms(entries[1], from: "2026-11-29T00:00:00Z") == ["2026-12-04T09:55:00Z"])
    }

    @Test func thePopupShowsTheTimeAndPlaceAndOpensTheMeetingLink() throws {
        let entries = try #require(Self.parse(Self.weekly).schedule?.entries)
        let content = entries[0].content
        #expect(content.title == "Stand-up")
        #expect(content.body == "09:30–09:45 · Room 4\nBring your notes, please.\nhttps://meet.jit.si/our-standup")
        #expect(content.action?.url.description == "https://meet.jit.si/our-standup")
        #expect(content.icon == "x-office-calendar")
        // An event that happens once shows its date too.
        #expect(entries[1].content.body.hasPrefix("2026-12-04 11:00–11:15 · Room 4"))
    }

    @Test func hoursOfAnOffsetAreElapsedTimeAndDaysMoveTheWallClock() throws {
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:dst
            DTSTART;TZID=Europe/Berlin:20260329T031000
            SUMMARY:After the clocks go forward
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT15M
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-P1D
            END:VALARM
            END:VEVENT
            """)
        let entries = try #require(result.schedule?.entries)
        // 03:10 CEST is 01:10Z; fifteen minutes before is 00:55Z (01:55 CET), not the
        // nonexistent 02:55 read as 01:55Z after the event.
        #expect(try Self.alarms(entries[0], from: "2026-03-01T00:00:00Z") == ["2026-03-29T00:55:00Z"])
        // A day before is 03:10 CET on the 28th: 02:10Z, 23 hours earlier.
        #expect(try Self.alarms(entries[1], from: "2026-03-01T00:00:00Z") == ["2026-03-28T02:10:00Z"])
    }

    @Test func anAllDayEventsAlarmCountsFromMidnightInTheUsersZone() throws {
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:birthday
            DTSTART;VALUE=DATE:20261210
            RRULE:FREQ=YEARLY
            SUMMARY:Ada's birthday
            BEGIN:VALARM
            ACTION:AUDIO
            TRIGGER:-PT15M
            END:VALARM
            END:VEVENT
            """)
        let entry = try #require(result.schedule?.entries.first)
        #expect(
            try Self.alarms(entry, from: "2026-11-29T00:00:00Z", count: 2) == [
                "2026-12-09T22:45:00Z", "2027-12-09T22:45:00Z",
            ])
        let auckland = try #require(systemZones.zone(named: "Pacific/Auckland"))
        #expect(
            try Self.alarms(entry, from: "2026-11-29T00:00:00Z", count: 1, userZone: auckland) == [
                "2026-12-09T10:45:00Z"
            ])
        #expect(entry.content.sound == "alarm-clock-elapsed")
        #expect(entry.content.body.isEmpty)
    }

    @Test func anAlarmRelatedToTheEndCountsFromTheEndOrTheDuration() throws {
        let result = Self.parse(
            """
            BEGIN:VTODO
            UID:report
            DTSTART:20261201T080000Z
            DUE:20261201T160000Z
            SUMMARY:Send the report
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:-PT1H
            END:VALARM
            END:VTODO
            BEGIN:VEVENT
            UID:workshop
            DTSTART:20261202T080000Z
            DURATION:PT3H
            SUMMARY:Workshop
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:PT0S
            END:VALARM
            END:VEVENT
            """)
        let entries = try #require(result.schedule?.entries)
        #expect(try Self.alarms(entries[0], from: "2026-11-29T00:00:00Z") == ["2026-12-01T15:00:00Z"])
        #expect(try Self.alarms(entries[1], from: "2026-11-29T00:00:00Z") == ["2026-12-02T11:00:00Z"])
    }

    @Test func anAbsoluteAlarmRepeatsAndAnAcknowledgedOneDoesNotGoOffAgain() throws {
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:dentist
            DTSTART:20261203T140000Z
            SUMMARY:Dentist
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;VALUE=DATE-TIME:20261203T120000Z
            REPEAT:2
            DURATION:PT30M
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT1H
            REPEAT:3
            DURATION:PT10M
            ACKNOWLEDGED:20261203T131500Z
            END:VALARM
            END:VEVENT
            """)
        let entries = try #require(result.schedule?.entries)
        #expect(
            try Self.alarms(entries[0], from: "2026-11-29T00:00:00Z") == [
                "2026-12-03T12:00:00Z", "2026-12-03T12:30:00Z", "2026-12-03T13:00:00Z",
            ])
        #expect(
            try Self.alarms(entries[1], from: "2026-11-29T00:00:00Z") == [
                "2026-12-03T13:20:00Z", "2026-12-03T13:30:00Z",
            ])
    }

    @Test func zonesAreFoundByIANANameWindowsNameOrTheCalendarsOwnDefinition() throws {
        let result = Self.parse(
            """
            BEGIN:VTIMEZONE
            TZID:Custom Central
            BEGIN:STANDARD
            DTSTART:19701025T030000
            RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            TZNAME:CET
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:19700329T020000
            RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            TZNAME:CEST
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:windows
            DTSTART;TZID=W. Europe Standard Time:20260701T090000
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:embedded
            DTSTART;TZID=Custom Central:20260701T090000
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            END:VALARM
            END:VEVENT
            """)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        for entry in try #require(result.schedule?.entries) {
            #expect(try Self.alarms(entry, from: "2026-01-01T00:00:00Z") == ["2026-07-01T07:00:00Z"])
        }
    }

    @Test func thePolicySaysWhetherTheCalendarsAlarmsOrDefaultOnesGoOff() throws {
        let body = """
            BEGIN:VEVENT
            UID:with
            DTSTART:20261201T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT5M
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:without
            DTSTART:20261201T100000Z
            END:VEVENT
            """
        #expect(Self.parse(body, policy: .none).schedule?.entries.isEmpty == true)
        #expect(Self.parse(body).schedule?.entries.map(\.id) == ["with/1"])
        let defaults = try #require(
            Self.parse(body, policy: .defaults([ICalendarDuration(seconds: -900), ICalendarDuration(days: -1)]))
                .schedule?.entries)
        #expect(defaults.map(\.id) == ["with/1", "without/default"])
        #expect(
            try Self.alarms(defaults[1], from: "2026-11-29T00:00:00Z") == [
                "2026-11-30T10:00:00Z", "2026-12-01T09:45:00Z",
            ])
    }

    @Test func problemsNameTheirLineAndProperty() throws {
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:broken
            DTSTART;TZID=Mars/Olympus_Mons:20261201T100000
            END:VEVENT
            BEGIN:VEVENT
            UID:rule
            DTSTART:20261201T100000Z
            RRULE:FREQ=FORTNIGHTLY
            END:VEVENT
            BEGIN:VEVENT
            UID:mail
            DTSTART:20261201T100000Z
            BEGIN:VALARM
            ACTION:EMAIL
            TRIGGER:-PT5M
            END:VALARM
            END:VEVENT
            """)
        let messages = result.diagnostics.map(\.description)
        #expect(messages.contains { $0.contains("line 6: VEVENT.DTSTART") && $0.contains("Mars/Olympus_Mons") })
        #expect(messages.contains { $0.contains("line 11: VEVENT.RRULE") && $0.contains("FORTNIGHTLY") })
        #expect(messages.contains { $0.contains("line 17: VALARM.ACTION") && $0.contains("EMAIL") })
        #expect(result.hasErrors)
    }

    @Test func aComponentLeftOpenOrNestedTooDeepIsRefusedWithItsLine() {
        let open = FeedParser(zones: systemZones).parse(
            Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\n".utf8), source: "open.ics")
        #expect(open.schedule == nil)
        #expect(open.diagnostics.first?.description.contains("line 2: VEVENT") == true)
        let deep = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:X\r\n", count: 20)
        let nested = FeedParser(zones: systemZones).parse(Array(deep.utf8), source: "deep.ics")
        #expect(nested.diagnostics.first?.error.code == .limitExceeded)
    }

    @Test func hostileCountsAreBounded() throws {
        let rdates = (0..<10_001).map { "RDATE:2027\(String(format: "%04d", 101 + $0 % 28))T100000Z" }
        let many = Self.parse(
            "BEGIN:VEVENT\nUID:many\nDTSTART:20261201T100000Z\n" + rdates.joined(separator: "\n")
                + "\nBEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:PT0S\nEND:VALARM\nEND:VEVENT")
        #expect(many.diagnostics.contains { $0.error.code == .limitExceeded })
        let repeats = Self.parse(
            """
            BEGIN:VEVENT
            UID:loud
            DTSTART:20261201T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            REPEAT:1000000000
            DURATION:PT1S
            END:VALARM
            END:VEVENT
            """)
        let entry = try #require(repeats.schedule?.entries.first)
        #expect(repeats.diagnostics.contains { $0.severity == .warning && $0.error.code == .limitExceeded })
        #expect(try Self.alarms(entry, from: "2026-11-29T00:00:00Z", count: 1000).count == 101)
    }

    @Test func aRuleThatNeverRecursIsNamedAndLeavesTheStartAndItsRDATEs() throws {
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:never
            DTSTART:20261201T100000Z
            RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30
            RDATE:20270105T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            END:VALARM
            END:VEVENT
            """)
        let warning = try #require(result.diagnostics.first { $0.error.code == .invalidRecurrence })
        #expect(warning.severity == .warning && warning.error.location.line == 7)
        let entry = try #require(result.schedule?.entries.first)
        #expect(
            try Self.alarms(entry, from: "2026-11-29T00:00:00Z") == ["2026-12-01T10:00:00Z", "2027-01-05T10:00:00Z"])
    }

    @Test func repeatsOverARareRuleGoOffAtEachInstanceAndLookBackToTheLast() throws {
        // 29 February on a Monday: 2016, 2044, 2072.
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:rare
            DTSTART:20160229T090000Z
            RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-PT5M
            REPEAT:50
            DURATION:PT1M
            END:VALARM
            END:VEVENT
            """)
        let entry = try #require(result.schedule?.entries.first)
        let alarms = try Self.alarms(entry, from: "2026-11-29T00:00:00Z", count: 52)
        #expect(alarms.first == "2044-02-29T08:55:00Z" && alarms[50] == "2044-02-29T09:45:00Z")
        #expect(alarms.last == "2072-02-29T08:55:00Z")
        let now = Instant(microseconds: 1_795_910_400_000_000)  // 2026-11-29T00:00:00Z
        let last = entry.trigger.lastOccurrence(before: now, since: now - .days(4_018), userZone: Self.berlin)
        #expect(last?.rfc3339 == "2016-02-29T09:45:00Z")
    }

    @Test func aCalendarOfRulesThatNeverRecurIsReadInBoundedWork() throws {
        // Each of these looks at 400 years of February days before it can tell; the calendar's
        // budget reads the first few dozen and refuses the rest by their lines.
        let events = (0..<200).map { index in
            """
            BEGIN:VEVENT
            UID:never-\(index)
            DTSTART:20260101T000000Z
            RRULE:FREQ=HOURLY;BYMONTH=2;BYYEARDAY=1
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            END:VALARM
            END:VEVENT
            """
        }
        let result = Self.parse(events.joined(separator: "\n"))
        let refused = result.diagnostics.filter { $0.error.code == .limitExceeded }
        let named = result.diagnostics.filter { $0.error.code == .invalidRecurrence }
        #expect(!named.isEmpty && !refused.isEmpty && named.count + refused.count == events.count)
        #expect(refused.first?.error.message.contains("searched too long") == true)
        #expect(refused.first?.error.location.line != nil)
    }

    // Where the oracles disagree (docs/feed-formats.md, "Where the oracles disagree").

    @Test func anExclusionRemovesOnlyTheInstanceAtItsInstant() throws {
        // recurring-ical-events also drops 19:00 Moscow, whose UTC time (16:00) is the
        // override's wall-clock time.
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:twice
            DTSTART;TZID=Europe/Moscow:20270819T160000
            RRULE:FREQ=WEEKLY;BYHOUR=16,19;COUNT=4
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:twice
            RECURRENCE-ID;TZID=Europe/Moscow:20270826T160000
            DTSTART;TZID=Europe/Moscow:20270826T170000
            END:VEVENT
            """)
        let entry = try #require(result.schedule?.entries.first)
        #expect(
            try Self.alarms(entry, from: "2027-08-01T00:00:00Z") == [
                "2027-08-19T13:00:00Z", "2027-08-19T16:00:00Z", "2027-08-26T16:00:00Z",
            ])
    }

    @Test func aCancelledInstanceHasNoAlarmsAndAnOverrideWithoutAnEndEndsAtItsStart() throws {
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:daily
            DTSTART:20261201T090000Z
            DURATION:PT2H
            RRULE:FREQ=DAILY;COUNT=3
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:PT0S
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:daily
            RECURRENCE-ID:20261202T090000Z
            DTSTART:20261202T100000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:PT0S
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:daily
            RECURRENCE-ID:20261203T090000Z
            STATUS:CANCELLED
            DTSTART:20261203T090000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:PT0S
            END:VALARM
            END:VEVENT
            """)
        let entries = try #require(result.schedule?.entries)
        #expect(entries.map(\.id) == ["daily/1", "daily/20261202T090000/1"])
        #expect(try Self.alarms(entries[0], from: "2026-11-29T00:00:00Z") == ["2026-12-01T11:00:00Z"])
        #expect(try Self.alarms(entries[1], from: "2026-11-29T00:00:00Z") == ["2026-12-02T10:00:00Z"])
    }

    @Test func aDurationsHoursAreElapsedAcrossAClockChange() throws {
        // Adelaide's clocks go forward at 02:00 on 3 October 2027; a day after 02:15 on the 2nd
        // is the nonexistent 02:15, read as 03:15, and the hour is then elapsed: 04:15 (17:45Z).
        // recurring-ical-events adds all 25 hours to the wall clock: 03:15 (16:45Z).
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:long
            DTSTART;TZID=Australia/Adelaide:20271002T021500
            DURATION:P1DT1H
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:PT0S
            END:VALARM
            END:VEVENT
            """)
        let entry = try #require(result.schedule?.entries.first)
        #expect(try Self.alarms(entry, from: "2027-10-01T00:00:00Z") == ["2027-10-02T17:45:00Z"])
    }

    @Test func theFirstDaysOfJanuaryKeepTheNumberOfTheWeekTheyAreIn() throws {
        // With weeks from Thursday, 1 January 2030 is in week 52 of 2029 (which has 52 weeks);
        // dateutil counts 53 for 2029 there and leaves it out.
        let result = Self.parse(
            """
            BEGIN:VEVENT
            UID:weeks
            DTSTART:20271226T023000Z
            RRULE:FREQ=YEARLY;BYWEEKNO=52;BYDAY=TU,SU;WKST=TH
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:PT0S
            END:VALARM
            END:VEVENT
            """)
        let entry = try #require(result.schedule?.entries.first)
        #expect(
            try Self.alarms(entry, from: "2029-12-01T00:00:00Z", count: 2) == [
                "2029-12-30T02:30:00Z", "2030-01-01T02:30:00Z",
            ])
    }
}
