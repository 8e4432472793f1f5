import NotifySchedControl
import NotifySchedCore
import NotifySchedPlatform
import Testing

/// A page of the listing, which the daemon builds for its `List` call from each entry's next
/// occurrence alone, against the whole listing built row by row and then filtered and cut, as
/// `list` did before pages (the oracle), over generated schedules, states and filters.
@Suite struct ScheduleListingPageTests {
    private static let zones = TimeZoneDatabase()
    private static let start = Instant(secondsSinceEpoch: 1_774_000_000)

    @Test(arguments: 0..<UInt64(40))
    func aPageIsTheSliceOfTheWholeListingThatTheFilterKeeps(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x715E_0000 + seed)
        let userZone = try #require(
            Self.zones.zone(named: ["UTC", "Europe/Dublin", "America/New_York"][Int(seed % 3)]))
        let now = Self.start + .seconds(Int64.random(in: 0...(90 * 86_400), using: &random))
        let schedules = (0..<Int.random(in: 1...3, using: &random)).map { source in
            Self.schedule(source: "feed-\(source)", entries: Int.random(in: 0...60, using: &random), using: &random)
        }
        // What the ledger says: some entries settled or recorded, before or after now (a clock
        // stepped back), some never.
        var settled: [String: [String: Instant]] = [:]
        var history: [String: [String: LedgerRecord]] = [:]
        for schedule in schedules {
            for entry in schedule.entries where Int.random(in: 0..<3, using: &random) == 0 {
                let instant = now + .seconds(Int64.random(in: -86_400 * 40...3600, using: &random))
                settled[schedule.source, default: [:]][entry.id] = instant
                if Bool.random(using: &random) {
                    let outcome = LedgerOutcome.allCases.randomElement(using: &random)!
                    history[schedule.source, default: [:]][entry.id] = LedgerRecord(
                        occurrenceID: "\(entry.id)@\(instant.microseconds)", source: schedule.source,
                        entryID: entry.id, occurrence: instant, outcome: outcome, recordedAt: instant)
                }
            }
        }
        let filter = ListingFilter(
            sources: Bool.random(using: &random) ? [] : ["feed-0"],
            states: Bool.random(using: &random)
                ? [] : ["pending", LedgerOutcome.allCases.randomElement(using: &random)!.rawValue],
            ids: Bool.random(using: &random) ? [] : ["e1*", "*7"])
        let upcoming = Int.random(in: 1...5, using: &random)
        var whole = ScheduleListing(
            schedules: schedules, now: now, upcoming: upcoming, userZone: userZone, history: history,
            settled: settled.mapValues(StoredSettledInstants.init))
        whole.rows.removeAll {
            !filter.admits(source: $0.source) || !filter.admits(id: $0.id)
                || (!filter.states.isEmpty && !filter.states.contains($0.state))
        }
        let offset = Int.random(in: 0...max(0, whole.rows.count), using: &random)
        let count = Int.random(in: 1...40, using: &random)
        var askedFor: Set<String> = []
        let page = ScheduleListing(
            schedules: schedules, now: now, upcoming: upcoming, userZone: userZone, filter: filter,
            page: offset..<offset + count,
            settled: schedules.map { schedule in schedule.entries.map { settled[schedule.source]?[$0.id] } },
            records: { index, ids in
                askedFor.formUnion(ids)
                return history[schedules[index].source] ?? [:]
            })
        #expect(page.total == whole.rows.count, "seed \(seed): the total counts what the filter keeps")
        #expect(
            page.rows == Array(whole.rows.dropFirst(offset).prefix(count)),
            "seed \(seed): the page is the whole listing's slice")
        if filter.states.isEmpty {
            #expect(askedFor.count <= count, "seed \(seed): only the page's records are read")
        }
    }

    /// A schedule of `entries` drawn at random: one-shot (past and future), repeating in the
    /// user's zone or UTC, calendar expressions with and without an end, immediate, expiring.
    private static func schedule(source: String, entries: Int, using random: inout SplitMix64) -> Schedule {
        let members = (0..<entries).map { index -> String in
            let id = #""id": "e\#(index)", "title": "Entry \#(index)""#
            let first = (start + .seconds(Int64.random(in: -86_400 * 30...86_400 * 120, using: &random))).rfc3339
            var entry: String
            switch Int.random(in: 0..<6, using: &random) {
            case 0: entry = #"\#(id), "fireDate": "\#(first)""#
            case 1:
                let interval = ["minute", "hour", "day", "week", "month"].randomElement(using: &random)!
                entry = #"\#(id), "fireDate": "\#(first)", "repeatInterval": "\#(interval)""#
            case 2:
                let civil = String(first.prefix(19))
                entry = #"\#(id), "fireDate": "\#(civil)", "repeatInterval": "day""#
            case 3:
                let calendar = ["*-*-* 09:00", "Mon..Fri 17:30", "*-*-01 00:00:00 UTC", "hourly"].randomElement(
                    using: &random)!
                entry = #"\#(id), "calendar": "\#(calendar)""#
            case 4: entry = id
            default: entry = #"\#(id), "fireDate": "\#(first)", "repeatInterval": "hour", "count": 30"#
            }
            if Int.random(in: 0..<5, using: &random) == 0 {
                let expires = start + .seconds(Int64.random(in: 0...86_400 * 100, using: &random))
                entry += #", "expires": "\#(expires.rfc3339)""#
            }
            return "{" + entry + "}"
        }
        let feed = #"{"notifications": [\#(members.joined(separator: ","))]}"#
        let result = FeedParser(zones: zones, urlPolicy: URLPolicy()).parse(Array(feed.utf8), source: source)
        guard let schedule = result.schedule else {
            preconditionFailure("the generated feed parses: \(result.diagnostics)")
        }
        return schedule
    }
}

extension ScheduleListingPageTests {
    /// An order kept between calls and brought forward (the daemon's, between `List` calls)
    /// lists what an order sorted afresh does, over weeks of calls in which entries are
    /// delivered and settle.
    @Test(arguments: 0..<UInt64(12))
    func anOrderBroughtForwardListsWhatAFreshOrderDoes(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x0DE2_0000 + seed)
        let userZone = try #require(Self.zones.zone(named: ["Europe/Dublin", "UTC", "Asia/Kolkata"][Int(seed % 3)]))
        let schedules = (0..<2).map { source in
            Self.schedule(source: "feed-\(source)", entries: Int.random(in: 20...80, using: &random), using: &random)
        }
        var settled = schedules.map { [Instant?](repeating: nil, count: $0.entries.count) }
        var now = Self.start
        var order = ListingOrder(schedules: schedules, settled: settled, now: now, userZone: userZone)
        for call in 0..<60 {
            now = now + TimeSpan(microseconds: Int64.random(in: 0...(3 * 86_400_000_000), using: &random))
            // Some entries were delivered or missed meanwhile: settled at an instant up to now.
            for _ in 0..<Int.random(in: 0...10, using: &random) {
                let index = Int.random(in: 0..<schedules.count, using: &random)
                guard !settled[index].isEmpty else { continue }
                let position = Int.random(in: 0..<settled[index].count, using: &random)
                let instant = now - TimeSpan(microseconds: Int64.random(in: 0...86_400_000_000, using: &random))
                settled[index][position] = max(settled[index][position] ?? instant, instant)
            }
            order.advance(to: now, schedules: schedules, settled: settled, userZone: userZone)
            let noRecords: (Int, [String]) -> [String: LedgerRecord] = { _, _ in [:] }
            let kept = ScheduleListing(
                schedules: schedules, now: now, upcoming: 2, userZone: userZone, order: order, settled: settled,
                records: noRecords)
            let fresh = ScheduleListing(
                schedules: schedules, now: now, upcoming: 2, userZone: userZone, settled: settled, records: noRecords)
            try #require(kept.rows == fresh.rows, "seed \(seed), call \(call): the kept order lists as a fresh one")
        }
    }
}
