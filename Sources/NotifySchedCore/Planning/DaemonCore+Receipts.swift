// Receipts (docs/receipts.md): which occurrences' outcomes count, and when each source's
// receipts go. The ledger line of each occurrence carries its tag (`LedgerRecord.receipts`),
// and the store counts with the line it writes; the uploads ride on the sources' checks
// (`ReceiptUploads`).
extension DaemonCore {
    /// Whether the outcomes of an occurrence of `location` recorded now count in its source's
    /// receipts, and under which feed version: nil when the source's receipts are off, or it is
    /// not a configured source (a test popup).
    public func receiptTag(for location: String) -> ReceiptTag? {
        guard let source = polling.sources.first(where: { $0.location == location }), source.settings.receipts.isOn
        else { return nil }
        return ReceiptTag(feedVersion: planner.schedule(at: location)?.version)
    }

    /// Whether an upload of receipts is under way.
    public var isUploadingReceipts: Bool { uploads.isPosting }

    /// The uploads that start with the checks of `sources` starting at `now`.
    mutating func receiptUploads(startingWith sources: [Int], at now: Instant) -> [DaemonEffect] {
        sources.compactMap { index in
            uploads.start(index, at: now).map { DaemonEffect.uploadReceipts(source: index, endpoint: $0) }
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
