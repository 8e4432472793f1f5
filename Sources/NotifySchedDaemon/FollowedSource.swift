import NotifySchedCore

/// A feed the daemon follows, with its settings and its schedule as last loaded.
struct FollowedSource {
    /// The path or URL: the source's identity in the ledger and the state database.
    var location: String
    var settings: SourceSettings
    /// Nil when the feed could not be read at all.
    var schedule: Schedule?

    var dialect: FeedDialect? { schedule?.dialect }
}

/// Which entry a timer-wheel element stands for.
struct EntryReference: Equatable {
    var source: Int
    var entry: Int
}
