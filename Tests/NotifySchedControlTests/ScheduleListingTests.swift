import NotifySchedControl
import NotifySchedCore
import Testing

@Suite struct ScheduleListingTests {
    @Test func anEntryWhoseLatestOccurrenceWasSuppressedSaysSoAndWhyWithNoLastDelivery() throws {
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        let entry = ScheduleEntry(
            id: "tip", dialect: .native, content: NotificationContent(title: "Tip", body: ""),
            trigger: .repeating(first: FireTime(.absolute(now - .hours(2))), every: .hour, bounds: .unbounded),
            deliveryRules: DeliveryRules(frequency: FrequencyCap(lifetime: 1)))
        let schedule = Schedule(source: "feed", dialect: .native, format: .json, entries: [entry])
        let reason = Suppression.entryCap(CapLimit(cap: 1, period: nil))
        let record = LedgerRecord.suppressed("tip", of: "feed", occurrence: now - .hours(1), because: reason, at: now)
        let listing = ScheduleListing(
            schedules: [schedule], now: now, upcoming: 1, userZone: .utc, history: ["feed": ["tip": record]])
        let row = try #require(listing.rows.first)
        #expect(row.state == "suppressed")
        #expect(row.reason == SuppressionReport(reason))
        #expect(row.reason?.message == "its frequency allows 1 in all")
        #expect(row.lastDelivery == nil && row.lastOccurrenceID == nil, "nothing was shown")
        #expect(try listing.json().contains(#""code" : "frequency""#))
    }

    @Test func anEntryWithNoTimeToComeSaysWhyInPlaceOfPendingAndTheStateFilterFindsIt() throws {
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        func entry(_ id: String, at time: Instant, expires: Instant? = nil, versions: VersionRange = VersionRange())
            -> ScheduleEntry
        {
            ScheduleEntry(
                id: id, dialect: .native, content: NotificationContent(title: id, body: ""),
                trigger: .once(FireTime(.absolute(time))), expires: expires, versions: versions)
        }
        let schedule = Schedule(
            source: "feed", dialect: .native, format: .json,
            entries: [
                entry("past", at: now - .days(30)),
                entry("caught-up", at: now - .minutes(1)),
                entry("gone", at: now + .hours(1), expires: now - .minutes(1)),
                entry("old-app", at: now + .hours(1), versions: VersionRange(maximum: "1.9")),
                entry("soon", at: now + .hours(1)),
            ])
        let listing = ScheduleListing(
            schedules: [schedule], now: now, upcoming: 1, userZone: .utc, applicationVersions: ["feed": "2.0"])
        let states = Dictionary(uniqueKeysWithValues: listing.rows.map { ($0.id, $0.state) })
        #expect(
            states == [
                "past": "ended", "caught-up": "pending", "gone": "expired", "old-app": "other version",
                "soon": "pending",
            ])
        let ended = ScheduleListing(
            schedules: [schedule], now: now, upcoming: 1, userZone: .utc,
            filter: ListingFilter(states: ["ended", "other version"]), applicationVersions: ["feed": "2.0"])
        #expect(ended.rows.map(\.id).sorted() == ["old-app", "past"])
    }

    @Test func anEntryShownOnEventsHasNoEnding() {
        let entry = ScheduleEntry(
            id: "news", dialect: .native, content: NotificationContent(title: "News", body: ""),
            trigger: .events(.global))
        let now = Instant(secondsSinceEpoch: 1_800_000_000)
        #expect(EntryEnding.of(entry, now: now, context: PlanningContext(userZone: .utc), comesAgain: false) == nil)
    }
}
