import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// One source's check, as the fetch worker hands it to the loop.
struct CheckResult: Sendable {
    var source: Int
    var feed: LoadedPortalFeed
}

/// The daemon's polling: the checks under way and the `Sync` calls waiting for them.
///
/// Which checks start and which calls they answer is `SourceChecks`' decision. Each check runs
/// on a `WorkerThread` of its own (a fetch and a parse block), at most `SourceChecks.defaultLimit`
/// at once, and comes back to the loop through the daemon's `LoopMailbox`.
struct Polling {
    var checks = SourceChecks<SourceCheckReport>()
    /// The `Sync` calls waiting, by the id `checks` gave them.
    var answering: [Int: ([SourceCheckReport]) -> Void] = [:]
    /// Draws the backoff's jitter and the first checks' spread.
    var generator = SystemRandomNumberGenerator()
}

// Checking the sources on their periods (issue 6, "Polling"), and `notify-sched sync`.
extension Daemon {
    /// The earliest planned check of any source; the timer is armed for it too.
    var nextCheck: Instant? {
        sources.lazy.compactMap(\.health.nextCheck).min()
    }

    /// Checks every source now, ignoring periods and backoff, and calls `answer` on the loop with
    /// what each check found once all are done (`notify-sched sync`). A check under way when it
    /// comes is followed by a fresh one.
    func syncSources(answer: @escaping ([SourceCheckReport]) -> Void) {
        var known: [Int: SourceCheckReport] = [:]
        for (index, source) in sources.enumerated() {
            if let refusal = source.refusal { known[index] = .failed(source.location, refusal) }
        }
        let id = polling.checks.requestSync(of: sources.indices.filter { sources[$0].refusal == nil }, known: known)
        polling.answering[id] = answer
        startDueChecks(at: WallClock.now())
        armTimer()
    }

    /// Starts the checks that are due at `now` and those `Sync` calls wait for, as many as may
    /// run at once. A check planned further ahead than its policy allows (the wall clock
    /// stepped back) is brought forward first.
    func startDueChecks(at now: Instant) {
        for index in sources.indices {
            let latest = sources[index].health.latestCheck(now: now, policy: policy(of: index))
            if let next = sources[index].health.nextCheck, next > latest { sources[index].health.nextCheck = latest }
        }
        let due = sources.indices.filter { index in
            sources[index].refusal == nil && sources[index].health.nextCheck.map { $0 <= now } ?? false
        }
        let (chosen, answered) = polling.checks.start(due: due)
        answerSyncs(answered)
        for index in chosen {
            sources[index].health.nextCheck = nil
            startCheck(of: index, at: now)
        }
    }

    /// The loop's side of the mailbox: applies every check the workers finished.
    func checkResultsArrived() {
        let now = WallClock.now()
        for result in checkResults.take() { checkFinished(result, at: now) }
        armTimer()
    }

    /// Checks source `index` on a worker thread of its own.
    private func startCheck(of index: Int, at now: Instant) {
        let location = sources[index].location
        let publicKey = sources[index].publicKey
        let loader = loader
        let parser = parser
        let mailbox = checkResults
        do {
            try WorkerThread.start {
                let feed = loader.load(
                    location, publicKey: publicKey, parser: parser, now: WallClock.now(), allowCacheFallback: false)
                mailbox.post(CheckResult(source: index, feed: feed))
            }
        } catch {
            let feed = LoadedPortalFeed(location: location, failure: "\(location): \(error.message)")
            checkFinished(CheckResult(source: index, feed: feed), at: now)
        }
    }

    private func checkFinished(_ result: CheckResult, at now: Instant) {
        let report = apply(result.feed, to: result.source, at: now)
        answerSyncs(polling.checks.finished(result.source, report))
        // The parses' peak is gone; give their freed pages back, as after the first load.
        if polling.checks.running.isEmpty { FreedMemory.release() }
        startDueChecks(at: now)
    }

    /// Answers the `Sync` calls whose checks are all done. After `notify-sched sync` fetched
    /// them, iNotify sources are checked as iNotify's manual check does: at once, whatever the
    /// periods and the first start.
    private func answerSyncs(_ answered: [(sync: Int, reports: [SourceCheckReport])]) {
        guard !answered.isEmpty else { return }
        checkINotifySourcesNow(at: WallClock.now())
        for (id, reports) in answered { polling.answering.removeValue(forKey: id)?(reports) }
    }

    /// Puts a checked feed in force when it is good, and records the check in the source's health.
    private func apply(_ loaded: LoadedPortalFeed, to index: Int, at now: Instant) -> SourceCheckReport {
        let location = sources[index].location
        for warning in loaded.warnings { report("notify-sched: warning: \(warning)") }
        let checked: SourceCheckReport
        if let failure = loaded.unusableReason {
            checked = .failed(location, failure)
        } else if loaded.origin == .notModified {
            checked = .notModified(location)
        } else if let schedule = loaded.parsed?.schedule {
            let old = self.schedule(of: index)?.entries ?? []
            let started = WallClock.now()
            if let changes = reconcile(source: index, with: schedule, at: now) {
                checked = .changed(location, changes, from: old, to: schedule.entries)
                if !changes.isEmpty {
                    let milliseconds = (WallClock.now() - started).microseconds / 1000
                    report("notify-sched: " + checked.lines[0] + " (reconciled in \(milliseconds) ms)")
                }
            } else {
                checked = .failed(
                    location, "\(location): the state database could not be read; the feed in force stays")
            }
        } else {
            checked = .failed(location, "\(location): no feed")
        }
        recordCheck(
            loaded, of: &sources[index], policy: policy(of: index), feedVersion: schedule(of: index)?.version, at: now)
        saveHealth(sources[index].health)
        return checked
    }

    /// Records in `source.health` how checking it at `now` went, and plans its next check by
    /// `policy`; `feedVersion` is the version of the feed in force.
    func recordCheck(
        _ loaded: LoadedPortalFeed, of source: inout FollowedSource, policy: PollingPolicy, feedVersion: Int64?,
        at now: Instant
    ) {
        if let failure = loaded.unusableReason {
            source.health.recordFailure(
                failure, retryAfter: loaded.fetchError?.retryAfter, at: now, policy: policy,
                using: &polling.generator)
            let next = source.health.nextCheck.map { "; next check at \($0.rfc3339)" } ?? ""
            report("notify-sched: \(source.location): check failed, the feed in force stays: \(failure)\(next)")
            return
        }
        source.health.recordSuccess(at: now, policy: policy)
        source.health.etag = loaded.validators?.etag
        source.health.lastModified = loaded.validators?.lastModified
        source.health.feedVersion = feedVersion
        source.health.copyTakenAt = loaded.origin == .notModified ? loaded.previous?.storedAt ?? now : now
    }

    /// The stored health of `location`, or a fresh one when it cannot be read.
    func storedHealth(of location: String) -> SourceHealth {
        do {
            return try store.sourceHealth(location)
        } catch {
            report("notify-sched: \(error.message)")
            return SourceHealth(location: location)
        }
    }

    func saveHealth(_ health: SourceHealth) {
        do {
            try store.setSourceHealth(health)
        } catch {
            report("notify-sched: \(error.message)")
        }
    }
}
