/// A point on the UTC time line, in microseconds since 1970-01-01T00:00:00Z.
///
/// Microseconds are the resolution of systemd calendar expressions, whose instants the
/// schedule must reproduce exactly. The range (about ±292 000 years) covers every date a
/// feed can name.
public struct Instant: Hashable, Comparable, Sendable {
    /// Microseconds since the Unix epoch; negative before it.
    public var microseconds: Int64

    /// Creates an instant from microseconds since the Unix epoch.
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// Creates an instant from whole seconds since the Unix epoch.
    public init(secondsSinceEpoch seconds: Int64) {
        self.microseconds = seconds * 1_000_000
    }

    /// Whole seconds since the Unix epoch, rounded towards negative infinity.
    public var secondsSinceEpoch: Int64 {
        microseconds.floorDivided(by: 1_000_000)
    }

    /// The instant one microsecond later: the first after this one at the time line's resolution.
    public var nextMicrosecond: Instant { Instant(microseconds: microseconds + 1) }

    /// The instant one microsecond earlier: the last before this one.
    public var previousMicrosecond: Instant { Instant(microseconds: microseconds - 1) }

    /// The microseconds past `secondsSinceEpoch`, in `0..<1_000_000`.
    public var microsecondOfSecond: Int64 {
        microseconds.floorModulo(1_000_000)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// The instant `span` after `instant`.
    public static func + (instant: Instant, span: TimeSpan) -> Instant {
        Instant(microseconds: instant.microseconds &+ span.microseconds)
    }

    /// The instant `span` before `instant`.
    public static func - (instant: Instant, span: TimeSpan) -> Instant {
        Instant(microseconds: instant.microseconds &- span.microseconds)
    }

    /// The time from `rhs` to `lhs`.
    public static func - (lhs: Instant, rhs: Instant) -> TimeSpan {
        TimeSpan(microseconds: lhs.microseconds &- rhs.microseconds)
    }
}

/// A length of time in microseconds; negative spans point backwards.
public struct TimeSpan: Hashable, Comparable, Sendable {
    /// The length in microseconds.
    public var microseconds: Int64

    /// Creates a span of `microseconds`.
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// A span of whole seconds.
    public static func seconds(_ seconds: Int64) -> TimeSpan {
        TimeSpan(microseconds: seconds * 1_000_000)
    }

    /// A span of whole milliseconds.
    public static func milliseconds(_ milliseconds: Int64) -> TimeSpan {
        TimeSpan(microseconds: milliseconds * 1000)
    }

    /// A span of whole minutes.
    public static func minutes(_ minutes: Int64) -> TimeSpan { .seconds(minutes * 60) }

    /// A span of whole hours.
    public static func hours(_ hours: Int64) -> TimeSpan { .seconds(hours * 3600) }

    /// A span of whole days of 86 400 seconds.
    public static func days(_ days: Int64) -> TimeSpan { .seconds(days * 86_400) }

    /// The empty span.
    public static let zero = TimeSpan(microseconds: 0)

    /// Whole seconds, rounded towards negative infinity.
    public var seconds: Int64 { microseconds.floorDivided(by: 1_000_000) }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    public static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
        TimeSpan(microseconds: lhs.microseconds &+ rhs.microseconds)
    }

    public static func - (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan {
        TimeSpan(microseconds: lhs.microseconds &- rhs.microseconds)
    }

    public static func * (span: TimeSpan, factor: Int64) -> TimeSpan {
        TimeSpan(microseconds: span.microseconds &* factor)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity (Swift's `/` truncates towards zero).
    @inlinable
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder matching `floorDivided(by:)`: it has the sign of the divisor.
    @inlinable
    func floorModulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return (remainder != 0 && (remainder < 0) != (divisor < 0)) ? remainder + divisor : remainder
    }
}
