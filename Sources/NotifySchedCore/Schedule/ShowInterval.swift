/// How long after it was last shown an iSmartNews meta item may show again (`minShowInterval`,
/// seed semantics §2.8): a new clock hour, a new calendar day, seven calendar days, or a number
/// of seconds, in the user's zone as iSmartNews uses the device's calendar.
public enum ShowInterval: Sendable, Hashable {
    /// Not again in the same clock hour.
    case hour
    /// Not again on the same calendar day.
    case day
    /// Not again until the seventh calendar day after.
    case week
    /// Not again until this much time has passed.
    case span(TimeSpan)

    /// Whether an item last shown at `lastShown` may show at `now`, calendar hours and days
    /// read in `zone`.
    public func allows(lastShown: Instant, now: Instant, zone: ZoneRules) -> Bool {
        let last = zone.civil(at: lastShown)
        let current = zone.civil(at: now)
        switch self {
        case .hour:
            return (last.year, last.month, last.day, last.hour) != (
                current.year, current.month, current.day, current.hour
            )
        case .day:
            return last.daysSinceEpoch != current.daysSinceEpoch
        case .week:
            return abs(current.daysSinceEpoch - last.daysSinceEpoch) >= 7
        case .span(let span):
            return span <= .zero || now - lastShown >= span
        }
    }
}
