import NotifySchedCore
import NotifySchedTesting
import Synchronization
import Testing

/// The daemon's decisions about session events, posted events and iNotify's manual check,
/// driven in virtual time through generated months and compared with the seeds' rules restated
/// by `EventOracle`: which iNotify message a check shows and when it checks at all, what an
/// iSmartNews display cycle shows (patterns, counter, window, queues, gate, the shown set), which
/// event-driven entries an event shows; and that every popup chosen goes out once, never early,
/// never in quiet hours unless critical, through restarts, feed changes (a message edited, a
/// pattern changed, an entry withdrawn or back) and a missing notification server.
///
/// 10 000 seeded scenarios. A failing scenario names its seed;
/// `NOTIFY_SCHED_CONFORMANCE_SEED=<seed> swift test --filter EventConformanceTests` replays it
/// alone, with what was shown.
@Suite(.computeThreads) struct EventConformanceTests {
    static let batches = 50
    static let scenariosPerBatch = 200
    static let totals = Mutex(Totals())

    struct Totals {
        var scenarios = 0
        var simulatedDays = 0
        var events = 0
        var chosen = 0
        var shown = 0
        var answers = 0
        var feedChanges = 0
        var divergences = 0
    }

    @Test(arguments: 0..<batches)
    func generatedMonthsChooseWhatTheSeedsSay(batch: Int) throws {
        let replayed = try ConformanceSeeds.check(batch: batch, of: Self.scenariosPerBatch, from: 0xE7E7_0000) {
            try check(seed: $0, verbose: $1)
        }
        guard !replayed else { return }
        let totals = Self.totals.withLock { $0 }
        if totals.scenarios == Self.batches * Self.scenariosPerBatch {
            print(
                "event conformance: \(totals.scenarios) scenarios, \(totals.simulatedDays) simulated days, "
                    + "\(totals.events) events, \(totals.chosen) popups chosen, \(totals.shown) shown, "
                    + "\(totals.answers) answers, \(totals.feedChanges) feed changes, \(totals.divergences) divergences"
            )
        }
    }

    private func check(seed: UInt64, verbose: Bool) throws {
        let scenario = EventScenario(seed: seed)
        let parser = FeedParser(zones: systemZones, urlPolicy: URLPolicy(), userZone: scenario.zone)
        let schedules = try scenario.versions.map { feeds in
            try feeds.json.map { feed in
                let parsed = parser.parse(Array(feed.utf8), source: "feed")
                #expect(errors(parsed) == [], "seed \(seed): the generated feed has no errors")
                return try #require(parsed.schedule, "seed \(seed): the generated feed parses")
            }
        }
        var daemon = SimulatedEventDaemon(scenario, versions: schedules)
        daemon.run()
        if verbose || !daemon.failures.isEmpty {
            Issue.record(
                """
                seed \(seed): \(daemon.failures.first ?? "no divergence")
                feeds: \(scenario.versions.map { $0.json.joined(separator: "\n") }.joined(separator: "\nthen:\n"))
                iNotify settings: \(scenario.iNotifySettings)
                zone \(scenario.zone.identifier), quiet hours \(scenario.quietHours.map(\.description) ?? "none")
                happenings: \(scenario.happenings.map { "\($0.after.seconds) s: \($0.happening)" })
                shown: \(daemon.shown.suffix(12))
                """)
        }
        Self.totals.withLock {
            $0.scenarios += 1
            $0.simulatedDays += Int(scenario.length.seconds / 86_400)
            $0.events += daemon.events
            $0.chosen += daemon.chosen.count
            $0.shown += daemon.shown.count
            $0.answers += daemon.answered
            $0.feedChanges += scenario.versions.count - 1
            $0.divergences += daemon.failures.isEmpty ? 0 : 1
        }
    }
}
