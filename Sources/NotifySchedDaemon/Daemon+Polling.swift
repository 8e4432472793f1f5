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

/// The daemon's polling: the round of checks under way and the `Sync` calls waiting for one.
///
/// A round checks its sources one after the other on a `WorkerThread` (a fetch and a parse
/// block), and each result comes back to the loop through the daemon's `LoopMailbox`. One round
/// runs at a time; checks that fall due meanwhile, and `Sync` calls, start the next.
struct Polling {
    /// The sources the round under way has yet to report; nil when no round runs.
    var pending: Set<Int>?
    /// What the round under way found so far, by source.
    var reports: [Int: SourceCheckReport] = [:]
    /// `Sync` calls answered when the round under way ends.
    var answering: [([SourceCheckReport]) -> Void] = []
    /// `Sync` calls waiting for the next round, which checks every source.
    var waiting: [([SourceCheckReport]) -> Void] = []
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
    /// what each check found once all are done (`notify-sched sync`). A round under way ends first.
    func syncSources(answer: @escaping ([SourceCheckReport]) -> Void) {
        polling.waiting.append(answer)
        startDueChecks(at: WallClock.now())
        armTimer()
    }

    /// Starts a round of the checks that are due at `now` (of every source when `Sync` calls
    /// wait), unless a round runs already: its end starts the next. A check planned further
    /// ahead than its policy allows (the wall clock stepped back) is brought forward first.
    func startDueChecks(at now: Instant) {
        for index in sources.indices {
            let latest = sources[index].health.latestCheck(now: now, policy: policy(of: index))
            if let next = sources[index].health.nextCheck, next > latest { sources[index].health.nextCheck = latest }
        }
        guard polling.pending == nil else { return }
        let everything = !polling.waiting.isEmpty
        let chosen = sources.indices.filter { index in
            sources[index].refusal == nil
                && (everything || sources[index].health.nextCheck.map { $0 <= now } ?? false)
        }
        polling.answering = polling.waiting
        polling.waiting = []
        polling.reports = [:]
        if everything {
            for (index, source) in sources.enumerated() {
                if let refusal = source.refusal { polling.reports[index] = .failed(source.location, refusal) }
            }
        }
        guard !chosen.isEmpty else {
            finishRound()
            return
        }
        polling.pending = Set(chosen)
        for index in chosen { sources[index].health.nextCheck = nil }
        let jobs = chosen.map { (index: $0, location: sources[$0].location, key: sources[$0].publicKey) }
        let loader = loader
        let parser = parser
        let mailbox = checkResults
        do {
            try WorkerThread.start {
                for job in jobs {
                    let feed = loader.load(
                        job.location, publicKey: job.key, parser: parser, now: WallClock.now(),
                        allowCacheFallback: false)
                    mailbox.post(CheckResult(source: job.index, feed: feed))
                }
            }
        } catch {
            for job in jobs {
                let feed = LoadedPortalFeed(location: job.location, failure: "\(job.location): \(error.message)")
                checkFinished(CheckResult(source: job.index, feed: feed), at: now)
            }
        }
    }

    /// The loop's side of the mailbox: applies every check the worker finished.
    func checkResultsArrived() {
        let now = WallClock.now()
        for result in checkResults.take() { checkFinished(result, at: now) }
        armTimer()
    }

    private func checkFinished(_ result: CheckResult, at now: Instant) {
        polling.reports[result.source] = apply(result.feed, to: result.source, at: now)
        polling.pending?.remove(result.source)
        guard polling.pending?.isEmpty == true else { return }
        finishRound()
        // The parse's peak is gone; give its freed pages back, as after the first load.
        FreedMemory.release()
        startDueChecks(at: now)
    }

    private func finishRound() {
        polling.pending = nil
        let reports = polling.reports.sorted { $0.key < $1.key }.map(\.value)
        let answering = polling.answering
        polling.answering = []
        // After `notify-sched sync` fetched them, iNotify sources are checked as iNotify's manual
        // check does: at once, whatever the periods and the first start.
        if !answering.isEmpty { checkINotifySourcesNow(at: WallClock.now()) }
        for answer in answering { answer(reports) }
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
                sessionStartIfAwaited(source: index, at: now)
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
