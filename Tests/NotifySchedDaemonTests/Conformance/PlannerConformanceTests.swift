import NotifySchedCore
import NotifySchedTesting
import Testing

/// The daemon's decisions about timed entries, made by the real driver (`EmbeddedConformanceRun`)
/// in virtual time through generated months and compared with what the schedule says
/// (`DeliveryOracle`): never early, never twice but for a crash or a reminder, never lost,
/// nothing expired or outside the application version, nothing after Ignore, a reminded
/// occurrence back after the remind period, through restarts, kills, clock steps, zone changes,
/// a missing server and changes of the feed. Under caps (`CapOracle`): every occurrence the
/// schedule says is shown or suppressed, no popup goes out beyond a cap in force, and no
/// suppression is needless.
///
/// 250 seeded scenarios, each a month of true time; `NOTIFY_SCHED_CONFORMANCE_SCENARIOS=10000`
/// runs 10 000 (about five minutes on two cores). A failing scenario names its seed;
/// `NOTIFY_SCHED_CONFORMANCE_SEED=<seed> swift test --filter PlannerConformanceTests` replays it
/// alone, with what was shown and what was expected.
@Suite(.computeThreads) struct PlannerConformanceTests {
    /// Its scenarios, and what they checked.
    static let batches = ConformanceBatches(default: 250, inBatchesOf: 25, from: 0xC0DE_0000, totals: Totals())

    struct Totals {
        var simulatedDays = 0
        var showsChecked = 0
        var coreEvents = 0
        var timerEventsBeforeAnswers = 0
        var divergences = 0
        var answers = 0
        var feedChanges = 0
        var suppressions = 0
        var impressions = 0
        var overShows = 0
        var needlessSuppressions = 0
    }

    @Test(arguments: 0..<batches.count)
    func generatedMonthsShowExactlyWhatTheScheduleSays(batch: Int) throws {
        try Self.batches.run(batch, { try check(seed: $0, verbose: $1) }) { scenarios, totals in
            "planner conformance: \(scenarios) scenarios, \(totals.simulatedDays) simulated days, "
                + "\(totals.showsChecked) popups checked, \(totals.answers) answers, \(totals.feedChanges) feed changes, "
                + "\(totals.coreEvents) events handed to the core, "
                + "\(totals.timerEventsBeforeAnswers) of the timer's before the server's answers to earlier popups, "
                + "\(totals.impressions) impressions and \(totals.suppressions) suppressions checked against the caps, "
                + "\(totals.overShows) over-shows, \(totals.needlessSuppressions) needless suppressions, "
                + "\(totals.divergences) divergences"
        }
    }

    /// Whether an entry with suppressions did what the schedule says: each popup it showed is
    /// one expected, and each popup expected was shown or its occurrence suppressed
    /// (`Shown.stands(for:)`). A suppression needs no server: while none is there, the
    /// occurrences a catch-up would fold into one popup are each suppressed at their time.
    static func matches(
        _ shown: [EmbeddedConformanceRun.Shown], suppressed decided: [EmbeddedConformanceRun.Shown],
        _ expected: [EmbeddedConformanceRun.Shown]
    ) -> Bool {
        var unmatched = shown
        for popup in expected {
            if let index = unmatched.firstIndex(of: popup) {
                unmatched.remove(at: index)
            } else if !decided.contains(where: { $0.suppressed && $0.stands(for: popup) }) {
                return false
            }
        }
        return unmatched.isEmpty
    }

    private func check(seed: UInt64, verbose: Bool) throws {
        let scenario = ConformanceScenario(seed: seed)
        let parser = FeedParser(
            zones: systemZones, urlPolicy: URLPolicy(extraSchemes: ["zbimdb"]), userZone: scenario.zone)
        let schedules = try scenario.feeds.map { feed in
            let parsed = parser.parse(Array(feed.utf8), source: "feed")
            #expect(
                parsed.diagnostics.filter { $0.severity == .error }.isEmpty,
                "seed \(seed): the generated feed has no errors")
            return try #require(parsed.schedule, "seed \(seed): the generated feed parses")
        }
        let daemon = EmbeddedConformanceRun(scenario, schedules: schedules)
        do {
            try daemon.run()
        } catch {
            Issue.record("seed \(seed): \(error)")
            return
        }
        var checked = 0
        var diverged = 0
        let answers = daemon.segments.flatMap(\.answers)
        // A suppressed occurrence stands where the schedule says a popup: settled as if shown.
        let decided =
            daemon.shown
            + daemon.suppressed.map {
                EmbeddedConformanceRun.Shown(
                    entryID: $0.entryID, occurrence: $0.occurrence, at: $0.at, suppressed: true)
            }
        var ids: [String] = []
        for schedule in schedules {
            for entry in schedule.entries where !ids.contains(entry.id) { ids.append(entry.id) }
        }
        for id in ids {
            let definitions = schedules.map { $0.entries.first { $0.id == id } }
            let oracle = DeliveryOracle(
                id: id, definitions: definitions, quietHours: scenario.quietHours,
                applicationVersion: scenario.applicationVersion, remindPeriod: scenario.remindPeriod)
            let expected = oracle.expectedShows(segments: daemon.segments, shown: decided)
            let shown = daemon.shown.filter { $0.entryID == id }
            let suppressed = daemon.suppressed.filter { $0.entryID == id }
            let actual = suppressed.isEmpty ? shown : decided.filter { $0.entryID == id }
            let diverges = suppressed.isEmpty ? actual != expected : !Self.matches(shown, suppressed: actual, expected)
            checked += expected.count
            if diverges { diverged += 1 }
            if verbose || diverges {
                let firstDifference =
                    (0..<min(actual.count, expected.count)).first { actual[$0] != expected[$0] }
                    ?? min(actual.count, expected.count)
                Issue.record(
                    """
                    seed \(seed): \(id) diverges from its schedule at popup \(firstDifference) \
                    (\(actual.count) shown, \(expected.count) expected).
                    shown:    \(actual.dropFirst(max(0, firstDifference - 2)).prefix(5))
                    expected: \(expected.dropFirst(max(0, firstDifference - 2)).prefix(5))
                    feeds: \(scenario.feeds.joined(separator: "\n"))
                    zone \(scenario.zone.identifier), quiet hours \(scenario.quietHours.map(\.description) ?? "none")
                    disruptions: \(scenario.disruptions.map { "\($0.after.seconds) s: \($0.disruption)" })
                    remind period \(scenario.remindPeriod.seconds) s, answers: \(answers.filter { $0.entryID == id })
                    suppressed: \(suppressed)
                    segments:
                    \(daemon.segments.map(\.description).joined(separator: "\n"))
                    """)
            }
            for (index, popup) in shown.enumerated() {
                // Shown again (after a crash, or as a reminder): the wall clock may have stepped back since.
                let isFirstShow = !shown[..<index].contains { $0.occurrence == popup.occurrence }
                #expect(!isFirstShow || popup.at >= popup.occurrence, "seed \(seed): \(popup) came early")
                // After every definition's expiry, whichever was in force.
                let expiries = definitions.compactMap { $0?.expires }
                if expiries.count == definitions.compactMap({ $0 }).count, let last = expiries.max() {
                    #expect(popup.at < last, "seed \(seed): \(popup) after it expired")
                }
            }
            let distinct = Set(shown.map(\.occurrence)).count
            let reminders = answers.filter { $0.entryID == id && $0.choice == .remind }.count
            #expect(
                shown.count - distinct <= daemon.crashes + reminders,
                "seed \(seed): \(id) shown twice more often than the daemon crashed or was asked to remind")
            if let ignored = answers.first(where: { $0.entryID == id && $0.choice == .ignore }) {
                #expect(
                    !daemon.shown[ignored.shownBefore...].contains { $0.entryID == id },
                    "seed \(seed): \(id) shown after it was ignored at \(ignored.at.rfc3339)")
            }
        }
        let caps = CapOracle(schedules: schedules, maxPopups: scenario.maxPopups).violations(
            shown: daemon.shown, suppressed: daemon.suppressed)
        for problem in caps.overShows + caps.needless {
            Issue.record(
                """
                seed \(seed): \(problem)
                feeds: \(scenario.feeds.joined(separator: "\n"))
                max-popups: \(scenario.maxPopups.map { "\($0.count)/\($0.period.rough)" } ?? "none")
                shown: \(daemon.shown)
                suppressed: \(daemon.suppressed)
                """)
        }
        Self.batches.add {
            $0.suppressions += daemon.suppressed.count
            $0.impressions += caps.impressions
            $0.overShows += caps.overShows.count
            $0.needlessSuppressions += caps.needless.count
            $0.simulatedDays += Int(scenario.length.seconds / 86_400)
            $0.showsChecked += checked
            $0.coreEvents += daemon.steps
            $0.timerEventsBeforeAnswers += daemon.timerEventsBeforeAnswers
            $0.divergences += diverged
            $0.answers += answers.count
            $0.feedChanges += scenario.feeds.count - 1
        }
    }
}
