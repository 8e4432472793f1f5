/// How long a snooze lasts: a span, or until tomorrow morning in the user's zone.
public enum Snooze: Sendable, Hashable {
    /// Back after this long.
    case after(TimeSpan)
    /// Back at `morningHour` on the next day, in the user's zone.
    case tomorrowMorning

    /// The hour "tomorrow morning" means.
    public static let morningHour = 9
    /// The longest snooze: a year, far beyond any wish to be reminded and well inside an instant.
    public static let longest = TimeSpan.days(366)

    /// `tomorrow`, or a duration (`10min`, `1h`, `2d`) from a second to `longest`; nil otherwise.
    public init?(parsing text: String) {
        if text.trimmingSpaces.lowercased() == "tomorrow" {
            self = .tomorrowMorning
            return
        }
        guard let span = TimeSpan.parse(text), span >= .seconds(1), span <= Self.longest else { return nil }
        self = .after(span)
    }

    /// When a snooze asked for at `now` ends, for a user in `zone`: `morningHour` of the next
    /// calendar day there (moved past a gap as floating times are).
    public func until(from now: Instant, in zone: ZoneRules) -> Instant {
        switch self {
        case .after(let span):
            return now + span
        case .tomorrowMorning:
            let today = zone.civil(at: now)
            let (year, month, day) = CivilDateTime.civil(fromDaysSinceEpoch: today.daysSinceEpoch + 1)
            return zone.instant(
                forFloating: CivilDateTime(
                    year: Int(year), month: Int(month), day: Int(day), hour: Self.morningHour))
        }
    }
}
