import NotifySchedCore
import NotifySchedTesting
import Testing

/// `notify-sched preview`'s timelines (`PreviewRun`) compared with what the schedule says a
/// daemon started at the window's start must show (`DeliveryOracle`, one segment: no restart,
/// a server there, no answer, the scenario's quiet hours) and with what the caps allow (`CapOracle`), over generated feeds
/// of every kind of entry, with caps, groups, targeting and rollouts: each popup the preview
/// shows is one the oracle expects, each one expected shows or is suppressed for a reason that
/// holds, and every occurrence of the window that does not show has a reason.
///
/// 250 seeded feeds, each previewed for 30 days; `NOTIFY_SCHED_CONFORMANCE_SCENARIOS` runs more
/// and `NOTIFY_SCHED_CONFORMANCE_SEED` replays one, as in `PlannerConformanceTests`.
@Suite(.computeThreads) struct PreviewConformanceTests {
    static let batches = ConformanceBatches(default: 250, inBatchesOf: 50, from: 0x9E71_0000, totals: Totals())

    struct Totals {
        var occurrences = 0
        var shows = 0
        var suppressed = 0
        var folded = 0
        var divergences = 0
    }

    @Test(arguments: 0..<batches.count)
    func previewsShowExactlyWhatTheScheduleSaysWithAReasonForTheRest(batch: Int) throws {
        try Self.batches.run(batch, { try check(seed: $0, verbose: $1) }) { scenarios, totals in
            "preview conformance: \(scenarios) feeds previewed for 30 days, \(totals.occurrences) occurrences: "
                + "\(totals.shows) shown, \(totals.folded) folded, \(totals.suppressed) suppressed; "
                + "\(totals.divergences) divergences"
        }
    }

    private func check(seed: UInt64, verbose: Bool) throws {
        let scenario = ConformanceScenario(seed: seed)
        let parser = FeedParser(
            zones: systemZones, urlPolicy: URLPolicy(extraSchemes: ["zbimdb"]), userZone: scenario.zone)
        let schedule = try #require(parser.parse(Array(scenario.feeds[0].utf8), source: "feed").schedule)
        let window = scenario.start..<(scenario.start + scenario.length)
        let timeline = PreviewRun.timeline(
            of: [schedule],
            for: PreviewProfile(
                zone: scenario.zone, applicationVersion: scenario.applicationVersion, tags: ConformanceScenario.tags,
                installID: "a desktop", maxPopups: scenario.maxPopups, quietHours: scenario.quietHours),
            in: window)
        #expect(timeline.cutShortAt == nil, "seed \(seed): the whole month fits in a timeline")

        let shows = timeline.occurrences.filter { $0.outcome == .shows }
        let shown = shows.enumerated().map { place, row in
            EmbeddedConformanceRun.Shown(entryID: row.entryID, occurrence: row.due, at: row.at, place: place)
        }
        let suppressed = timeline.occurrences.compactMap { row -> EmbeddedConformanceRun.Suppressed? in
            guard case .suppression(let reason)? = row.reason else { return nil }
            return EmbeddedConformanceRun.Suppressed(
                entryID: row.entryID, occurrence: row.due, at: row.at, reason: reason, feedVersion: 0,
                shownBefore: shows.count { $0.at <= row.at })
        }
        let decided =
            shown
            + suppressed.map {
                EmbeddedConformanceRun.Shown(
                    entryID: $0.entryID, occurrence: $0.occurrence, at: $0.at, suppressed: true)
            }
        // The popups of the window's occurrences that quiet hours hold past its end are in it too.
        let segment = EmbeddedConformanceRun.Segment(
            start: window.lowerBound, end: window.upperBound + .days(1), zone: scenario.zone, feedVersion: 0,
            watchedFrom: window.lowerBound, serverChanges: [], serverPresentAtStart: true)
        var diverged = 0
        for entry in schedule.entries {
            let oracle = DeliveryOracle(
                id: entry.id, definitions: [entry], quietHours: scenario.quietHours,
                applicationVersion: scenario.applicationVersion,
                remindPeriod: scenario.remindPeriod)
            let expected = oracle.expectedShows(segments: [segment], shown: decided).filter {
                $0.occurrence < window.upperBound
            }
            let own = decided.filter { $0.entryID == entry.id }
            let ownShown = shown.filter { $0.entryID == entry.id }
            if verbose || !PlannerConformanceTests.matches(ownShown, suppressed: own, expected) {
                diverged += 1
                Issue.record(
                    """
                    seed \(seed): the preview of \(entry.id) diverges from its schedule.
                    preview:  \(own)
                    expected: \(expected)
                    feed: \(scenario.feeds[0])
                    zone \(scenario.zone.identifier), from \(window.lowerBound.rfc3339)
                    """)
            }
            // Every occurrence of the window has a row, unless the entry is left out of the
            // window as a whole with why; and each row that does not show says why.
            let rows = timeline.occurrences.filter { $0.entryID == entry.id }
            let leftOut = timeline.quietEntries.contains { $0.entryID == entry.id }
            for due in entry.trigger == .immediate || leftOut
                ? []
                : entry.trigger.occurrences(
                    in: window.lowerBound.nextMicrosecond..<window.upperBound, limit: 100_000, userZone: scenario.zone)
            where !rows.contains(where: { $0.due == due }) {
                Issue.record("seed \(seed): \(entry.id)'s occurrence due \(due.rfc3339) is not in the preview")
            }
            for row in rows where (row.outcome == .shows) != (row.reason == nil) {
                Issue.record("seed \(seed): \(row) has an outcome and a reason that disagree")
            }
        }
        let caps = CapOracle(schedules: [schedule], maxPopups: scenario.maxPopups).violations(
            shown: shown, suppressed: suppressed)
        for problem in caps.overShows + caps.needless {
            Issue.record("seed \(seed): \(problem)\nfeed: \(scenario.feeds[0])")
        }
        if verbose {
            for row in timeline.occurrences where row.outcome != .shows {
                print("\(row.entryID) due \(row.due.rfc3339) at \(row.at.rfc3339): \(row.reason?.code ?? "-")")
            }
        }
        Self.batches.add {
            $0.occurrences += timeline.occurrences.count
            $0.shows += shows.count
            $0.suppressed += timeline.occurrences.count { $0.outcome == .suppressed }
            $0.folded += timeline.occurrences.count { $0.outcome == .folded }
            $0.divergences += diverged
        }
    }
}
