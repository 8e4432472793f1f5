import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// What a worker thread hands the loop: a source's check, or its receipts' upload.
public enum WorkResult: Sendable {
    case check(source: Int, LoadedPortalFeed)
    case receipts(source: Int, [ReceiptPost])
}

// Checking the sources: which checks start, what each puts in force and which `Sync` calls it
// answers is the core's decision (`DaemonCore+Polling.swift`). Each check runs on a
// `WorkerThread` of its own (a fetch and a parse block) and comes back to the loop through the
// daemon's `LoopMailbox`.
extension DaemonDriver {
    /// Checks every source now, ignoring periods and backoff, and calls `answer` on the loop with
    /// what each check found once all are done (`notify-sched sync`).
    func syncSources(at now: Instant, answer: @escaping ([SourceCheckReport]) -> Void) {
        let token = newCallToken()
        syncReplies[token] = answer
        perform(.syncRequested(token: token), at: now)
    }

    /// The loop's side of the mailbox: hands the core every check and upload the workers finished.
    public func workResultsArrived() {
        for result in workResults.take() {
            let now = clock()
            switch result {
            case .check(let source, let feed):
                for warning in feed.warnings { log.warning("warning: \(warning)") }
                perform(.checkFinished(source: source, outcome(of: feed, source: source, at: now)), at: now)
            case .receipts(let source, let posts):
                perform(.receiptsPosted(source: source, posts), at: now)
            }
        }
    }

    /// Checks source `index` on a worker thread of its own, as of `now`, the instant the core
    /// asked for it (a cached copy's age counts from then); a thread that cannot start is a
    /// failed check, which comes back through the mailbox like the others.
    func startCheck(of index: Int, at now: Instant) {
        let location = sources[index].location
        let publicKey = sources[index].publicKey
        let loader = loader
        let parser = parser(of: index)
        let mailbox = workResults
        do {
            try WorkerThread.start {
                let feed = loader.load(
                    location, publicKey: publicKey, parser: parser, now: now, allowCacheFallback: false)
                mailbox.post(.check(source: index, feed))
            }
        } catch {
            let feed = LoadedPortalFeed(
                location: location, failure: CheckFailure(error.code, "\(location): \(error.message)"))
            workResults.post(.check(source: index, feed))
        }
    }

    /// What a load of source `index` found, for the core: a failure, a portal's 304 (with its
    /// cached copy when the core has no feed of the source), or a good feed, each copy with
    /// what the state database remembers of its entries (a failure when it cannot say).
    func outcome(of loaded: LoadedPortalFeed, source index: Int, at now: Instant) -> CheckOutcome {
        let location = sources[index].location
        guard loaded.unusableReason == nil, let schedule = loaded.parsed?.schedule else {
            let failure =
                loaded.unusableReason ?? CheckFailure(code: CheckFailure.noFeedCode, message: "\(location): no feed")
            return .failed(failure, retryAfter: loaded.fetchError?.retryAfter)
        }
        let (etag, lastModified) = (loaded.validators?.etag, loaded.validators?.lastModified)
        let unreadable = CheckOutcome.failed(
            CheckFailure(StoreError.Code.failed, "\(location): the state database could not be read"), retryAfter: nil)
        if loaded.origin == .notModified {
            var copy: FeedLoad?
            if core.needsFeed(of: index) {
                guard let load = feedLoad(of: index, schedule) else { return unreadable }
                copy = load
            }
            return .notModified(
                copy: copy, etag: etag, lastModified: lastModified, copyTakenAt: loaded.previous?.storedAt ?? now,
                portalPeriod: loaded.portalPeriod)
        }
        guard let load = feedLoad(of: index, schedule) else { return unreadable }
        return .loaded(load, etag: etag, lastModified: lastModified, portalPeriod: loaded.portalPeriod)
    }

    func saveHealth(_ health: SourceHealth) {
        do {
            try store.setSourceHealth(health)
        } catch {
            log.error(error.message)
        }
    }

    /// Watches each local feed file, and its signature when the source is signed: an edit is
    /// checked at once, as a portal's change is at its next check.
    func watchFeedFiles() {
        for (index, source) in sources.enumerated() where !SourceLocation.isURL(source.location) {
            for path in [source.location] + (source.publicKey == nil ? [] : [source.location + ".sig"]) {
                let watched = watchedFiles.watch(path) { [unowned self] in
                    log.info("\(source.location): changed on disk; reading it again")
                    perform(.sourceFileChanged(source: index), at: clock())
                }
                if !watched { log.warning("\(path): cannot be watched; edits are seen at its next check") }
            }
        }
    }

    /// Watches the configuration file: each edit is read again and handed to the core, which
    /// restarts the daemon in this process when the configuration changed (the new one takes
    /// the popups on screen over, as after any restart).
    func watchConfiguration() {
        guard let source = configurationSource else { return }
        watchedFiles.watch(source.path) { [unowned self] in
            let (edited, problems) = source.read()
            perform(.configurationEdited(edited, problems: problems, file: source.path), at: clock())
        }
    }
}
