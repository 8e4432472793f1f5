import NotifySchedCore

extension DaemonCore {
    /// A core following the planner's sources, each with default settings and a fresh health
    /// (no check planned: the tests hand it the feeds), its randomness seeded with `seed`.
    init(
        following planner: consuming OccurrencePlanner, seed: UInt64 = 1, configuration: Configuration = Configuration()
    ) {
        let sources = (0..<planner.sourceCount).map {
            SourcePolling.Source(health: SourceHealth(location: planner.location(of: $0)))
        }
        self.init(
            planner: planner, polling: SourcePolling(sources: sources, seed: seed), configuration: configuration)
    }
}

extension DaemonEvent {
    /// `load`'s source opened at start: its file read.
    static func opened(_ load: FeedLoad) -> DaemonEvent {
        .sourceOpened(source: load.source, .read(.loaded(load, etag: nil, lastModified: nil)))
    }

    /// A check of `load`'s source found `load`.
    static func checked(_ load: FeedLoad) -> DaemonEvent {
        .checkFinished(source: load.source, .loaded(load, etag: nil, lastModified: nil))
    }
}

extension URLHandlers {
    /// A desktop that opens every scheme a feed may name.
    static let everyScheme = URLHandlers(schemes: URLPolicy().allowedSchemes)
}
