/// A server's `Retry-After` (RFC 9110 §10.2.3), sent with 429 and 503: a delay or a date.
public enum RetryAfter: Hashable, Sendable {
    /// Wait this long from when the response arrived.
    case delay(TimeSpan)
    /// Wait until this instant.
    case date(Instant)

    /// Reads the header's value: delta-seconds (`120`) or an IMF-fixdate
    /// (`Sun, 06 Nov 1994 08:49:37 GMT`).
    ///
    /// - Returns: nil when the value is neither (the header is then ignored).
    public static func parse(_ text: String) -> RetryAfter? {
        let value = text.trimmingWhitespace
        // Absurdly long delays are capped at a year rather than overflowing.
        if let delay = TimeSpan.deltaSeconds(value, cappedAt: .days(366)) { return .delay(delay) }
        return parseIMFFixdate(value).map { .date($0) }
    }

    /// The instant after which a retry is allowed, for a response that arrived at `now`.
    public func instant(after now: Instant) -> Instant {
        switch self {
        case .delay(let span): now + span
        case .date(let instant): instant
        }
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT`, the only date form senders may generate.
    private static func parseIMFFixdate(_ text: String) -> Instant? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT",
            let day = Int(parts[1]), parts[1].count == 2,
            let monthIndex = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3]), parts[3].count == 4
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2])
        else { return nil }
        let civil = CivilDateTime(
            year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second)
        guard civil.isValid else { return nil }
        return civil.instant(atOffset: 0)
    }
}
