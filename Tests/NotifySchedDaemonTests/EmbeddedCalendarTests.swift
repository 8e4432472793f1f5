import Foundation
import NotifySchedCore
import NotifySchedStore
import Testing

/// The real driver shows a calendar's alarms in virtual time: each at its instant, once, across
/// a kill, an edit of the calendar and a new item in a folder of them.
@Suite struct EmbeddedCalendarTests {
    /// Friday 15 January 2027, 08:00 UTC.
    static let start = Instant(secondsSinceEpoch: 1_800_000_000)

    static func calendar(_ body: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//notify-sched//tests//EN\r\n"
            + body.split(separator: "\n").map { $0 + "\r\n" }.joined() + "END:VCALENDAR\r\n"
    }

    static let weekly = """
        BEGIN:VEVENT
        UID:review
        DTSTART:20270115T090000Z
        DURATION:PT30M
        RRULE:FREQ=WEEKLY;BYDAY=FR
        SUMMARY:Weekly review
        LOCATION:https://meet.jit.si/weekly-review
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Weekly review
        TRIGGER:-PT10M
        END:VALARM
        END:VEVENT
        BEGIN:VEVENT
        UID:dentist
        DTSTART:20270115T100000Z
        SUMMARY:Dentist
        BEGIN:VALARM
        ACTION:DISPLAY
        DESCRIPTION:Dentist
        TRIGGER:-PT5M
        END:VALARM
        END:VEVENT
        """

    @Test func alarmsShowAtTheirInstantsOnceAcrossAKillAndAnEdit() throws {
        let daemon = try EmbeddedDaemon(feeds: [("team.ics", Self.calendar(Self.weekly))], at: Self.start)
        daemon.advance(by: .hours(2))
        #expect(
            daemon.shown.map { "\($0.popup.summary) \($0.at.rfc3339)" } == [
                "Weekly review 2027-01-15T08:50:00Z", "Dentist 2027-01-15T09:55:00Z",
            ])
        let review = try #require(daemon.shown.first?.popup)
        #expect(review.body.hasPrefix("09:00–09:30"))
        #expect(review.buttons.first?.label == "Open")
        try daemon.killAndRestart()
        daemon.advance(to: Self.start + .days(7) + .hours(1))
        #expect(
            daemon.deliveries(titled: "Weekly review") == [
                Self.start + .minutes(50), Self.start + .days(7) + .minutes(50),
            ])
        #expect(daemon.deliveries(titled: "Dentist").count == 1)
        // The third Friday is cancelled in the calendar while the daemon runs.
        try daemon.edit(
            "team.ics",
            to: Self.calendar(
                Self.weekly.replacingOccurrences(
                    of: "RRULE:FREQ=WEEKLY;BYDAY=FR", with: "RRULE:FREQ=WEEKLY;BYDAY=FR\nEXDATE:20270129T090000Z")))
        daemon.advance(to: Self.start + .days(21) + .hours(1))
        #expect(
            daemon.deliveries(titled: "Weekly review") == [
                Self.start + .minutes(50), Self.start + .days(7) + .minutes(50), Self.start + .days(21) + .minutes(50),
            ])
        let ledger = try daemon.ledger(of: "team.ics")
        #expect(ledger.filter { $0.entryID == "review/1" }.count == 3)
    }

    @Test func aCalendarAlarmSnoozedComesBackWhenTheSnoozeEnds() throws {
        let daemon = try EmbeddedDaemon(feeds: [("team.ics", Self.calendar(Self.weekly))], at: Self.start)
        daemon.advance(by: .minutes(51))
        let review = try #require(daemon.shown.first?.popup)
        #expect(review.buttons.map(\.key).contains(Snooze.after(.minutes(10)).buttonKey))
        daemon.answer(review.key, .action(Snooze.after(.minutes(10)).buttonKey))
        daemon.advance(by: .minutes(15))
        #expect(
            daemon.deliveries(titled: "Weekly review") == [Self.start + .minutes(50), Self.start + .minutes(61)])
    }

    @Test func aDismissedAlarmIsAcknowledgedInTheLedgerAndNotShownAgain() throws {
        let daemon = try EmbeddedDaemon(feeds: [("team.ics", Self.calendar(Self.weekly))], at: Self.start)
        daemon.advance(by: .minutes(116))
        let dentist = try #require(daemon.shown(titled: "Dentist").first?.popup)
        daemon.answer(dentist.key, .closed(.dismissed))
        daemon.advance(by: .hours(2))
        #expect(daemon.deliveries(titled: "Dentist") == [Self.start + .minutes(115)])
        #expect(try daemon.ledger(of: "team.ics").filter { $0.entryID == "dentist/1" }.map(\.outcome) == [.closed])
    }

    @Test func aNewItemInAFolderOfCalendarItemsShowsItsAlarm() throws {
        let daemon = try EmbeddedDaemon(
            feeds: [], folders: [("work", [("review.ics", Self.calendar(Self.weekly))])], at: Self.start)
        daemon.advance(by: .minutes(30))
        let planning = Self.calendar(
            """
            BEGIN:VEVENT
            UID:planning
            DTSTART:20270115T093000Z
            SUMMARY:Planning
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:Planning
            TRIGGER:-PT15M
            END:VALARM
            END:VEVENT
            """)
        try daemon.edit("planning.ics", inFolder: "work", to: planning)
        daemon.advance(by: .minutes(90))
        #expect(
            daemon.shown.map { "\($0.popup.summary) \($0.at.rfc3339)" } == [
                "Weekly review 2027-01-15T08:50:00Z", "Planning 2027-01-15T09:15:00Z", "Dentist 2027-01-15T09:55:00Z",
            ])
    }
}

extension EmbeddedDaemon {
    /// When the popups titled `title` were delivered: not shown again in place (taken over
    /// after a restart, or updated after an edit).
    fileprivate func deliveries(titled title: String) -> [Instant] {
        shown(titled: title).filter(\.isDelivery).map(\.at)
    }
}
