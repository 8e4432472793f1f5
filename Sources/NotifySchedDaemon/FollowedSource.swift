import NotifySchedCore
import NotifySchedNetwork

/// What the daemon needs to check a source: where its feed is and the key it must be signed
/// with. Its settings and health are the core's (`SourcePolling`), its schedule in force the
/// planner's.
struct FollowedSource {
    /// The path or URL: the source's identity in the ledger and the state database.
    let location: String
    /// The key its feed must be signed with.
    let publicKey: FeedPublicKey?
    /// Why the source is not checked at all (its configured key is unusable); nil when it is.
    let refusal: String?

    /// Whether the source is a portal URL rather than a file.
    var isURL: Bool { SourceLocation.isURL(location) }

    /// The configured source, its key read; an unusable key is logged, and refuses the source.
    init(_ configured: SourceConfiguration, report: (String) -> Void) {
        location = configured.feed
        guard let text = configured.publicKey else {
            (publicKey, refusal) = (nil, nil)
            return
        }
        do {
            (publicKey, refusal) = (try FeedPublicKey(base64: text), nil)
        } catch {
            report("notify-sched: source \(configured.name): \(error); not following it")
            (publicKey, refusal) = (nil, "its public key is unusable: \(error)")
        }
    }
}
