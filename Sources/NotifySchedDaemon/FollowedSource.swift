import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform

/// What the daemon needs to check a source: where its feed is, the key it must be signed
/// with and the dialect it is configured in. Its settings, health and refusal are the core's
/// (`SourcePolling`), its schedule in force the planner's.
struct FollowedSource {
    /// The path or URL: the source's identity in the ledger and the state database.
    let location: String
    /// The key its feed must be signed with.
    let publicKey: FeedPublicKey?
    /// The configured dialect; nil when recognised by the feed's shape.
    let dialect: FeedDialect?
    /// Which alarms of a calendar feed pop up.
    let alarms: AlarmPolicy

    /// Whether the source is a portal URL rather than a file.
    var isURL: Bool { SourceLocation.isURL(location) }

    /// The configured source with its key read.
    ///
    /// - Returns: The source, and why it is not followed when its key is unusable (logged).
    static func reading(_ configured: SourceConfiguration, log: DaemonLog) -> (
        source: FollowedSource, refusal: String?
    ) {
        var (publicKey, refusal): (FeedPublicKey?, String?) = (nil, nil)
        if let text = configured.publicKey {
            do {
                publicKey = try FeedPublicKey(base64: text)
            } catch {
                log.error("source \(configured.name): \(error); not following it")
                refusal = "its public key is unusable: \(error)"
            }
        }
        return (
            FollowedSource(
                location: configured.feed, publicKey: publicKey, dialect: configured.dialect,
                alarms: configured.settings.alarmPolicy(for: configured.feed)), refusal
        )
    }
}
