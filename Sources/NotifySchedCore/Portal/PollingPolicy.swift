/// When to check a portal feed next, so that a fleet of desktops following one portal never
/// asks it all at once (issue 6, "Polling"; issue 17, "Fleet-safe polling").
///
/// Pure: `now` and the random generator are arguments, so the daemon seeds the generator from
/// the system, and tests and the fleet simulator (`NotifySchedFleet`) use `SplitMix64`.
///
/// A desktop's checks keep a phase: after a success the next check is exactly one
/// `checkPeriod` later. Whatever lines many desktops up draws that phase anew, at random within
/// a period, so that no burst echoes period after period:
/// - a start whose planned check fell due while the daemon was not running, and a resume or
///   clock step that finds a check overdue: `newPhase`, within `[0, checkPeriod]`;
/// - a failure of a source with a copy in force: within `[½, 1½] × checkPeriod` from the
///   failure, or from a `Retry-After` (up to `maximumRetryAfter`) when that is later, so that
///   an outage asks no more of the portal than its steady load, and recovery no more either;
/// - the first copy of a source: the next check at a new phase, breaking up the wave of a
///   fleet that started following the portal together.
/// A source with no copy has nothing to show: its first check falls within `promptSpread`
/// (a few seconds), and it retries after a failure with exponential backoff and full jitter
/// (`backoffCeiling`), never before a `Retry-After`.
public struct PollingPolicy: Hashable, Sendable {
    /// How often a healthy source is checked. The default is 12 hours for iNotify sources
    /// (iNotify's `checkPeriod` of 0.5 day) and `defaultCheckPeriod` for the others.
    public var checkPeriod: TimeSpan
    /// Without a copy: the ceiling of the first backoff. The default is 1 minute.
    public var initialBackoff: TimeSpan
    /// Without a copy: the largest backoff ceiling. The default is 6 hours, or `checkPeriod`
    /// when that is shorter.
    public var maximumBackoff: TimeSpan
    /// Without a copy: the shortest delay after a failure, so that full jitter never retries at
    /// once. The default is 10 seconds.
    public var minimumRetryDelay: TimeSpan
    /// The first check of a source with no copy falls at random within this span. The default
    /// is 5 seconds, or `checkPeriod` when that is shorter.
    public var promptSpread: TimeSpan
    /// The longest wait a `Retry-After` can impose. The default is 1 day.
    public var maximumRetryAfter: TimeSpan

    /// The check period of non-iNotify sources unless configured. The default is 1 hour.
    public static let defaultCheckPeriod = TimeSpan.hours(1)
    /// iNotify's own `checkPeriod` default: 0.5 day.
    public static let iNotifyCheckPeriod = TimeSpan.hours(12)

    public init(
        checkPeriod: TimeSpan = PollingPolicy.defaultCheckPeriod, initialBackoff: TimeSpan = .minutes(1),
        maximumBackoff: TimeSpan? = nil, minimumRetryDelay: TimeSpan = .seconds(10), promptSpread: TimeSpan? = nil,
        maximumRetryAfter: TimeSpan = .days(1)
    ) {
        self.maximumRetryAfter = maximumRetryAfter
        self.checkPeriod = checkPeriod
        self.initialBackoff = initialBackoff
        self.maximumBackoff = maximumBackoff ?? min(.hours(6), checkPeriod)
        self.minimumRetryDelay = minimumRetryDelay
        self.promptSpread = promptSpread ?? min(.seconds(5), checkPeriod)
    }

    /// The policy for a source of `dialect` (nil: not known yet), with the defaults above.
    ///
    /// - Parameter defaultCheckPeriod: The configured check period for non-iNotify sources.
    public static func `for`(
        _ dialect: FeedDialect?, defaultCheckPeriod: TimeSpan = PollingPolicy.defaultCheckPeriod
    ) -> PollingPolicy {
        PollingPolicy(checkPeriod: dialect == .iNotify ? iNotifyCheckPeriod : defaultCheckPeriod)
    }

    /// A check at a phase drawn anew: at random within one period from `now`.
    ///
    /// - Complexity: O(1).
    public func newPhase(from now: Instant, using generator: inout some RandomNumberGenerator) -> Instant {
        now + Self.random(upTo: checkPeriod, using: &generator)
    }

    /// The first check of a source whose last planned check is overdue at `now` (or that had
    /// none): at a new phase with a copy, within `promptSpread` without one.
    ///
    /// - Complexity: O(1).
    public func firstCheck(
        now: Instant, hasCopy: Bool, using generator: inout some RandomNumberGenerator
    ) -> Instant {
        hasCopy ? newPhase(from: now, using: &generator) : now + Self.random(upTo: promptSpread, using: &generator)
    }

    /// When to check again after a check that succeeded (a new feed or 304 Not Modified) at `now`:
    /// one period later, or at a new phase when it brought the source's first copy.
    ///
    /// - Complexity: O(1).
    public func nextCheck(
        afterSuccessAt now: Instant, firstCopy: Bool = false, using generator: inout some RandomNumberGenerator
    ) -> Instant {
        firstCopy ? newPhase(from: now, using: &generator) : now + checkPeriod
    }

    /// When to check again after the `failures`-th failure in a row, at `now`.
    ///
    /// - Parameters:
    ///   - failures: How many checks in a row have failed, this one included (1 or more).
    ///   - retryAfter: The server's `Retry-After`, if it sent one.
    ///   - hasCopy: Whether the source has a copy in force, which it shows meanwhile.
    /// - Complexity: O(1).
    public func nextCheck(
        afterFailure failures: Int, at now: Instant, retryAfter: RetryAfter? = nil, hasCopy: Bool,
        using generator: inout some RandomNumberGenerator
    ) -> Instant {
        // Honoured, but a date far in the future (or a server clock far off) must not silence
        // the source for longer than `maximumRetryAfter`.
        let allowed = retryAfter.map { max(now, min($0.instant(after: now), now + maximumRetryAfter)) } ?? now
        if hasCopy {
            let half = TimeSpan(microseconds: checkPeriod.microseconds / 2)
            return allowed + half + Self.random(upTo: checkPeriod, using: &generator)
        }
        let ceiling = backoffCeiling(afterFailure: failures)
        let floor = min(minimumRetryDelay, ceiling)
        let backoff = now + floor + Self.random(upTo: ceiling - floor, using: &generator)
        return retryAfter == nil ? backoff : max(backoff, allowed + Self.random(upTo: ceiling, using: &generator))
    }

    /// Without a copy, the upper bound of the random delay after the `failures`-th failure in
    /// a row: `min(maximumBackoff, initialBackoff × 2^(failures−1))`.
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
