import NotifySchedCore
import Testing

/// What the daemon's core decides beside its parts, in virtual time.
@Suite struct DaemonCoreTests {
    private let noon = instant("2026-06-01T12:00:00Z")

    private func core(feed: String? = nil) -> DaemonCore {
        var planner = OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc)
        if let feed, let schedule = parse(feed).schedule {
            _ = planner.load(schedule, source: 0, settled: [:], at: noon)
        }
        return DaemonCore(planner: planner)
    }

    @Test func wakesAtTheEarliestOfAnOccurrenceACheckAndAWaitingPopup() throws {
        var core = core(feed: nativeFeed(#""fireDate": "2026-06-01T13:00:00Z""#))
        let occurrenceOnly = core.nextWakeUp(nextCheck: nil)
        let checkFirst = core.nextWakeUp(nextCheck: noon + .minutes(30))
        let entry = try #require(parse(nativeFeed(#""events": {"deploy": "ON=1"}"#)).schedule?.entries.first)
        core.waiting.add(core.waiting.popups(for: [entry], of: "feed", at: noon + .minutes(10)))
        let popupFirst = core.nextWakeUp(nextCheck: noon + .minutes(30))
        let nothingAhead = self.core().nextWakeUp(nextCheck: nil)
        // The planner's wheel may wake it a little early for the occurrence, never late.
        #expect(occurrenceOnly.map { $0 > noon + .minutes(30) && $0 <= instant("2026-06-01T13:00:00Z") } == true)
        #expect(checkFirst == noon + .minutes(30))
        #expect(popupFirst == noon + .minutes(10))
        #expect(nothingAhead == nil, "nothing ahead: no wake-up")
    }

    @Test func prunesTheLedgerOnceADayAndAgainAfterTheClockWentBack() {
        var core = core()
        let cutOffs = [noon, noon + .hours(23), noon + .days(1), noon - .hours(1)].map {
            core.ledgerPruneCutOff(at: $0)
        }
        #expect(
            cutOffs == [
                noon - .days(90),  // at the first wake-up
                nil,
                noon + .days(1) - .days(90),
                noon - .hours(1) - .days(90),  // the clock went back
            ])
    }

    @Test func aSourceWithoutItsFeedAtTheSessionStartTakesItOnceWhenTheFeedArrives() {
        var core = core()
        core.sessionStarted(withoutFeed: [1, 3])
        let taken = [0, 3, 3, 1].map { core.takesSessionStart(source: $0) }
        #expect(taken == [false, true, false, true], "source 0 had its feed; 3 takes it once")
    }

    /// An outcome of the occurrence `id` of the entry `e` of "feed".
    private func outcome(_ id: String, _ change: StateChange? = nil) throws -> HandlingOutcome {
        let entry = try #require(parse(nativeFeed(#""fireDate": "2026-06-01T12:00:00Z""#)).schedule?.entries.first)
        return HandlingOutcome(
            occurrence: DeliveredOccurrence(id: id, entry: entry, source: "feed", deliveredAt: noon), change: change)
    }

    @Test func callsWaitingForAnOccurrenceAreAnsweredOnceByItsOutcomeInTheOrderTheyCame() throws {
        var core = core()
        let first = core.callWaits(for: "a")
        let other = core.callWaits(for: "b")
        let gaveUp = core.callWaits(for: "a")
        let last = core.callWaits(for: "a")
        core.callGaveUp(gaveUp, on: "a")
        let answered = try ["a", "a", "b"].map { core.answered(try outcome($0), occurrence: nil, at: noon) }
        #expect(Set([first, other, gaveUp, last]).count == 4, "each call has a token of its own")
        #expect(answered == [[first, last], [], [other]], "each call is answered once")
    }

    @Test func ignoringARepeatingEntryStopsItsLaterOccurrences() throws {
        var core = core(feed: nativeFeed(#""fireDate": "2026-06-01T12:00:00Z", "repeatInterval": "hour""#))
        let before = core.planner.pendingCount
        _ = core.answered(try outcome("a", .ignored), occurrence: noon, at: noon + .minutes(1))
        let after = core.planner.pendingCount
        #expect(before == 1)
        #expect(after == 0, "Ignore stops the entry")
    }
}
