import NotifySchedCore
import Testing

/// A preview's timeline as the core computes it: what the daemon's core decides in virtual
/// time, every occurrence of the window with an outcome, and a bound on the work.
@Suite struct PreviewRunTests {
    private let start = instant("2026-03-28T00:00:00Z")

    private func timeline(
        _ feed: String, days: Int64 = 2, profile: PreviewProfile? = nil, limit: Int = PreviewRun.occurrenceLimit
    ) throws -> Timeline {
        let berlin = zone("Europe/Berlin")
        let schedule = try #require(parse(feed, userZone: berlin).schedule)
        return PreviewRun.timeline(
            of: [schedule], for: profile ?? PreviewProfile(zone: berlin), in: start..<(start + .days(days)),
            limit: limit)
    }

    @Test func aFeedThatFiresEverySecondStopsAtTheLimitAndSaysWhere() throws {
        let feed =
            #"{"notifications": [{"id": "a", "title": "A", "calendar": "*:*:*"}, {"id": "b", "title": "B", "calendar": "*:*:*"}]}"#
        let cut = try timeline(feed, days: 366, limit: 1_000)
        #expect(cut.occurrences.count <= 1_000)
        #expect(cut.occurrences.count > 900)
        let stop = try #require(cut.cutShortAt)
        #expect(stop < start + .minutes(10))
        #expect(cut.occurrences.allSatisfy { $0.due <= stop })
    }

    @Test func aCalendarTimeTheClocksSkipIsSuppressedAtTheJumpWithTheWallClockItNamed() throws {
        let rows = try timeline(nativeFeed(#""calendar": "*-*-* 02:15,45""#)).occurrences
        #expect(rows.map(\.outcome) == [.shows, .shows, .suppressed, .suppressed])
        let gap = try #require(rows.last?.reason)
        #expect(gap.code == "dst-gap")
        #expect(gap.words == "02:45 does not exist on 2026-03-29 in Europe/Berlin: the clocks jump from 02:00 to 03:00")
        #expect(rows.last?.at == instant("2026-03-29T01:00:00Z"), "at the jump")
    }

    @Test func quietHoursFoldTheOccurrencesTheyHoldIntoTheLatestShownAfterTheWindow() throws {
        let profile = PreviewProfile(zone: zone("Europe/Berlin"), quietHours: QuietHours(parsing: "22:00-07:00"))
        let rows = try timeline(nativeFeed(#""calendar": "*-*-* 23:00,30""#), days: 1, profile: profile).occurrences
        #expect(rows.map(\.outcome) == [.folded, .shows])
        #expect(rows.allSatisfy { $0.at == instant("2026-03-29T05:00:00Z") }, "07:00 summer time, the quiet hours' end")
        #expect(rows.first?.reason == .folded(into: instant("2026-03-28T22:30:00Z")))
    }

    @Test func anEntryWithoutOccurrencesInTheWindowSaysWhy() throws {
        let feed = """
            {"notifications": [
              {"id": "over", "title": "T", "calendar": "daily", "until": "2026-01-01T00:00:00Z"},
              {"id": "old", "title": "T", "calendar": "daily", "expires": "2026-01-01T00:00:00Z"},
              {"id": "v3", "title": "T", "calendar": "daily", "minVersion": "3"},
              {"id": "later", "title": "T", "fireDate": "2026-06-01T00:00:00Z"},
              {"id": "news", "title": "T", "events": {"session:start": "ON=1|OFF=4"}}
            ]}
            """
        let quiet = try timeline(feed, profile: PreviewProfile(zone: zone("Europe/Berlin"), applicationVersion: "2"))
            .quietEntries
        #expect(quiet.map(\.entryID) == ["over", "old", "v3", "later", "news"])
        #expect(quiet.map(\.code) == ["ended", "expired", "other-version", "after-window", "on-events"])
    }

    @Test func aCalendarInUTCOrInAZoneOfItsOwnHasNoGapOfTheUsersZone() throws {
        let feed = """
            {"notifications": [
              {"id": "utc", "title": "T", "calendar": "*-*-* 01:15 UTC"},
              {"id": "york", "title": "T", "calendar": "*-*-* 02:15 America/New_York"}
            ]}
            """
        let rows = try timeline(feed).occurrences
        #expect(rows.allSatisfy { $0.outcome == .shows }, "\(rows.filter { $0.outcome != .shows })")
        #expect(rows.count == 4, "two days of each")
    }
}
