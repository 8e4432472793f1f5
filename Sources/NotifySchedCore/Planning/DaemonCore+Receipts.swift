// Receipts (docs/receipts.md): which occurrences' outcomes count, and when each source's
// receipts go. The ledger line of each occurrence carries its tag (`LedgerRecord.receipts`),
// and the store counts with the line it writes; the uploads ride on the sources' checks
// (`ReceiptUploads`).
extension DaemonCore {
    /// Whether the outcomes of an occurrence of `location` recorded now count in its source's
    /// receipts, and under which feed version: nil when the source's receipts are off, or it is
    /// not a configured source (a test popup).
    public func receiptTag(for location: String) -> ReceiptTag? {
        guard let index = polling.sources.firstIndex(where: { $0.location == location }),
            receiptDestination(of: index) != nil
        else { return nil }
        return ReceiptTag(feedVersion: planner.schedule(source: index)?.version)
    }

    /// Where source `index`'s receipts go now, and why when its signed feed named it: the
    /// configured `receipts-endpoint`, else the one its signed feed in force names; nil when
    /// the user did not turn its receipts on, or no endpoint is known.
    public func receiptDestination(of index: Int) -> (endpoint: String, purpose: String?)? {
        let source = polling.sources[index]
        let feed = source.isSigned ? planner.schedule(source: index)?.receipts : nil
        guard let endpoint = source.settings.receipts.destination(feed: feed) else { return nil }
        return (endpoint, source.settings.receipts.endpoint == nil ? feed?.purpose : nil)
    }

    /// Whether an upload of receipts is under way.
    public var isUploadingReceipts: Bool { uploads.isPosting }

    /// The uploads that start with the checks of `sources` starting at `now`.
    mutating func receiptUploads(startingWith sources: [Int], at now: Instant) -> [DaemonEffect] {
        sources.compactMap { index in
            guard let endpoint = receiptDestination(of: index)?.endpoint, uploads.start(index, at: now) else {
                return nil
            }
            return .uploadReceipts(source: index, endpoint: endpoint)
        }
    }

    /// What the state database remembers of each source's uploads, by location (at start).
    mutating func receiptsLoaded(_ queue: [String: ReceiptQueueState]) {
        for index in polling.sources.indices {
            guard let state = queue[polling.sources[index].location] else { continue }
            uploads.remember(index, lastStarted: state.lastAttempt, retryAt: state.nextAttempt)
        }
    }

    /// Source `index`'s upload ended: each body taken leaves the queue; the refused ones stay,
    /// to go again after the longest `Retry-After` among them, spread over a day (`ReceiptRetry`).
    mutating func receiptsPosted(_ index: Int, _ posts: [ReceiptPost], at now: Instant) -> [DaemonEffect] {
        let location = polling.sources[index].location
        var refused = false
        var retryAfter: RetryAfter?
        for post in posts {
            guard case .refused(_, let asked) = post.outcome else { continue }
            refused = true
            if let asked, retryAfter.map({ $0.instant(after: now) < asked.instant(after: now) }) ?? true {
                retryAfter = asked
            }
        }
        guard refused else {
            uploads.taken(index)
            return posts.flatMap { post in
                [
                    DaemonEffect.recordReceiptPost(post, retryAt: nil),
                    .log(
                        .info, "\(location): a collector took \(post.batch.receipts) receipts (\(post.batch.batchID))"),
                ]
            }
        }
        let retryAt = uploads.refused(index, retryAfter: retryAfter, at: now)
        return posts.flatMap { post -> [DaemonEffect] in
            guard case .refused(let message, _) = post.outcome else {
                return [.recordReceiptPost(post, retryAt: nil)]
            }
            return [
                .recordReceiptPost(post, retryAt: retryAt),
                .log(.warning, "\(location): receipts not sent: \(message); again after \(retryAt.rfc3339)"),
            ]
        }
    }
}
