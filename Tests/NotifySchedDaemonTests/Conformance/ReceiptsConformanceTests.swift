import Foundation
import NotifySchedCore
import NotifySchedStore
import NotifySchedTesting
import Testing

/// Receipts through generated months of the real driver in virtual time: the planner
/// conformance's feeds and disruptions (restarts, kill -9 in the middle of a popup, downtimes,
/// clock steps, zone changes, a missing server, feed changes), and suspends, a collector that
/// answers 503 and 429 storms, loses answers, and days offline, and a user who answers popups.
/// What the collector holds after its dedupe on `receipt.id`, with what is still queued, is
/// exactly what the ledger says was shown, missed and suppressed, per entry (0 lost, 0
/// doubled); no more than one body a day reaches the collector; answers are counted at least
/// once per answered line.
///
/// 60 seeded scenarios, each a month of true time; `NOTIFY_SCHED_CONFORMANCE_SCENARIOS=10000`
/// runs 10 000. A failing scenario names its seed; `NOTIFY_SCHED_CONFORMANCE_SEED=<seed>`
/// replays it alone.
@Suite(.computeThreads) struct ReceiptsConformanceTests {
    static let batches = ConformanceBatches(default: 60, inBatchesOf: 15, from: 0x4EC3_0000, totals: Totals())

    struct Totals {
        var simulatedDays = 0
        var shown = 0
        var missed = 0
        var suppressed = 0
        var answers = 0
        var uploads = 0
        var refusals = 0
        var lostAnswers = 0
        var kills = 0
        var lost = 0
        var doubled = 0
        var daysWithTwoUploads = 0
    }

    @Test(arguments: 0..<batches.count)
    func theCollectorsCountsAfterDedupeAreTheLedgers(batch: Int) throws {
        var bodies: [String] = []
        try Self.batches.run(batch, { bodies += try check(seed: $0, verbose: $1) }) { scenarios, totals in
            "receipts conformance: \(scenarios) scenarios, \(totals.simulatedDays) simulated days, "
                + "\(totals.shown) shown, \(totals.missed) missed and \(totals.suppressed) suppressed counted, "
                + "\(totals.answers) answers, \(totals.kills) kills, \(totals.uploads) bodies taken, "
                + "\(totals.refusals) refusals, \(totals.lostAnswers) lost answers; "
                + "\(totals.lost) lost, \(totals.doubled) doubled, "
                + "\(totals.daysWithTwoUploads) days with two uploads"
        }
        try expectValidOTLP(bodies)
    }

    /// Plays the scenario of `seed` and checks its receipts against its ledger.
    ///
    /// - Returns: The bodies the collector took, for the OTLP schema.
    private func check(seed: UInt64, verbose: Bool) throws -> [String] {
        let run = try ReceiptsRun(seed: seed)
        try run.play()
        let daemon = run.daemon
        let source = daemon.path(of: "feed")
        // What reached the collector and what waits, each record once.
        var counts: [String: [String: Int]] = [:]
        var seen = Set<String>()
        try TestCollector.add(daemon.collector.received, to: &counts, seen: &seen)
        try TestCollector.add(try daemon.store.receiptBatches().map(\.body), to: &counts, seen: &seen)
        for tally in try daemon.store.openReceipts(of: source) {
            for (counter, count) in tally.counts {
                counts[tally.entryID, default: [:]][counter.description, default: 0] += count
            }
        }
        // The ledger keeps every line for 90 days of the daemon's clock, which a month with its
        // downtimes and clock steps stays within: then it has a line for each count.
        if let pruned = daemon.log.first(where: { $0.contains("pruned") }) {
            Issue.record("seed \(seed): the ledger was pruned, so it cannot be compared with the receipts: \(pruned)")
        }
        // What the ledger says of each entry.
        var ledger: [String: [String: Int]] = [:]
        var answered: [String: Int] = [:]
        for record in try daemon.store.history(since: Instant(microseconds: 0), source: source).map(\.record) {
            let counter: String
            switch record.outcome {
            case .missed: counter = "missed"
            case .suppressed: counter = "suppressed." + (record.suppression?.code ?? "unknown")
            case .acted, .ignored, .reminded:
                answered[record.entryID, default: 0] += 1
                counter = "shown"
            case .delivered, .closed: counter = "shown"
            }
            ledger[record.entryID, default: [:]][counter, default: 0] += 1
        }
        var lost = 0
        var doubled = 0
        for entry in Set(ledger.keys).union(counts.keys) {
            let kept = ledger[entry] ?? [:]
            let sent = (counts[entry] ?? [:]).filter {
                $0.key == "shown" || $0.key == "missed" || $0.key.hasPrefix("suppressed.")
            }
            for counter in Set(kept.keys).union(sent.keys) {
                let difference = (sent[counter] ?? 0) - (kept[counter] ?? 0)
                if difference < 0 { lost -= difference }
                if difference > 0 { doubled += difference }
            }
            let answers = (counts[entry] ?? [:]).filter {
                ["acted.open", "acted.ok", "dismissed", "snoozed"].contains($0.key)
            }
            .values.reduce(0, +)
            if answers < answered[entry] ?? 0 {
                Issue.record(
                    "seed \(seed): \(entry) has \(answered[entry] ?? 0) answered lines, \(answers) answers counted")
            }
            if difference(kept, sent) || verbose {
                Issue.record(
                    """
                    seed \(seed): the receipts of \(entry) are not the ledger's
                    receipts: \(sent.sorted { $0.key < $1.key })
                    ledger:   \(kept.sorted { $0.key < $1.key })
                    """)
            }
        }
        // At most one body a day, by the desktop's clock; a body sent again counts once.
        var days: [ReceiptDay: Set<String>] = [:]
        for (body, at) in zip(daemon.collector.received, daemon.collector.receivedAt) {
            if let batch = TestCollector.batchID(of: body) { days[ReceiptDay(at), default: []].insert(batch) }
        }
        let twice = days.filter { $0.value.count > 1 }
        if !twice.isEmpty { Issue.record("seed \(seed): two bodies in a day: \(twice.keys.sorted())") }
        Self.batches.add {
            $0.simulatedDays += 30
            $0.shown += ledger.values.reduce(0) { $0 + ($1["shown"] ?? 0) }
            $0.missed += ledger.values.reduce(0) { $0 + ($1["missed"] ?? 0) }
            $0.suppressed += ledger.values.reduce(0) {
                $0 + $1.filter { $0.key.hasPrefix("suppressed.") }.values.reduce(0, +)
            }
            $0.answers += run.answers
            $0.kills += run.kills
            $0.uploads += Set(daemon.collector.received).count
            $0.refusals += run.refusals
            $0.lostAnswers += run.lostAnswers
            $0.lost += lost
            $0.doubled += doubled
            $0.daysWithTwoUploads += twice.count
        }
        return daemon.collector.received
    }

    private func difference(_ kept: [String: Int], _ sent: [String: Int]) -> Bool {
        kept.filter { $0.value > 0 } != sent.filter { $0.value > 0 }
    }
}

/// One generated month of a desktop with receipts on (`ReceiptsConformanceTests`): the planner
/// conformance's scenario, with receipts' own happenings drawn from a stream of their own.
private final class ReceiptsRun {
    /// Something that happens, beside the planner conformance's disruptions.
    enum Happening {
        case disruption(ConformanceScenario.Disruption)
        case serverBack
        /// The machine sleeps for the span.
        case suspend(TimeSpan)
        /// The collector answers its next posts so.
        case storm([TestCollector.Answer])
        case offline(Bool)
    }

    let scenario: ConformanceScenario
    let daemon: EmbeddedDaemon
    private var happenings: [(after: TimeSpan, happening: Happening)]
    private var random: SplitMix64
    private(set) var answers = 0
    private(set) var kills = 0
    private(set) var refusals = 0
    private(set) var lostAnswers = 0

    init(seed: UInt64) throws {
        let scenario = ConformanceScenario(seed: seed)
        self.scenario = scenario
        var random = SplitMix64(seed: seed ^ 0x4EC3_1975)
        func at() -> TimeSpan {
            TimeSpan(microseconds: Int64.random(in: 1..<scenario.length.microseconds, using: &random))
        }
        var happenings = scenario.disruptions.map { ($0.after, Happening.disruption($0.disruption)) }
        for (after, disruption) in scenario.disruptions {
            if case .serverAbsent(let span) = disruption { happenings.append((after + span, .serverBack)) }
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            happenings.append((at(), .suspend(.seconds(Int64.random(in: 600...129_600, using: &random)))))
        }
        var refusals = 0
        var lostAnswers = 0
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let answers = (0..<Int.random(in: 1...6, using: &random)).map { _ -> TestCollector.Answer in
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    lostAnswers += 1
                    return .takeAndLoseAnswer
                case 1:
                    refusals += 1
                    return .refuse(429, retryAfter: .delay(.seconds(Int64.random(in: 1...21_600, using: &random))))
                default:
                    refusals += 1
                    return .refuse(503, retryAfter: Bool.random(using: &random) ? nil : .delay(.seconds(120)))
                }
            }
            happenings.append((at(), .storm(answers)))
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let from = at()
            happenings.append((from, .offline(true)))
            happenings.append((from + .days(Int64.random(in: 1...3, using: &random)), .offline(false)))
        }
        self.happenings = happenings.sorted { $0.0 < $1.0 }
        self.random = random
        self.refusals = refusals
        self.lostAnswers = lostAnswers
        let period = [TimeSpan.hours(1), .hours(3), .hours(6)].randomElement(using: &self.random)!
        daemon = try EmbeddedDaemon(
            feeds: [("feed", scenario.feeds[0])], at: scenario.start, zone: scenario.zone.identifier
        ) {
            $0.extraSchemes = ["zbimdb"]
            $0.quietHours = scenario.quietHours
            $0.sources[0].settings.iNotify.remindPeriod = scenario.remindPeriod
            $0.sources[0].settings.iNotify.applicationVersion = scenario.applicationVersion
            $0.sources[0].settings.fetchPeriod = period
            $0.sources[0].settings.receipts = ReceiptSettings(
                mode: .counts, endpoint: "https://collector.example.org/v1/logs")
            $0.maxPopups = scenario.maxPopups
            $0.tags = ConformanceScenario.tags
        }
    }

    /// Plays the month: the happenings at their instants of true time, the user's answers
    /// between them, and a last upload of what waits at the end.
    func play() throws {
        var trueTime = TimeSpan.zero
        var offset = TimeSpan.zero
        let desktop = daemon.desktop
        func wall() -> Instant { scenario.start + trueTime + offset }
        var pending = happenings[...]
        // Until then the daemon is down: a restart meanwhile is no event.
        var downUntil = TimeSpan.zero
        while trueTime < scenario.length {
            let step = TimeSpan(microseconds: Int64.random(in: 60_000_000...14_400_000_000, using: &random))
            let next = min(trueTime + step, pending.first?.after ?? scenario.length, scenario.length)
            trueTime = next
            daemon.advance(to: wall())
            try restartIfCrashed(after: .minutes(Int64.random(in: 1...600, using: &random)))
            answerSomePopups()
            while let (after, happening) = pending.first, after <= trueTime {
                pending.removeFirst()
                switch happening {
                case .disruption(.restart(let downtime, let crash)):
                    guard after >= downUntil else { continue }
                    if crash {
                        desktop.crashesOnNextPopup = true
                    } else {
                        daemon.stop()
                        trueTime = trueTime + downtime
                        downUntil = trueTime
                        daemon.clock.set(wall())
                        try daemon.start()
                    }
                case .disruption(.clockStep(let step)):
                    offset = offset + step
                    daemon.stepClock(by: step)
                case .disruption(.zoneChange(let zone)):
                    try daemon.changeSystemZone(to: zone.identifier)
                case .disruption(.serverAbsent):
                    if desktop.server != nil { desktop.serverGoes() }
                case .serverBack:
                    if desktop.server == nil { desktop.serverComes() }
                case .disruption(.feedChange(let version)):
                    try daemon.edit("feed", to: scenario.feeds[version])
                case .suspend(let span):
                    trueTime = trueTime + span
                    daemon.clock.set(wall())
                    daemon.resume()
                case .storm(let answers):
                    daemon.collector.answerNext(answers)
                case .offline(let down):
                    daemon.collector.offline = down
                }
            }
        }
        daemon.stop()
    }

    /// Kills and starts again the driver that died in the middle of a popup, after `downtime`.
    private func restartIfCrashed(after downtime: TimeSpan) throws {
        guard daemon.desktop.crashed else { return }
        kills += 1
        daemon.kill()
        daemon.desktop.crashesOnNextPopup = false
        daemon.clock.set(daemon.clock.now + downtime)
        try daemon.start()
    }

    /// The user answers a third of the popups on screen: a button, a dismissal, or lets it expire.
    private func answerSomePopups() {
        let desktop = daemon.desktop
        for key in desktop.waitingKeys.sorted(by: { $0.occurrenceID < $1.occurrenceID })
        where key.role == .scheduled && Int.random(in: 0..<3, using: &random) == 0 {
            let buttons = desktop.shown.last { $0.popup.key == key }?.popup.buttons.map(\.key) ?? []
            let responses = buttons.map(PopupResponse.action) + [.closed(.dismissed), .closed(.expired)]
            answers += 1
            daemon.answer(key, responses.randomElement(using: &random)!)
        }
    }
}
