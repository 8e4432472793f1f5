import NotifySchedCore
import Testing

@Suite struct TimeSpanTests {
    @Test func systemdStyleSpansParse() {
        #expect(TimeSpan.parse("90") == .seconds(90))
        #expect(TimeSpan.parse("1h 30min") == .minutes(90))
        #expect(TimeSpan.parse("2d") == .days(2))
        #expect(TimeSpan.parse("1w") == .days(7))
        #expect(TimeSpan.parse("500ms") == TimeSpan(microseconds: 500_000))
        #expect(TimeSpan.parse("1 h") == .hours(1))
    }

    @Test func malformedSpansAreRefused() {
        for text in ["", "h", "-5s", "1 fortnight", "1.5h", "99999999999999999999s"] {
            #expect(TimeSpan.parse(text) == nil, "\"\(text)\" must be refused")
        }
    }
}
