/// When a body a collector did not take is tried again: never before its `Retry-After`, and
/// spread so that a fleet that failed together does not come back together.
public enum ReceiptRetry {
    /// The backoff after failures without a `Retry-After`: 5 minutes doubling up to 6 hours.
    public static let backoff = PollingPolicy(
        checkPeriod: .days(1), initialBackoff: .minutes(5), maximumBackoff: .hours(6))
    /// The longest a `Retry-After` is obeyed: a collector that asks for more is tried daily.
    public static let longestWait = TimeSpan.days(1)

    /// The instant the upload that failed for the `failures`-th time in a row at `now` may be
    /// tried again: after the collector's `Retry-After`, plus up to as long again; else after
    /// half to all of the backoff ceiling (`PollingPolicy.backoffCeiling(afterFailure:)`).
    public static func next(
        after failures: Int, retryAfter: RetryAfter?, at now: Instant,
        using generator: inout some RandomNumberGenerator
    ) -> Instant {
        if let retryAfter {
            let wait = min(max(retryAfter.instant(after: now) - now, .seconds(1)), longestWait)
            return now + wait + TimeSpan(microseconds: Int64.random(in: 0...wait.microseconds, using: &generator))
        }
        let ceiling = backoff.backoffCeiling(afterFailure: max(failures, 1))
        let half = ceiling.microseconds / 2
        return now + TimeSpan(microseconds: half + Int64.random(in: 0...half, using: &generator))
    }
}
