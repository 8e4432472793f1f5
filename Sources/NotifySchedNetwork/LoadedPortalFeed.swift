import NotifySchedCore

/// One feed as loaded for use: where the bytes came from, what they parsed to, and what to tell
/// the user.
public struct LoadedPortalFeed: Sendable {
    /// Where the feed's bytes came from.
    public enum Origin: Hashable, Sendable {
        /// A local file (or standard input).
        case file
        /// Fetched now (200), accepted, and cached.
        case fetched
        /// Fetched now (200) but not cached, because it has errors: the last good copy stays.
        case fetchedWithErrors
        /// The server answered 304: the cached copy is current.
        case notModified
        /// The fetch failed or was refused: this is the last good copy, with a warning.
        case cache
    }

    /// The path or URL, as the user named it.
    public var location: String
    /// Where the bytes came from; nil when there is no usable feed at all.
    public var origin: Origin?
    /// The parsed feed; nil when there is no usable feed (see `failure`).
    public var parsed: FeedParseResult?
    /// Why there is no usable feed: its code, and one line naming the location.
    public var failure: CheckFailure?
    /// The fetch's own failure (status, `Retry-After`), also when the cached copy stood in.
    public var fetchError: NetworkError?
    /// Lines to show as warnings (such as "using the copy cached at …").
    public var warnings: [String]
    /// The cached copy as it was before this load, for `sync`'s comparison.
    public var previous: CachedFeed?
    /// The validators now in force (cached or just fetched).
    public var validators: HTTPValidators?
    /// The check period the portal's `Cache-Control` asked for in this answer; nil when it
    /// asked for none or did not answer.
    public var portalPeriod: TimeSpan?

    /// Whether the source was checked successfully: fetched and accepted, or not modified. A
    /// failed or refused fetch is not, even when the cached copy stood in; the polling policy
    /// then backs off (honouring `fetchError?.retryAfter`).
    public var checkSucceeded: Bool {
        origin == .fetched || origin == .notModified || origin == .file
    }

    /// Why this load cannot be put in force in place of the feed before it: no usable feed, a
    /// cached copy standing in for a failed fetch, or errors in the feed. Nil when it can.
    public var unusableReason: CheckFailure? {
        guard let parsed, parsed.schedule != nil, origin != .cache else {
            return failure ?? CheckFailure(code: CheckFailure.noFeedCode, message: "\(location): no feed")
        }
        if let error = parsed.diagnostics.first(where: { $0.severity == .error }) {
            return CheckFailure(
                code: error.error.code.rawValue, message: "\(location): the feed has errors (\(error.error))")
        }
        return nil
    }
}

extension LoadedPortalFeed {
    /// A load that came to nothing, for `failure`.
    public init(location: String, failure: CheckFailure) {
        self.init(location: location, failure: failure, warnings: [])
    }
}
