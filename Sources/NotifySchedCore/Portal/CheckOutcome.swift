/// What reading or checking one source found, as the daemon hands it to its core
/// (`DaemonEvent.checkFinished`, `SourceOpening.read`).
public enum CheckOutcome: Sendable, Equatable {
    /// The check failed for the reason given (with its code, and one line naming the location):
    /// the feed in force stays, and the next check backs off, never before the portal's `Retry-After`.
    case failed(CheckFailure, retryAfter: RetryAfter?)
    /// The portal answered 304 Not Modified: its cached copy, taken at `copyTakenAt`, is
    /// current; `etag` and `lastModified` are its validators. `copy`, the copy with the state
    /// database's memory, is given when the source has no feed in force
    /// (`DaemonCore.needsFeed(of:)`: its copy could not go in force at start), and goes in force.
    /// `portalPeriod` is the check period the answer's `Cache-Control` asked for.
    case notModified(
        copy: FeedLoad?, etag: String?, lastModified: String?, copyTakenAt: Instant, portalPeriod: TimeSpan? = nil)
    /// A good feed to put in force, with the state database's memory of its entries, and the
    /// portal's validators of it and the check period its `Cache-Control` asked for (none for a file).
    case loaded(FeedLoad, etag: String?, lastModified: String?, portalPeriod: TimeSpan? = nil)
}

/// How a source opened when the daemon started (`DaemonEvent.sourceOpened`).
public enum SourceOpening: Sendable, Equatable {
    /// A file, read: like a check.
    case read(CheckOutcome)
    /// A file whose feed has errors (`failure`): nothing else being in force at start, its
    /// usable entries go in force, and the read counts as a failed check.
    case readWithErrors(FeedLoad, failure: CheckFailure)
    /// A portal URL's last good copy, from the cache: it is in force until the source's first
    /// check, planned as `SourceHealth.firstCheck` says.
    case cachedCopy(FeedLoad)
    /// A portal URL without a usable copy (its first start, an expired copy, or one set aside
    /// after a crash): it is checked at once.
    case nothingCached
}
