// The sources' feeds: how each opened at start, what a check puts in force and records in the
// source's health, when the next check starts, and which `notify-sched sync` calls are answered
// (issue 6, "Polling").
extension DaemonCore {
    /// How often source `index` is checked: its settings, for the dialect of its feed in force.
    func policy(of index: Int) -> PollingPolicy {
        polling.sources[index].settings.pollingPolicy(for: planner.schedule(source: index)?.dialect)
    }

    /// Source `index` opened at start: a file read goes in force like a check; a portal URL's
    /// cached copy goes in force and its first check is planned; without one it is checked at once.
    mutating func sourceOpened(_ index: Int, _ opening: SourceOpening, at now: Instant) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        switch opening {
        case .read(let outcome):
            return apply(outcome, to: index, at: now).effects
        case .cachedCopy(let load):
            effects = putInForce(load, at: now).effects
            polling.planFirstCheck(of: index, hasCopy: true, policy: policy(of: index), at: now)
        case .nothingCached:
            polling.planFirstCheck(of: index, hasCopy: false, policy: policy(of: index), at: now)
        }
        return effects + [.saveHealth(polling.sources[index].health)]
    }

    /// A check of source `index` finished: what it found goes in force (a good feed) or is
    /// logged (a failure); the `sync` calls it completes are answered, after iNotify's manual
    /// check; the checks it held back start.
    mutating func checkFinished(_ index: Int, _ outcome: CheckOutcome, at now: Instant) -> [DaemonEffect] {
        let location = polling.sources[index].location
        var (effects, report, changes) = apply(outcome, to: index, at: now)
        if case .failed(let reason, _) = outcome {
            let next = polling.sources[index].health.nextCheck.map { "; next check at \($0.rfc3339)" } ?? ""
            effects.append(.log("\(location): check failed, the feed in force stays: \(reason)\(next)"))
        } else if let changes, !changes.isEmpty {
            effects.append(.log(report.lines[0]))
        }
        if let answered = polling.finished(index, report) {
            effects += answers(answered)
            // The check's parse peaked well above what the schedule keeps.
            if !polling.isChecking { effects.append(.releaseFreedMemory) }
        }
        return effects + startDueChecks(at: now)
    }

    /// Starts the checks due at `now` and those `sync` calls wait for, as many as may run at once.
    mutating func startDueChecks(at now: Instant) -> [DaemonEffect] {
        guard polling.hasChecksToStart(at: now) else { return [] }
        let (check, answered) = polling.startDueChecks(at: now)
        return answers(answered) + check.map { .startCheck(source: $0) }
    }

    /// The wall clock stepped: a check planned further ahead than its period allows, on the
    /// clock before a step back, is brought forward.
    mutating func bringChecksForward(at now: Instant) {
        var policies: [PollingPolicy] = []
        for index in polling.sources.indices { policies.append(policy(of: index)) }
        polling.bringChecksForward(policies: policies, at: now)
    }

    /// Answers `sync` calls whose checks are all done. After `notify-sched sync` fetched them,
    /// iNotify sources are checked as iNotify's manual check does (seed semantics §5.16): at
    /// once, whatever the periods and the first start.
    private func answers(_ answered: [(token: Int, reports: [SourceCheckReport])]) -> [DaemonEffect] {
        guard !answered.isEmpty else { return [] }
        return [.takeManualCheck] + answered.map { .answerSync(token: $0.token, $0.reports) }
    }

    /// Puts what reading or checking source `index` found in force, and records it in the
    /// source's health.
    ///
    /// - Returns: The effects, the last saving the health; the check's report for `sync`; and
    ///   what changed, when a feed was put in force.
    private mutating func apply(_ outcome: CheckOutcome, to index: Int, at now: Instant) -> (
        effects: [DaemonEffect], report: SourceCheckReport, changes: ScheduleChanges?
    ) {
        let location = polling.sources[index].location
        var effects: [DaemonEffect] = []
        var changes: ScheduleChanges?
        let report: SourceCheckReport
        switch outcome {
        case .failed(let reason, let retryAfter):
            polling.recordFailure(of: index, reason, retryAfter: retryAfter, policy: policy(of: index), at: now)
            report = .failed(location, reason)
        case .notModified(let etag, let lastModified, let copyTakenAt):
            polling.recordSuccess(
                of: index, etag: etag, lastModified: lastModified,
                feedVersion: planner.schedule(source: index)?.version,
                copyTakenAt: copyTakenAt, policy: policy(of: index), at: now)
            report = .notModified(location)
        case .loaded(let load, let etag, let lastModified):
            let old = planner.schedule(source: index)?.entries ?? []
            let put = putInForce(load, at: now)
            (changes, effects) = (put.changes, put.effects)
            polling.recordSuccess(
                of: index, etag: etag, lastModified: lastModified, feedVersion: load.schedule.version,
                copyTakenAt: now, policy: policy(of: index), at: now)
            report = .changed(location, put.changes, from: old, to: load.schedule.entries)
        }
        return (effects + [.saveHealth(polling.sources[index].health)], report, changes)
    }
}
