import Foundation
import NotifySchedCore
import Testing

/// The caps as the daemon's core applies them, in virtual time: each popup due, timed or
/// chosen by an event, goes out or is suppressed with its reason, and a suppressed occurrence
/// is settled, not deferred.
@Suite struct DaemonCoreCapsTests {
    private let noon = instant("2026-06-01T12:00:00Z")

    private func core(_ feed: String, configuration: Configuration = Configuration()) throws -> DaemonCore {
        var core = DaemonCore(
            following: OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc),
            configuration: configuration)
        let schedule = try #require(parse(feed).schedule, "\(errors(parse(feed)))")
        _ = core.handle(.opened(FeedLoad(source: 0, schedule: schedule, settled: [:])), at: noon)
        return core
    }

    /// The timer's event at `now`, each popup shown as the server takes it (or not, as
    /// `result` says), and what its answers decide: the entries shown, and the suppressed ones
    /// with their reasons.
    private func wake(
        _ core: inout DaemonCore, at now: Instant, result: ShowResult = .shown
    ) -> (shown: [String], suppressed: [String: Suppression]) {
        var effects = core.handle(.timerWoke(clockChanged: false), at: now)
        var shown: [String] = []
        var suppressed: [String: Suppression] = [:]
        while !effects.isEmpty {
            var dues: [DueOccurrence] = []
            for effect in effects {
                switch effect {
                case .show(let due):
                    shown.append(due.entry.id)
                    dues.append(due)
                case .recordSuppressed(let record):
                    #expect(record.outcome == .suppressed)
                    suppressed[record.entryID] = record.suppression
                default: break
                }
            }
            // The server's answers come after the popups went out side by side.
            effects = dues.flatMap { core.handle(.shown($0, result), at: now) }
        }
        return (shown, suppressed)
    }

    private let hourly = #""fireDate": "2026-06-01T13:00:00Z", "repeatInterval": "hour""#

    @Test func anEntryCappedOnceADayShowsItsFirstOccurrenceAndSkipsTheRestOfTheDay() throws {
        var core = try core(nativeFeed(hourly + #", "frequency": {"custom": [{"period": "1d", "cap": 1}]}"#))
        var shown: [Instant] = []
        var skipped: [Instant: Suppression] = [:]
        for hour in 1...25 {
            let now = noon + .hours(Int64(hour))
            let woke = wake(&core, at: now)
            if !woke.shown.isEmpty { shown.append(now) }
            if let reason = woke.suppressed["e"] { skipped[now] = reason }
        }
        #expect(shown == [noon + .hours(1), noon + .hours(25)], "once a day, the window sliding")
        #expect(skipped.count == 23)
        #expect(Set(skipped.values) == [.entryCap(CapLimit(cap: 1, period: .days(1)))])
        #expect(core.nextWakeUp == noon + .hours(26), "skipped, not deferred: the next hour is armed")
    }

    private let twoInAGroup = #"""
        {"groups": [{"id": "promo", "frequency": {"custom": [{"period": "1d", "cap": 1}]}}],
         "notifications": [
           {"id": "low", "title": "L", "fireDate": "2026-06-01T13:00:00Z", "groups": ["promo"]},
           {"id": "high", "title": "H", "fireDate": "2026-06-01T13:00:00Z", "groups": ["promo"], "priority": 3},
           {"id": "other", "title": "O", "fireDate": "2026-06-01T13:00:00Z"}]}
        """#

    @Test func theHigherPriorityWinsTheOneSlotAGroupCapLeavesAmongEntriesDueTogether() throws {
        var core = try core(twoInAGroup)
        let woke = wake(&core, at: noon + .hours(1))
        #expect(woke.shown.sorted() == ["high", "other"])
        #expect(woke.suppressed == ["low": .groupCap(group: "promo", CapLimit(cap: 1, period: .days(1)))])
    }

    @Test func amongEqualPrioritiesTheFeedOrderWins() throws {
        var core = try core(twoInAGroup.replacingOccurrences(of: #", "priority": 3"#, with: ""))
        let woke = wake(&core, at: noon + .hours(1))
        #expect(woke.shown.sorted() == ["low", "other"])
        #expect(Array(woke.suppressed.keys) == ["high"])
    }

    @Test func aPopupHeldBackOnlyByOneTheServerDidNotTakeIsNotSuppressedButTriedAgain() throws {
        var core = try core(twoInAGroup)
        let failed = wake(&core, at: noon + .hours(1), result: .failed)
        #expect(failed.shown.sorted() == ["high", "low", "other"], "low waited for high's answer, then went out")
        #expect(failed.suppressed.isEmpty)
        let retried = wake(&core, at: noon + .hours(1) + OccurrencePlanner.retryDelay)
        #expect(retried.shown.sorted() == ["high", "other"])
        #expect(Array(retried.suppressed.keys) == ["low"])
    }

    @Test func aPopupTheServerDidNotTakeIsNotCountedSoItsRetryGoesOut() throws {
        var core = try core(nativeFeed(#""fireDate": "2026-06-01T13:00:00Z", "frequency": {"lifetime": 1}"#))
        let failed = wake(&core, at: noon + .hours(1), result: .failed)
        let retried = wake(&core, at: noon + .hours(1) + OccurrencePlanner.retryDelay)
        #expect(failed.shown == ["e"])
        #expect(retried.shown == ["e"], "the failed showing left no impression")
        #expect(retried.suppressed.isEmpty)
        #expect(core.impressions.count == 1)
    }

    @Test func theImpressionsStoredBeforeARestartCount() throws {
        var core = try core(nativeFeed(hourly + #", "frequency": {"custom": [{"period": "1d", "cap": 1}]}"#))
        _ = core.handle(
            .impressionsLoaded([
                Impression(
                    occurrenceID: "earlier", source: "feed", entryID: "e", groups: [], shownAt: noon - .hours(2),
                    critical: false)
            ]), at: noon)
        let woke = wake(&core, at: noon + .hours(1))
        #expect(woke.shown.isEmpty)
        #expect(woke.suppressed["e"] == .entryCap(CapLimit(cap: 1, period: .days(1))))
    }

    @Test func theUsersBoundHoldsBackWaitingPopupsButNotCriticalOnes() throws {
        let feed = #"""
            {"notifications": [
              {"id": "a", "title": "A", "events": {"go": "ON=1"}},
              {"id": "b", "title": "B", "events": {"go": "ON=1"}, "urgency": "critical"},
              {"id": "c", "title": "C", "events": {"go": "ON=1"}}]}
            """#
        var core = try core(feed, configuration: Configuration(maxPopups: PopupBound(count: 1, period: .hours(1))))
        let entries = try #require(core.planner.schedule(source: 0)?.entries)
        var effects = core.handle(.popupsChosen(core.waiting.popups(for: entries, of: "feed", at: noon)), at: noon)
        var shown: [String] = []
        var suppressed: [String: Suppression] = [:]
        while !effects.isEmpty {
            var next: [DaemonEffect] = []
            for effect in effects {
                if case .showWaiting(let item) = effect {
                    shown.append(item.popup.entryID)
                    next += core.handle(.waitingShown(item, .shown), at: noon)
                }
                if case .recordSuppressed(let record) = effect { suppressed[record.entryID] = record.suppression }
            }
            effects = next
        }
        #expect(shown == ["a", "b"])
        #expect(suppressed == ["c": .popupBound(source: nil, CapLimit(cap: 1, period: .hours(1)))])
        #expect(core.waiting.items.isEmpty, "a suppressed popup does not wait")
    }

    @Test func aTargetedEntryWinsASharedSlotOverAnUntargetedOneOfTheSamePriority() throws {
        let feed = #"""
            {"groups": [{"id": "promo", "frequency": {"lifetime": 1}}],
             "notifications": [
               {"id": "anyone", "title": "A", "fireDate": "2026-06-01T13:00:00Z", "groups": ["promo"]},
               {"id": "fans", "title": "F", "fireDate": "2026-06-01T13:00:00Z", "groups": ["promo"],
                "targeting": "'sports' in tags"}]}
            """#
        var configuration = Configuration(sources: [SourceConfiguration(name: "feed", feed: "feed")])
        configuration.tags = ["sports"]
        var core = try core(feed, configuration: configuration)
        let woke = wake(&core, at: noon + .hours(1))
        #expect(woke.shown == ["fans"])
        #expect(woke.suppressed == ["anyone": .groupCap(group: "promo", CapLimit(cap: 1, period: nil))])
    }

    @Test func aTargetingThatCannotBeEvaluatedIsLoggedOnceAndCountsAsFalse() throws {
        var core = try core(nativeFeed(hourly + #", "targeting": "installAgeDays > 'soon'""#))
        var logged: [String] = []
        var suppressed = 0
        for hour in 1...3 {
            for effect in core.handle(.timerWoke(clockChanged: false), at: noon + .hours(Int64(hour))) {
                if case .log(.warning, let line) = effect { logged.append(line) }
                if case .recordSuppressed = effect { suppressed += 1 }
            }
        }
        #expect(suppressed == 3)
        #expect(logged.count == 1, "\(logged)")
        #expect(logged.first?.hasPrefix("the targeting of e in feed could not be evaluated") == true)
    }

    @Test func amongThePopupsOneEventChoseTheHigherPriorityTakesTheSlotTheBoundLeaves() throws {
        let feed = #"""
            {"notifications": [
              {"id": "a", "title": "A", "events": {"go": "ON=1"}},
              {"id": "b", "title": "B", "events": {"go": "ON=1"}, "priority": 2},
              {"id": "c", "title": "C", "events": {"go": "ON=1"}, "priority": 1}]}
            """#
        var core = try core(feed, configuration: Configuration(maxPopups: PopupBound(count: 1, period: .hours(1))))
        let entries = try #require(core.planner.schedule(source: 0)?.entries)
        var effects = core.handle(.popupsChosen(core.waiting.popups(for: entries, of: "feed", at: noon)), at: noon)
        var shown: [String] = []
        var suppressed: [String] = []
        while !effects.isEmpty {
            var next: [DaemonEffect] = []
            for effect in effects {
                if case .showWaiting(let item) = effect {
                    shown.append(item.popup.entryID)
                    next += core.handle(.waitingShown(item, .shown), at: noon)
                }
                if case .recordSuppressed(let record) = effect { suppressed.append(record.entryID) }
            }
            effects = next
        }
        #expect(shown == ["b"])
        #expect(suppressed == ["c", "a"])
    }
}
