/// When to check a portal feed next: the check period, backoff after failures, `Retry-After`,
/// and a random spread of the first check (issue 6, "Polling").
///
/// Pure: `now` and the random generator are arguments, so the daemon seeds the generator from
/// the system and tests use `SplitMix64` with a fixed seed.
///
/// - After a success the next check is one `checkPeriod` later.
/// - After the n-th failure in a row it is a uniformly random delay in
///   `[minimumRetryDelay, min(maximumBackoff, initialBackoff × 2^(n−1))]` later ("full jitter",
///   so that a fleet of desktops that failed together does not retry together), but never
///   before a `Retry-After` the server sent (up to `maximumRetryAfter`).
/// - The first check after start is a uniformly random delay in `[0, firstCheckSpread]` later.
public struct PollingPolicy: Hashable, Sendable {
    /// How often a healthy source is checked. The default is 12 hours for iNotify sources
    /// (iNotify's `checkPeriod` of 0.5 day) and `defaultCheckPeriod` for the others.
    public var checkPeriod: TimeSpan
    /// The ceiling of the first backoff. The default is 1 minute.
    public var initialBackoff: TimeSpan
    /// The largest backoff ceiling. The default is 6 hours, or `checkPeriod` when that is shorter.
    public var maximumBackoff: TimeSpan
    /// The shortest delay after a failure, so that full jitter never retries at once. The
    /// default is 10 seconds.
    public var minimumRetryDelay: TimeSpan
    /// The first check after start falls at random within this span. The default is 5 minutes,
    /// or `checkPeriod` when that is shorter.
    public var firstCheckSpread: TimeSpan
    /// The longest wait a `Retry-After` can impose. The default is 1 day.
    public var maximumRetryAfter: TimeSpan

    /// The check period of non-iNotify sources unless configured. The default is 1 hour.
    public static let defaultCheckPeriod = TimeSpan.hours(1)
    /// iNotify's own `checkPeriod` default: 0.5 day.
    public static let iNotifyCheckPeriod = TimeSpan.hours(12)

    public init(
        checkPeriod: TimeSpan = PollingPolicy.defaultCheckPeriod, initialBackoff: TimeSpan = .minutes(1),
        maximumBackoff: TimeSpan? = nil, minimumRetryDelay: TimeSpan = .seconds(10),
        firstCheckSpread: TimeSpan? = nil, maximumRetryAfter: TimeSpan = .days(1)
    ) {
        self.maximumRetryAfter = maximumRetryAfter
        self.checkPeriod = checkPeriod
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff ?? min(.hours(6), checkPeriod)
        self.minimumRetryDelay = minimumRetryDelay
        self.firstCheckSpread = firstCheckSpread ?? min(.minutes(5), checkPeriod)
    }

    /// The policy for a source of `dialect` (nil: not known yet), with the defaults above.
    ///
    /// - Parameter defaultCheckPeriod: The configured check period for non-iNotify sources.
    public static func `for`(
        _ dialect: FeedDialect?, defaultCheckPeriod: TimeSpan = PollingPolicy.defaultCheckPeriod
    ) -> PollingPolicy {
        PollingPolicy(checkPeriod: dialect == .iNotify ? iNotifyCheckPeriod : defaultCheckPeriod)
    }

    /// When to make the first check of a source after start.
    ///
    /// - Complexity: O(1).
    public func firstCheck(now: Instant, using generator: inout some RandomNumberGenerator) -> Instant {
        now + Self.random(upTo: firstCheckSpread, using: &generator)
    }

    /// When to check again after a check that succeeded (a new feed or 304 Not Modified) at `now`.
    ///
    /// - Complexity: O(1).
    public func nextCheck(afterSuccessAt now: Instant) -> Instant {
        now + checkPeriod
    }

    /// When to check again after the `failures`-th failure in a row, at `now`.
    ///
    /// - Parameters:
    ///   - failures: How many checks in a row have failed, this one included (1 or more).
    ///   - retryAfter: The server's `Retry-After`, if it sent one.
    /// - Complexity: O(1).
    public func nextCheck(
        afterFailure failures: Int, at now: Instant, retryAfter: RetryAfter? = nil,
        using generator: inout some RandomNumberGenerator
    ) -> Instant {
        let ceiling = backoffCeiling(afterFailure: failures)
        let floor = min(minimumRetryDelay, ceiling)
        let delay = floor + Self.random(upTo: ceiling - floor, using: &generator)
        var next = now + delay
        if let retryAfter {
            // Honoured, but a date far in the future (or a server clock far off) must not
            // silence the source for longer than `maximumRetryAfter`.
            next = max(next, min(retryAfter.instant(after: now), now + maximumRetryAfter))
        }
        return next
    }

    /// The upper bound of the random delay after the `failures`-th failure in a row:
    /// `min(maximumBackoff, initialBackoff × 2^(failures−1))`.
    ///
    /// - Complexity: O(1).
    public func backoffCeiling(afterFailure failures: Int) -> TimeSpan {
        let doublings = max(0, min(failures - 1, 40))
        let (scaled, overflow) = initialBackoff.microseconds.multipliedReportingOverflow(by: 1 << Int64(doublings))
        return overflow ? maximumBackoff : min(maximumBackoff, TimeSpan(microseconds: scaled))
    }

    /// A uniformly random span in `[0, limit]`, to the microsecond.
    private static func random(upTo limit: TimeSpan, using generator: inout some RandomNumberGenerator) -> TimeSpan {
        guard limit.microseconds > 0 else { return .zero }
        return TimeSpan(microseconds: Int64.random(in: 0...limit.microseconds, using: &generator))
    }
}
