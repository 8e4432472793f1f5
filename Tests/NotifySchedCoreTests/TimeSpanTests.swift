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

    @Test func roughSaysTheTwoLargestUnitsAsSystemdWritesLeftAndPassed() {
        let cases: [(TimeSpan, String)] = [
            (.zero, "0s"), (.milliseconds(999), "0s"), (TimeSpan(microseconds: -5), "0s"), (.seconds(45), "45s"),
            (.seconds(250), "4min 10s"), (.minutes(25), "25min"), (.seconds(2 * 3600 + 3 * 60 + 59), "2h 3min"),
            (.hours(26), "1 day 2h"), (.days(1), "1 day"), (.days(2) + .seconds(1), "2 days"),
            (.days(22), "3 weeks 1 day"), (.days(7) + .hours(5), "1 week"),
        ]
        for (span, text) in cases { #expect(span.rough == text, "\(span.microseconds) µs") }
    }
}
