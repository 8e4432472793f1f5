import Foundation
import NotifySchedCore
import NotifySchedDaemon
import NotifySchedNetwork
import NotifySchedTesting
import Synchronization
import Testing

/// A collector of receipts in memory: it keeps each body it takes, and answers the next posts
/// as told first (a refusal with its `Retry-After`, or a body taken whose answer is lost).
final class TestCollector: ReceiptCollector {
    /// How the collector answers a post.
    enum Answer: Sendable {
        /// The status, with a `Retry-After`.
        case refuse(Int, retryAfter: RetryAfter?)
        /// It takes the body, but the answer never reaches the desktop.
        case takeAndLoseAnswer
    }

    private struct State {
        var received: [String] = []
        var receivedAt: [Instant] = []
        var answers: [Answer] = []
        var posts = 0
        var offline = false
    }

    /// The clock the collector notes each body's arrival by.
    private let clock: @Sendable () -> Instant

    init(clock: @escaping @Sendable () -> Instant) {
        self.clock = clock
    }

    private let state = Mutex(State())

    /// The bodies taken, in order (a body whose answer was lost among them).
    var received: [String] { state.withLock { $0.received } }
    /// When each body taken arrived, on the desktop's clock.
    var receivedAt: [Instant] { state.withLock { $0.receivedAt } }
    /// Every post, taken or not.
    var posts: Int { state.withLock { $0.posts } }
    /// Whether the network is down: every post fails.
    var offline: Bool {
        get { state.withLock { $0.offline } }
        set { state.withLock { $0.offline = newValue } }
    }

    /// Answers the next posts with `answers`, in order, before taking them again.
    func answerNext(_ answers: [Answer]) {
        state.withLock { $0.answers += answers }
    }

    func post(_ body: String, to endpoint: String) throws(NetworkError) {
        let now = clock()
        let (answer, offline): (Answer?, Bool) = state.withLock { state in
            state.posts += 1
            if state.offline { return (nil, true) }
            return (state.answers.isEmpty ? nil : state.answers.removeFirst(), false)
        }
        if offline { throw NetworkError(.unreachable, "\(endpoint): cannot connect (network is unreachable)") }
        switch answer {
        case nil:
            state.withLock {
                $0.received.append(body)
                $0.receivedAt.append(now)
            }
        case .takeAndLoseAnswer:
            state.withLock {
                $0.received.append(body)
                $0.receivedAt.append(now)
            }
            throw NetworkError(.transport, "\(endpoint): the connection closed before the answer was complete")
        case .refuse(let status, let retryAfter):
            throw NetworkError(
                .httpStatus, "\(endpoint): the server answered \(status)", status: status, retryAfter: retryAfter)
        }
    }
}

extension TestCollector {
    /// The counts the collector holds once it kept one record per `receipt.id` (the operator's
    /// dedupe rule, docs/operating-a-portal.md), summed by entry and counter.
    var dedupedCounts: [String: [String: Int]] {
        get throws {
            var seen = Set<String>()
            var counts: [String: [String: Int]] = [:]
            try Self.add(received, to: &counts, seen: &seen)
            return counts
        }
    }

    /// Adds the counts of the records of `bodies` whose `receipt.id` is not in `seen` to
    /// `counts`, by entry and counter, and their ids to `seen`.
    static func add(_ bodies: [String], to counts: inout [String: [String: Int]], seen: inout Set<String>) throws {
        for body in bodies {
            let request = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
            let resource = (request?["resourceLogs"] as? [[String: Any]])?.first
            let records =
                ((resource?["scopeLogs"] as? [[String: Any]])?.first?["logRecords"] as? [[String: Any]]) ?? []
            for record in records where record["eventName"] as? String == "notify_sched.receipt" {
                var attributes: [String: String] = [:]
                for pair in record["attributes"] as? [[String: Any]] ?? [] {
                    let value = pair["value"] as? [String: String]
                    attributes[pair["key"] as? String ?? ""] = value?["stringValue"] ?? value?["intValue"]
                }
                guard let id = attributes["receipt.id"], seen.insert(id).inserted,
                    let entry = attributes["notify_sched.entry.id"]
                else { continue }
                for (key, value) in attributes where key.hasPrefix("notify_sched.count.") {
                    counts[entry, default: [:]][String(key.dropFirst(19)), default: 0] += Int(value) ?? 0
                }
            }
        }
    }

    /// The batch id of each body, as its resource says.
    static func batchID(of body: String) -> String? {
        body.firstMatch(of: #/"notify_sched\.batch\.id","value":\{"stringValue":"([0-9a-f]+)"\}/#).map {
            String($0.1)
        }
    }
}

/// Records an issue for each of `bodies` that opentelemetry-proto's schema does not accept as
/// an `ExportLogsServiceRequest` (`OTLPOracle`): every body sent in the tests is checked.
func expectValidOTLP(_ bodies: [String]) throws {
    guard !bodies.isEmpty else { return }
    for (body, verdict) in zip(bodies, try OTLPOracle.check(bodies)) where !verdict.valid {
        Issue.record("not an OTLP ExportLogsServiceRequest (\(verdict.error ?? "")): \(body)")
    }
}
