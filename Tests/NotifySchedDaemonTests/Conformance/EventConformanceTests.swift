import NotifySchedCore
import NotifySchedTesting
import Testing

/// The daemon's decisions about session events, posted events and iNotify's manual check, made
/// by the real driver (`EmbeddedEventRun`) in virtual time through generated months and
/// compared with the seeds' rules restated by `EventOracle`: which iNotify message a check
/// shows and when it checks at all, what an iSmartNews display cycle shows (patterns, counter,
/// window, queues, gate, the shown set), which event-driven entries an event shows; what the
/// user's answers change, on the popup or on `handle`'s prompt, a popup a new daemon took over
/// included; and that every popup chosen goes out once, never early, never in quiet hours
/// unless critical, through stops and kills, feed changes (a message edited, a pattern changed,
/// an entry withdrawn or back) and a missing notification server.
///
/// 250 seeded scenarios, each a month; `NOTIFY_SCHED_CONFORMANCE_SCENARIOS=10000` runs 10 000
/// (about ten minutes on two cores). A failing scenario names its seed;
/// `NOTIFY_SCHED_CONFORMANCE_SEED=<seed> swift test --filter EventConformanceTests` replays it
/// alone, with what was shown.
@Suite(.computeThreads) struct EventConformanceTests {
    /// Its scenarios, and what they checked.
    static let batches = ConformanceBatches(default: 250, inBatchesOf: 25, from: 0xE7E7_0000, totals: Totals())

    struct Totals {
        var simulatedDays = 0
        var events = 0
        var chosen = 0
        var shown = 0
        var answers = 0
        var prompts = 0
        var kills = 0
        var feedChanges = 0
        var divergences = 0
    }

    @Test(arguments: 0..<batches.count)
    func generatedMonthsChooseWhatTheSeedsSay(batch: Int) throws {
        try Self.batches.run(batch, { try check(seed: $0, verbose: $1) }) { scenarios, totals in
            "event conformance: \(scenarios) scenarios, \(totals.simulatedDays) simulated days, "
                + "\(totals.events) source events, \(totals.chosen) popups chosen, \(totals.shown) shown, "
                + "\(totals.answers) answers, \(totals.prompts) prompts asked with handle, \(totals.kills) kills, "
                + "\(totals.feedChanges) feed changes, \(totals.divergences) divergences"
        }
    }

    private func check(seed: UInt64, verbose: Bool) throws {
        let scenario = EventScenario(seed: seed)
        let parser = FeedParser(zones: systemZones, urlPolicy: URLPolicy(), userZone: scenario.zone)
        let schedules = try scenario.versions.map { feeds in
            try feeds.json.map { feed in
                let parsed = parser.parse(Array(feed.utf8), source: "feed")
                #expect(
                    parsed.diagnostics.filter { $0.severity == .error }.isEmpty,
                    "seed \(seed): the generated feed has no errors")
                return try #require(parsed.schedule, "seed \(seed): the generated feed parses")
            }
        }
        let run = EmbeddedEventRun(scenario, versions: schedules)
        do {
            try run.run()
        } catch {
            Issue.record("seed \(seed): \(error)")
            return
        }
        if verbose || !run.failures.isEmpty {
            Issue.record(
                """
                seed \(seed): \(run.failures.first ?? "no divergence")
                feeds: \(scenario.versions.map { $0.json.joined(separator: "\n") }.joined(separator: "\nthen:\n"))
                iNotify settings: \(scenario.iNotifySettings)
                zone \(scenario.zone.identifier), quiet hours \(scenario.quietHours.map(\.description) ?? "none")
                happenings: \(scenario.happenings.map { "\($0.after.seconds) s: \($0.happening)" })
                shown: \(run.shown.suffix(12))
                the driver's log, last lines:
                \(run.log.suffix(40).joined(separator: "\n"))
                """)
        }
        Self.batches.add {
            $0.simulatedDays += Int(scenario.length.seconds / 86_400)
            $0.events += run.events
            $0.chosen += run.chosen.count
            $0.shown += run.shown.count
            $0.answers += run.answered
            $0.prompts += run.prompted
            $0.kills += run.kills
            $0.feedChanges += scenario.versions.count - 1
            $0.divergences += run.failures.isEmpty ? 0 : 1
        }
    }
}
