// The sources' feeds: how each opened at start, what a check puts in force and records in the
// source's health, when the next check starts, and which `notify-sched sync` calls are answered
// (issue 6, "Polling").
extension DaemonCore {
    /// Whether source `index` has no feed in force: a 304's cached copy then goes in force
    /// (`CheckOutcome.notModified`).
    public func needsFeed(of index: Int) -> Bool {
        planner.schedule(source: index) == nil
    }

    /// How often source `index` is checked: its settings, the period its portal asked for, and
    /// the dialect of its feed in force.
    func policy(of index: Int) -> PollingPolicy {
        let source = polling.sources[index]
        return source.settings.pollingPolicy(
            for: planner.schedule(source: index)?.dialect, portalPeriod: source.health.portalPeriod)
    }

    /// Source `index` opened at start: a file read goes in force like a check (with errors, its
    /// usable entries, the read counting as failed); a portal URL's cached copy goes in force and
    /// its first check is planned; without one it is checked at once.
    mutating func sourceOpened(_ index: Int, _ opening: SourceOpening, at now: Instant) -> [DaemonEffect] {
        switch opening {
        case .read(let outcome):
            return apply(outcome, to: index, at: now).effects
        case .readWithErrors(let load, let failure):
            let effects = putInForce(load, at: now).effects
            return effects + apply(.failed(failure, retryAfter: nil), to: index, at: now).effects
        case .cachedCopy(let load):
            let effects = putInForce(load, at: now).effects
            polling.planFirstCheck(of: index, hasCopy: true, policy: policy(of: index), at: now)
            return effects + [.saveHealth(polling.sources[index].health)]
        case .nothingCached:
            polling.planFirstCheck(of: index, hasCopy: false, policy: policy(of: index), at: now)
            return [.saveHealth(polling.sources[index].health)]
        }
    }

    /// A check of source `index` finished: what it found goes in force (a good feed) or is
    /// logged (a failure); the `sync` calls it completes are answered, after iNotify's manual
    /// check; the checks it held back start.
    mutating func checkFinished(_ index: Int, _ outcome: CheckOutcome, at now: Instant) -> [DaemonEffect] {
        var (effects, report) = apply(outcome, to: index, at: now)
        if let answered = polling.finished(index, report(), at: now) {
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
            + receiptUploads(startingWith: check, at: now)
    }

    /// The machine resumed, or the wall clock stepped, at `now`: a check planned further ahead
    /// than its period allows (on the clock before a step back) is brought forward, and one that
    /// fell due meanwhile is planned anew rather than made at once by every desktop that woke.
    mutating func replanChecks(at now: Instant) {
        let policies = polling.sources.indices.map { policy(of: $0) }
        polling.bringChecksForward(policies: policies, at: now)
        polling.resumed(policies: policies, at: now)
    }

    /// Answers `sync` calls whose checks are all done. After `notify-sched sync` fetched them,
    /// iNotify sources are checked as iNotify's manual check does (seed semantics §5.16): at
    /// once, whatever the periods and the first start.
    private func answers(_ answered: [(token: Int, reports: [SourceCheckReport])]) -> [DaemonEffect] {
        guard !answered.isEmpty else { return [] }
        return [.takeManualCheck] + answered.map { .answerSync(token: $0.token, $0.reports) }
    }

    /// Puts what reading or checking source `index` found in force (after a 304, the cached
    /// copy when no feed is), records it in the source's health, and logs a failure, or what a
    /// new feed changed.
    ///
    /// - Returns: The effects, the last saving the health, and how to make the check's report
    ///   for `sync`: made only when asked for, since a feed read at start answers no call and
    ///   its report has a line per entry.
    private mutating func apply(_ outcome: CheckOutcome, to index: Int, at now: Instant) -> (
        effects: [DaemonEffect], report: () -> SourceCheckReport
    ) {
        let location = polling.sources[index].location
        // What changed is said of a feed that replaced another, not of the first one read.
        let hadFeed = !needsFeed(of: index)
        var effects: [DaemonEffect] = []
        // What a feed put in force changed; nil when none was.
        var changes: ScheduleChanges?
        let report: () -> SourceCheckReport
        switch outcome {
        case .failed(let failure, let retryAfter):
            polling.recordFailure(of: index, failure, retryAfter: retryAfter, policy: policy(of: index), at: now)
            let next = polling.sources[index].health.nextCheck.map { "; next check at \($0.rfc3339)" } ?? ""
            let consequence = hadFeed ? "the feed in force stays" : "nothing of it is in force"
            effects.append(.log(.warning, "\(location): check failed, \(consequence): \(failure.message)\(next)"))
            report = { .failed(location, failure.message) }
        case .notModified(let copy, let etag, let lastModified, let copyTakenAt, let portalPeriod):
            polling.setPortalPeriod(of: index, portalPeriod)
            if !hadFeed, let copy {
                let put = putInForce(copy, at: now)
                (changes, effects) = (put.changes, put.effects)
                report = { .changed(location, put.changes, from: nil, to: copy.schedule) }
            } else {
                report = { .notModified(location) }
            }
            polling.recordSuccess(
                of: index, etag: etag, lastModified: lastModified,
                feedVersion: planner.schedule(source: index)?.version,
                copyTakenAt: copyTakenAt, policy: policy(of: index), at: now)
        case .loaded(let load, let etag, let lastModified, let portalPeriod):
            polling.setPortalPeriod(of: index, portalPeriod)
            let old = planner.schedule(source: index)
            let put = putInForce(load, at: now)
            (changes, effects) = (put.changes, put.effects)
            polling.recordSuccess(
                of: index, etag: etag, lastModified: lastModified, feedVersion: load.schedule.version,
                copyTakenAt: now, policy: policy(of: index), at: now)
            report = { .changed(location, put.changes, from: old, to: load.schedule) }
        }
        if hadFeed, let changes, !changes.isEmpty { effects.append(.log(.info, "\(location): \(changes.counts)")) }
        return (effects + [.saveHealth(polling.sources[index].health)], report)
    }
}
