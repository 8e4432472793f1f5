import NotifySchedCore
import Testing

@Suite struct PosixTimeZoneRuleTests {
    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Instant {
        CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute).instant(atOffset: 0)
    }

    @Test func europeanRuleSwitchesOnLastSundays() throws {
        let zone = try ZoneRules(identifier: "CET", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(zone.offset(at: Self.utc(2026, 3, 29, 0, 59)).seconds == 3600)
        #expect(
            zone.offset(at: Self.utc(2026, 3, 29, 1)) == ZoneOffset(seconds: 7200, isDST: true, abbreviation: "CEST"))
        #expect(zone.offset(at: Self.utc(2026, 10, 25, 0, 59)).seconds == 7200)
        #expect(
            zone.offset(at: Self.utc(2026, 10, 25, 1)) == ZoneOffset(seconds: 3600, isDST: false, abbreviation: "CET"))
    }

    @Test func missingDatesDefaultToUSRules() throws {
        let zone = try ZoneRules(identifier: "EST5EDT", posixRule: "EST5EDT")
        #expect(zone.nextTransition(after: Self.utc(2026, 1, 1)) == Self.utc(2026, 3, 8, 7))
        #expect(zone.offset(at: Self.utc(2026, 7, 1)) == ZoneOffset(seconds: -14400, isDST: true, abbreviation: "EDT"))
    }

    @Test func quotedNamesAndMinuteOffsets() throws {
        let zone = try ZoneRules(identifier: "Tehran", posixRule: "<+0330>-3:30")
        #expect(
            zone.offset(at: Self.utc(2026, 7, 1)) == ZoneOffset(seconds: 12600, isDST: false, abbreviation: "+0330"))
        #expect(zone.nextTransition(after: Self.utc(2026, 7, 1)) == nil)
    }

    @Test func julianDaysSkipOrCountTheLeapDay() throws {
        // J60 is March 1 in every year; 59 (zero-based) is March 1 only in common years.
        let julian = try ZoneRules(identifier: "j", posixRule: "AAA0BBB,J60/0,J300/0")
        #expect(julian.nextTransition(after: Self.utc(2028, 1, 1)) == Self.utc(2028, 3, 1))
        let zeroBased = try ZoneRules(identifier: "n", posixRule: "AAA0BBB,59/0,299/0")
        #expect(zeroBased.nextTransition(after: Self.utc(2028, 1, 1)) == Self.utc(2028, 2, 29))
    }

    @Test func daylightAllYearWhenRuleWrapsTheYear() throws {
        let zone = try ZoneRules(identifier: "EST5EDT,0/0,J365/25", posixRule: "EST5EDT,0/0,J365/25")
        for month in 1...12 {
            #expect(zone.offset(at: Self.utc(2026, month, 1, 2)).seconds == -14400, "month \(month) is EDT")
        }
        #expect(zone.offset(at: Self.utc(2027, 1, 1, 4, 30)).seconds == -14400)
    }

    @Test func negativeAndLongTransitionTimes() throws {
        let nuuk = try ZoneRules(identifier: "Nuuk", posixRule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        // Last Sunday of March 2026 is the 29th; -1:00 local standard time is 28th 23:00 -02.
        #expect(nuuk.nextTransition(after: Self.utc(2026, 3, 1)) == Self.utc(2026, 3, 29, 1))
        let late = try ZoneRules(identifier: "late", posixRule: "AAA0BBB,M3.1.0/100,M10.1.0/-100")
        #expect(late.nextTransition(after: Self.utc(2026, 2, 1)) == Self.utc(2026, 3, 5, 4))
    }

    @Test(arguments: [
        "", "E", "EST", "EST5EDT,M3", "EST5EDT,M13.1.0,M11.1.0", "<AB>1", "EST5EDT,J0,J10", "EST99",
        "EST5EDT,M3.2.0/200,M11.1.0", "EST5x",
    ])
    func malformedRulesThrow(rule: String) {
        #expect(throws: CoreError.self) { try PosixTimeZoneRule(parsing: rule) }
    }
}
