import NotifySchedCore
import Testing

@Suite struct TimestampTests {
    @Test func offsetTimeIsAbsolute() {
        #expect(Timestamp.parse("2026-03-29T03:30:00+02:00") == .absolute(Instant(secondsSinceEpoch: 1_774_747_800)))
        #expect(Timestamp.parse("2026-03-29T01:30:00Z") == .absolute(Instant(secondsSinceEpoch: 1_774_747_800)))
    }

    @Test func timeWithoutOffsetIsFloating() {
        #expect(
            Timestamp.parse("2026-03-29T02:30")
                == .floating(CivilDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30)))
    }

    @Test func impossibleDatesAreRefusedNotRolledOver() {
        #expect(Timestamp.parse("2026-02-30T25:61Z") == nil)
        #expect(Timestamp.parse("2026-02-29T10:00Z") == nil)
        #expect(Timestamp.parse("tomorrow") == nil)
    }

    @Test func rfc3339PrintsFractionOnlyWhenPresent() {
        #expect(Instant(secondsSinceEpoch: 1_774_747_800).rfc3339 == "2026-03-29T01:30:00Z")
        #expect(Instant(microseconds: 1_774_747_800_500_000).rfc3339 == "2026-03-29T01:30:00.5Z")
    }
}
