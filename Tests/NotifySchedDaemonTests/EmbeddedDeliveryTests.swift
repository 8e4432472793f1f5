import NotifySchedCore
import NotifySchedStore
import Testing

/// The real driver delivers in virtual time: each popup at its due instant, never early, once,
/// and a kill loses nothing.
@Suite struct EmbeddedDeliveryTests {
    static let start = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test func everyTimedKindShowsAtItsDueInstantAndNothingElse() throws {
        let feed = """
            {"notifications": [
              {"id": "absolute", "title": "Absolute", "fireDate": "2027-01-15T08:01:00Z"},
              {"id": "floating", "title": "Floating", "fireDate": "2027-01-15T09:02:00", "timeZone": "Europe/Berlin"},
              {"id": "minutely", "title": "Minutely", "fireDate": "2027-01-15T08:03:00Z", "repeatInterval": "minute",
               "count": 3},
              {"id": "calendar", "title": "Calendar", "calendar": "*-*-* 08:10/20:00 UTC"},
              {"id": "expired", "title": "Expired", "fireDate": "2027-01-15T08:04:00Z", "expires": "2027-01-15T08:00:30Z"},
              {"id": "missed", "title": "Missed", "fireDate": "2027-01-15T07:59:00Z", "maxLateness": 0}
            ]}
            """
        let daemon = try EmbeddedDaemon(feeds: [("feed.json", feed)], at: Self.start)
        daemon.advance(by: .hours(1))
        let minute = { (minutes: Int64) in Self.start + .minutes(minutes) }
        #expect(
            daemon.shown.map { "\($0.popup.summary) \($0.at.rfc3339)" } == [
                "Absolute \(minute(1).rfc3339)", "Floating \(minute(2).rfc3339)", "Minutely \(minute(3).rfc3339)",
                "Minutely \(minute(4).rfc3339)", "Minutely \(minute(5).rfc3339)", "Calendar \(minute(10).rfc3339)",
                "Calendar \(minute(30).rfc3339)", "Calendar \(minute(50).rfc3339)",
            ])
        let ledger = try daemon.ledger(of: "feed.json")
        #expect(ledger.filter { $0.entryID == "missed" }.map(\.outcome) == [.missed])
        #expect(!ledger.contains { $0.entryID == "expired" })
    }

    /// Killed in the middle of a burst, the daemon loses no occurrence: the next one shows
    /// what the ledger had not recorded again (at most once more), and the rest on time.
    @Test func aKillDuringABurstLosesNothingAndShowsAtMostOnceMore() throws {
        let entries = (Int64(0)..<20).map { index in
            #"{"id": "e\#(index)", "title": "E\#(index)", "fireDate": "\#((Self.start + .seconds(10 + index)).rfc3339)"}"#
        }
        let feed = #"{"notifications": [\#(entries.joined(separator: ",\n"))]}"#
        let daemon = try EmbeddedDaemon(feeds: [("burst.json", feed)], at: Self.start)
        daemon.advance(to: Self.start + .seconds(19) + .milliseconds(500))
        try daemon.killAndRestart()
        daemon.advance(by: .minutes(1))
        for index in Int64(0)..<20 {
            let shows = daemon.shown(titled: "E\(index)")
            #expect((1...2).contains(shows.count), "E\(index) shown \(shows.count) times")
            #expect(shows.first?.at == Self.start + .seconds(10 + index), "E\(index) on time")
        }
        #expect(try daemon.ledger(of: "burst.json").count == 20, "each recorded once")
    }
}
