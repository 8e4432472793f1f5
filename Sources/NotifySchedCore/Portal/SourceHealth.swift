/// How one source of the daemon fares: when it was checked, whether that worked, what the
/// portal's validators and the feed's version are, and when it is checked next (issue 6,
/// "Health"). `status` and `list` show it; the daemon keeps it across restarts.
///
/// The transitions are pure: the daemon passes the time, the policy and the random generator.
public struct SourceHealth: Sendable, Equatable {
    /// The path or URL, as configured.
    public var location: String
    /// When the source was last checked (fetched or read), whatever came of it.
    public var lastCheck: Instant?
    /// When a check last succeeded: a feed accepted, or 304 Not Modified.
    public var lastSuccess: Instant?
    /// Why the last check failed; nil when it succeeded.
    public var lastError: CheckFailure?
    /// Checks failed in a row since the last success: the backoff's exponent.
    public var failures: Int
    /// When the source is checked next; nil while a check is under way or none is planned.
    public var nextCheck: Instant?
    /// The portal's `ETag` of the copy in force.
    public var etag: String?
    /// The portal's `Last-Modified` of the copy in force.
    public var lastModified: String?
    /// The `version` of the feed in force, when it has one.
    public var feedVersion: Int64?
    /// When the copy in force was fetched (a URL's cached copy) or read (a file).
    public var copyTakenAt: Instant?
    /// The check period the portal asked for with `Cache-Control: max-age` at the last success
    /// (`CacheControl.period(fromHeader:)`); nil when it did not.
    public var portalPeriod: TimeSpan?

    public init(
        location: String, lastCheck: Instant? = nil, lastSuccess: Instant? = nil, lastError: CheckFailure? = nil,
        failures: Int = 0, nextCheck: Instant? = nil, etag: String? = nil, lastModified: String? = nil,
        feedVersion: Int64? = nil, copyTakenAt: Instant? = nil, portalPeriod: TimeSpan? = nil
    ) {
        self.location = location
        self.lastCheck = lastCheck
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.failures = failures
        self.nextCheck = nextCheck
        self.etag = etag
        self.lastModified = lastModified
        self.feedVersion = feedVersion
        self.copyTakenAt = copyTakenAt
        self.portalPeriod = portalPeriod
    }

    /// How old the copy in force is at `now`; nil when there is none.
    public func copyAge(at now: Instant) -> TimeSpan? {
        copyTakenAt.map { now - $0 }
    }

    /// Records a check that succeeded at `now` and plans the next one: a period later, or at a
    /// new phase when this check brought the source's first copy (`PollingPolicy`).
    public mutating func recordSuccess(
        at now: Instant, policy: PollingPolicy, using generator: inout some RandomNumberGenerator
    ) {
        lastCheck = now
        lastSuccess = now
        lastError = nil
        failures = 0
        nextCheck = policy.nextCheck(afterSuccessAt: now, firstCopy: copyTakenAt == nil, using: &generator)
    }

    /// Records a check that failed at `now` with `failure` and plans the retry, never before the
    /// server's `Retry-After`: at a new phase a period or so later while a copy is in force,
    /// with backoff and full jitter without one (`PollingPolicy`).
    public mutating func recordFailure(
        _ failure: CheckFailure, retryAfter: RetryAfter? = nil, at now: Instant, policy: PollingPolicy,
        using generator: inout some RandomNumberGenerator
    ) {
        lastCheck = now
        lastError = failure
        failures += 1
        nextCheck = policy.nextCheck(
            afterFailure: failures, at: now, retryAfter: retryAfter, hasCopy: copyTakenAt != nil, using: &generator)
    }

    /// When to make the first check after the daemon started at `now`.
    ///
    /// - A check planned before the restart that is still ahead is kept (a backoff or a
    ///   `Retry-After` outlives the restart), up to `latestCheck(now:policy:)`, so that a
    ///   shortened period takes effect.
    /// - Otherwise the check is due: with a copy, at a new phase within the period, so that
    ///   desktops started together (a login wave) do not ask the portal together, now or a
    ///   period later; without one, within a few seconds (`PollingPolicy.firstCheck`).
    public func firstCheck(
        now: Instant, hasCopy: Bool, policy: PollingPolicy, using generator: inout some RandomNumberGenerator
    ) -> Instant {
        if hasCopy, let nextCheck, nextCheck > now { return min(nextCheck, latestCheck(now: now, policy: policy)) }
        return policy.firstCheck(now: now, hasCopy: hasCopy, using: &generator)
    }

    /// The machine resumed from suspend, or the wall clock stepped forward, at `now`: a check
    /// that fell due meanwhile is planned anew, as at a start (`firstCheck`), rather than made
    /// at once by every desktop that woke with this one. A check under way, or one still
    /// ahead, is left as it is.
    public mutating func resumed(
        at now: Instant, policy: PollingPolicy, using generator: inout some RandomNumberGenerator
    ) {
        guard let planned = nextCheck, planned <= now else { return }
        nextCheck = policy.firstCheck(now: now, hasCopy: copyTakenAt != nil, using: &generator)
    }

    /// The latest a check planned at `now` can fall: one period ahead after a success; after
    /// failures, the longer of a period and the longest `Retry-After` honoured. A check planned
    /// later than that was planned on a wall clock since stepped back, and is brought forward
    /// to it.
    public func latestCheck(now: Instant, policy: PollingPolicy) -> Instant {
        now + (failures == 0 ? policy.checkPeriod : max(policy.checkPeriod, policy.maximumRetryAfter))
    }
}
