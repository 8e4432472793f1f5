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
}
