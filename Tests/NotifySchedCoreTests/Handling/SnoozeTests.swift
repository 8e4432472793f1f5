import NotifySchedCore
import Testing

@Suite struct SnoozeTests {
    private func at(_ text: String) -> Instant {
        guard case .absolute(let instant)? = Timestamp.parse(text) else { fatalError(text) }
        return instant
    }

    @Test func aSpanEndsThatLongAfterItWasAskedWhateverTheZone() throws {
        let paris = try ZoneRules(identifier: "CET", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(
            Snooze(parsing: "10min")?.until(from: at("2026-03-29T00:55:00Z"), in: paris) == at("2026-03-29T01:05:00Z"))
    }

    /// Tomorrow morning is 09:00 on the next calendar day where the user is: across midnight,
    /// the end of a month and a spring-forward night alike.
    @Test(arguments: [
        ("2026-11-26T21:30:00Z", "2026-11-27T08:00:00Z"),
        ("2026-11-26T23:30:00Z", "2026-11-28T08:00:00Z"),
        ("2026-03-28T20:00:00Z", "2026-03-29T07:00:00Z"),
        ("2026-01-31T10:00:00Z", "2026-02-01T08:00:00Z"),
    ])
    func tomorrowIsNineOClockTheNextDayInTheUsersZone(now: String, until: String) throws {
        let paris = try ZoneRules(identifier: "CET", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(Snooze.tomorrowMorning.until(from: at(now), in: paris) == at(until))
    }

    @Test func onlyTomorrowOrASpanFromASecondToAYearIsASnooze() {
        #expect(Snooze(parsing: " Tomorrow ") == .tomorrowMorning)
        #expect(Snooze(parsing: "1h 30min") == .after(.minutes(90)))
        #expect(Snooze(parsing: "366d") == .after(.days(366)))
        for text in ["", "0s", "500ms", "367d", "later", "tomorrow 10:00"] {
            #expect(Snooze(parsing: text) == nil, "\(text)")
        }
    }
}
