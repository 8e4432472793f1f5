import NotifySchedCore
import Testing

/// Whether a due occurrence may be shown under the caps: the entry's frequency, its groups,
/// and the user's bounds, against the impressions so far.
@Suite struct CapGateTests {
    private let noon = instant("2026-06-01T12:00:00Z")

    private func entry(
        _ id: String, frequency: FrequencyCap? = nil, groups: [String] = [], urgency: Urgency = .normal
    ) -> ScheduleEntry {
        ScheduleEntry(
            id: id, dialect: .native, content: NotificationContent(title: id, body: "", urgency: urgency),
            trigger: .immediate, deliveryRules: DeliveryRules(frequency: frequency, groups: groups))
    }

    private func impression(
        _ entryID: String, at shownAt: Instant, source: String = "feed", groups: [String] = [], critical: Bool = false
    ) -> Impression {
        Impression(
            occurrenceID: "\(entryID)@\(shownAt.microseconds)", source: source, entryID: entryID, groups: groups,
            shownAt: shownAt, critical: critical)
    }

    @Test func aWindowCountsTheImpressionsWithinItsPeriodEndingNowAndAnyAfterNow() {
        let daily = FrequencyCap(windows: [.init(period: .days(1), cap: 2)])
        let limit = CapLimit(cap: 2, period: .days(1))
        #expect(daily.reached(by: [noon - .days(1), noon - .hours(1)], at: noon) == nil, "a day ago is out")
        #expect(daily.reached(by: [noon - .hours(23), noon - .hours(1)], at: noon) == limit)
        #expect(daily.reached(by: [noon - .hours(2), noon + .hours(3)], at: noon) == limit, "the clock stepped back")
    }

    @Test func aLifetimeAboveAHundredIsReadAsAHundred() {
        let cap = FrequencyCap(lifetime: 500)
        let shown = (0..<100).map { noon - .minutes(Int64($0) + 1) }.reversed()
        #expect(cap.lifetime == FrequencyCap.lifetimeLimit)
        #expect(cap.reached(by: Array(shown.dropFirst()), at: noon) == nil)
        #expect(cap.reached(by: Array(shown), at: noon) == CapLimit(cap: 100, period: nil))
    }

    @Test func aRolloutShowsAnEntryOnlyOnTheDesktopsInItsRangeAndNamesTheBucketOfOthers() throws {
        let rollout = Rollout(namespace: "spring", start: 0, count: 5, total: 10)
        let staged = ScheduleEntry(
            id: "a", dialect: .native, content: NotificationContent(title: "a", body: ""), trigger: .immediate,
            deliveryRules: DeliveryRules(rollout: rollout))
        let desktops = (0..<40).map { "desktop-\($0)" }
        let inside = try #require(desktops.first { rollout.admits(installID: $0) })
        let outside = try #require(desktops.first { !rollout.admits(installID: $0) })
        let log = ImpressionLog()
        #expect(
            CapGate(installID: inside).suppression(of: staged, source: "feed", groups: [], log: log, at: noon) == nil)
        #expect(
            CapGate(installID: outside).suppression(of: staged, source: "feed", groups: [], log: log, at: noon)
                == .outsideRollout(rollout, bucket: rollout.bucket(of: outside)))
        #expect(
            CapGate().suppression(of: staged, source: "feed", groups: [], log: log, at: noon)
                == .outsideRollout(rollout, bucket: nil), "no install id places no desktop")
    }

    @Test func aDisabledGroupSilencesItsMembersBeforeAnyCapIsCounted() {
        let groups = [MessageGroup(id: "promo", enabled: false)]
        let capped = entry("a", frequency: FrequencyCap(lifetime: 1), groups: ["promo"])
        let log = ImpressionLog([impression("a", at: noon - .days(2))])
        let gate = CapGate()
        #expect(
            gate.suppression(of: capped, source: "feed", groups: groups, log: log, at: noon)
                == .groupDisabled(group: "promo"))
    }

    @Test func aGroupsCapCountsEveryMembersImpressionsInItsOwnSource() {
        let groups = [MessageGroup(id: "promo", frequency: FrequencyCap(windows: [.init(period: .days(1), cap: 2)]))]
        let log = ImpressionLog([
            impression("a", at: noon - .hours(3), groups: ["promo"]),
            impression("b", at: noon - .hours(2), groups: ["promo"]),
            impression("c", at: noon - .hours(1), source: "other", groups: ["promo"]),
        ])
        let gate = CapGate()
        #expect(
            gate.suppression(of: entry("c", groups: ["promo"]), source: "feed", groups: groups, log: log, at: noon)
                == .groupCap(group: "promo", CapLimit(cap: 2, period: .days(1))))
        #expect(
            gate.suppression(of: entry("c", groups: ["promo"]), source: "other", groups: groups, log: log, at: noon)
                == nil, "the other source's group of that name is another group")
    }

    @Test func theUsersBoundsCountEveryPopupButCriticalOnesWhichTheyLetThrough() {
        let log = ImpressionLog([
            impression("a", at: noon - .minutes(30)),
            impression("b", at: noon - .minutes(20), source: "other"),
            impression("c", at: noon - .minutes(10), critical: true),
        ])
        let perSource = CapGate(sourceBounds: ["feed": PopupBound(count: 1, period: .hours(1))])
        let global = CapGate(globalBound: PopupBound(count: 2, period: .hours(1)))
        let loose = CapGate(globalBound: PopupBound(count: 3, period: .hours(1)))
        #expect(
            perSource.suppression(of: entry("d"), source: "feed", groups: [], log: log, at: noon)
                == .popupBound(source: "feed", CapLimit(cap: 1, period: .hours(1))))
        #expect(
            global.suppression(of: entry("d"), source: "third", groups: [], log: log, at: noon)
                == .popupBound(source: nil, CapLimit(cap: 2, period: .hours(1))))
        #expect(loose.suppression(of: entry("d"), source: "feed", groups: [], log: log, at: noon) == nil)
        #expect(
            global.suppression(of: entry("d", urgency: .critical), source: "feed", groups: [], log: log, at: noon)
                == nil)
    }

    @Test func anOccurrenceCountsOnceAndGoesWhenItsShowingFailed() {
        var log = ImpressionLog()
        let shown = impression("a", at: noon, groups: ["g"])
        log.add(shown)
        log.add(shown)
        #expect(log.count == 1)
        let gate = CapGate(globalBound: PopupBound(count: 1, period: .hours(1)))
        #expect(gate.suppression(of: entry("b"), source: "feed", groups: [], log: log, at: noon) != nil)
        log.remove(occurrenceID: shown.occurrenceID, entryID: "a", source: "feed")
        #expect(log.count == 0)
        #expect(gate.suppression(of: entry("b"), source: "feed", groups: [], log: log, at: noon) == nil)
    }

    @Test func pruningKeepsTheRecentPastAndEachEntrysLatestHundred() {
        let old = noon - .days(200)
        var log = ImpressionLog(
            (0..<150).map { impression("a", at: old + .minutes(Int64($0)), groups: ["g"]) }
                + [impression("b", at: old), impression("c", at: noon - .days(1))])
        log.prune(before: noon - FrequencyCap.longestPeriod)
        #expect(log.count == 100 + 1 + 1, "a's latest 100, b's only one, c's recent one")
        let lifetime = FrequencyCap(lifetime: 100)
        let groups = [MessageGroup(id: "g", frequency: lifetime)]
        #expect(
            CapGate().suppression(of: entry("d", groups: ["g"]), source: "feed", groups: groups, log: log, at: noon)
                == .groupCap(group: "g", CapLimit(cap: 100, period: nil)))
    }

    @Test(arguments: [
        Suppression.entryCap(CapLimit(cap: 1, period: .days(1))), .entryCap(CapLimit(cap: 3, period: nil)),
        .groupCap(group: "promo spring/2027", CapLimit(cap: 2, period: .hours(6))),
        .groupDisabled(group: "é"),
        .popupBound(source: "https://example.org/feed a.json", CapLimit(cap: 4, period: .hours(1))),
        .popupBound(source: nil, CapLimit(cap: 20, period: .days(1))),
        .outsideRollout(Rollout(namespace: "spring 2027/é x", start: 9000, count: 2000, total: 10000), bucket: 17),
        .outsideRollout(Rollout(namespace: "", start: 0, count: 0, total: 1), bucket: nil),
    ])
    func aSuppressionReadsBackAsStored(_ suppression: Suppression) {
        #expect(Suppression(encoded: suppression.encoded) == suppression)
    }

    @Test func maxPopupsTakesACountAndAPeriodUpToNinetyDays() {
        #expect(PopupBound(parsing: "4/1h") == PopupBound(count: 4, period: .hours(1)))
        #expect(PopupBound(parsing: " 20 / 1d ") == PopupBound(count: 20, period: .days(1)))
        for bad in ["4", "0/1h", "4/0", "4/91d", "-1/1h", "4/1h/2", "x/1h", ""] {
            #expect(PopupBound(parsing: bad) == nil, "\(bad)")
        }
    }
}
