import NotifySchedCore
import NotifySchedNetwork

/// A feed the daemon follows, with its settings, its schedule as last loaded and its health.
struct FollowedSource {
    /// The path or URL: the source's identity in the ledger and the state database.
    var location: String
    var settings: SourceSettings
    /// Nil when the feed could not be read at all.
    var schedule: Schedule?
    /// The key its feed must be signed with.
    var publicKey: FeedPublicKey?
    /// Why the source is not checked at all (its configured key is unusable); nil when it is.
    var refusal: String?
    /// When it was checked, how that went, and when it is checked next.
    var health: SourceHealth

    var dialect: FeedDialect? { schedule?.dialect }

    /// How often it is checked, for its settings and the dialect of its feed.
    var policy: PollingPolicy { settings.pollingPolicy(for: dialect) }

    /// Whether the source is a portal URL rather than a file.
    var isURL: Bool { PortalFeedLoader.isURL(location) }
}

/// Which entry a timer-wheel element stands for.
struct EntryReference: Equatable {
    var source: Int
    /// The entry's position in its source's schedule; `vacant` for an element whose entry was
    /// withdrawn and that waits to be reused.
    var entry: Int

    static let vacant = -1
}
