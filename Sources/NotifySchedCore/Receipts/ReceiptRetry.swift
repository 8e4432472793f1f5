/// When a body a collector did not take is tried again: never before its `Retry-After`, and
/// spread over the day after it, so that a fleet whose collector was down for hours comes back
/// at the pace of its daily uploads rather than all at once (docs/receipts.md, measured by
/// `notify-sched-bench fleet --receipts`).
public enum ReceiptRetry {
    /// The least wait after a refusal.
    public static let shortestWait = TimeSpan.minutes(5)
    /// The longest a `Retry-After` is obeyed: a collector that asks for more is tried daily.
    public static let longestWait = TimeSpan.days(1)
    /// How far past the wait a retry is spread.
    public static let spread = TimeSpan.days(1)

    /// The instant the upload refused at `now` may go again: after the collector's
    /// `Retry-After` (at least `shortestWait`, at most `longestWait`), plus up to `spread`.
    public static func next(
        retryAfter: RetryAfter?, at now: Instant, using generator: inout some RandomNumberGenerator
    ) -> Instant {
        let asked = retryAfter.map { $0.instant(after: now) - now } ?? .zero
        let wait = min(max(asked, shortestWait), longestWait)
        return now + wait + TimeSpan(microseconds: Int64.random(in: 0..<spread.microseconds, using: &generator))
    }
}
