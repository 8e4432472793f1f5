import NotifySchedCore
import NotifySchedNetwork

/// A feed the daemon follows, with its settings and its health. Its schedule in force is the
/// planner's (`Daemon.schedule(of:)`).
struct FollowedSource {
    /// The path or URL: the source's identity in the ledger and the state database.
    var location: String
    var settings: SourceSettings
    /// The key its feed must be signed with.
    var publicKey: FeedPublicKey?
    /// Why the source is not checked at all (its configured key is unusable); nil when it is.
    var refusal: String?
    /// When it was checked, how that went, and when it is checked next.
    var health: SourceHealth

    /// Whether the source is a portal URL rather than a file.
    var isURL: Bool { SourceLocation.isURL(location) }
}
