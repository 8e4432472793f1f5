import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// One source's check, as a fetch worker hands it to the loop.
struct CheckResult: Sendable {
    var source: Int
    var feed: LoadedPortalFeed
}

// Checking the sources: which checks start, what each puts in force and which `Sync` calls it
// answers is the core's decision (`DaemonCore+Polling.swift`). Each check runs on a
// `WorkerThread` of its own (a fetch and a parse block) and comes back to the loop through the
// daemon's `LoopMailbox`.
extension Daemon {
    /// Checks every source now, ignoring periods and backoff, and calls `answer` on the loop with
    /// what each check found once all are done (`notify-sched sync`).
    func syncSources(answer: @escaping ([SourceCheckReport]) -> Void) {
        let token = nextCallToken
        nextCallToken += 1
        syncReplies[token] = answer
        perform(.syncRequested(token: token), at: WallClock.now())
    }

    /// The loop's side of the mailbox: hands the core every check the workers finished.
    func checkResultsArrived() {
        for result in checkResults.take() {
            let now = WallClock.now()
            for warning in result.feed.warnings { report("notify-sched: warning: \(warning)") }
            perform(
                .checkFinished(source: result.source, outcome(of: result.feed, source: result.source, at: now)),
                at: now)
        }
    }

    /// Checks source `index` on a worker thread of its own.
    func startCheck(of index: Int, at now: Instant) {
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
            perform(
                .checkFinished(source: index, .failed("\(location): \(error.message)", retryAfter: nil)), at: now)
        }
    }

    /// What a load of source `index` found, for the core: a failure, a portal's 304, or a good
    /// feed with what the state database remembers of its entries.
    func outcome(of loaded: LoadedPortalFeed, source index: Int, at now: Instant) -> CheckOutcome {
        let location = sources[index].location
        if let failure = loaded.unusableReason { return .failed(failure, retryAfter: loaded.fetchError?.retryAfter) }
        if loaded.origin == .notModified {
            return .notModified(
                etag: loaded.validators?.etag, lastModified: loaded.validators?.lastModified,
                copyTakenAt: loaded.previous?.storedAt ?? now)
        }
        // A usable load has a schedule (`unusableReason`).
        guard let schedule = loaded.parsed?.schedule else { return .failed("\(location): no feed", retryAfter: nil) }
        guard let load = feedLoad(of: index, schedule) else {
            return .failed("\(location): the state database could not be read", retryAfter: nil)
        }
        return .loaded(load, etag: loaded.validators?.etag, lastModified: loaded.validators?.lastModified)
    }

    func saveHealth(_ health: SourceHealth) {
        do {
            try store.setSourceHealth(health)
        } catch {
            report("notify-sched: \(error.message)")
        }
    }
}
