import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Receipts' uploads (docs/receipts.md): when one starts, and what becomes of each body, is the
// core's decision (`DaemonCore+Receipts.swift`); an upload runs on a `WorkerThread` of its own,
// as a check does, and comes back to the loop through the same mailbox.
extension DaemonDriver {
    /// Hands the core what the state database remembers of each source's uploads.
    func loadReceipts(at now: Instant) {
        do {
            perform(.receiptsLoaded(try store.receiptQueue()), at: now)
        } catch {
            log.error(error.message)
        }
    }

    /// Uploads source `index`'s receipts to `endpoint` on a worker thread: seals what was
    /// counted (`StateStore.startReceiptUpload`), posts each body waiting, and hands the core
    /// how each went. A store that cannot be read or a thread that cannot start posts nothing,
    /// which the core hears as an upload of no body.
    func uploadReceipts(of index: Int, to endpoint: String, at now: Instant) {
        let (location, store, collector, mailbox, log) = (sources[index].location, store, collector, workResults, log)
        let upload: @Sendable () -> Void = {
            var posts: [ReceiptPost] = []
            do throws(StoreError) {
                var ids = SystemRandomNumberGenerator()
                let batches = try store.startReceiptUpload(of: location, to: endpoint, at: now, using: &ids)
                for batch in batches {
                    posts.append(ReceiptPost(batch, Self.post(batch.body, to: endpoint, through: collector)))
                }
            } catch {
                log.error(error.message)
            }
            mailbox.post(.receipts(source: index, posts))
        }
        do {
            try WorkerThread.start(upload)
        } catch {
            log.error("\(location): receipts not sent: \(error.message)")
            workResults.post(.receipts(source: index, []))
        }
    }

    /// Records how posting a body went: taken, it leaves the queue; refused, it stays until `retryAt`.
    func recordReceiptPost(_ post: ReceiptPost, retryAt: Instant?, at now: Instant) {
        do {
            switch post.outcome {
            case .taken:
                try store.receiptsSent(post.batch.batchID, at: now)
            case .refused(let message, _):
                try store.receiptsFailed(post.batch.batchID, error: message, retryAt: retryAt ?? now)
            }
        } catch {
            log.error(error.message)
        }
    }

    /// Posts `body` to `endpoint` through `collector`: what the collector said.
    private static func post(
        _ body: String, to endpoint: String, through collector: (any ReceiptCollector)?
    ) -> ReceiptPost.Outcome {
        guard let collector else { return .refused("\(endpoint): no collector to post to", retryAfter: nil) }
        do {
            try collector.post(body, to: endpoint)
            return .taken
        } catch {
            return .refused(error.message, retryAfter: error.retryAfter)
        }
    }
}
