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
    /// The snooze buttons popups and prompts offer unless the configuration says otherwise.
    public static let defaultChoices: [Snooze] = [.after(.minutes(10)), .after(.hours(1)), .tomorrowMorning]
    /// The most snooze buttons a configuration may ask for: more would not fit beside a popup's own.
    public static let mostChoices = 3

    /// `tomorrow`, or a duration (`10min`, `1h`, `2d`) from a second to `longest`; nil otherwise.
    public init?(parsing text: String) {
        if text.trimmingSpaces.lowercased() == "tomorrow" {
            self = .tomorrowMorning
            return
        }
        guard let span = TimeSpan.parse(text), span >= .seconds(1), span <= Self.longest else { return nil }
        self = .after(span)
    }

    /// The action key of its button: `snooze-SECONDS` or `snooze-tomorrow`.
    public var buttonKey: String {
        switch self {
        case .after(let span): Self.keyPrefix + String(span.microseconds / 1_000_000)
        case .tomorrowMorning: Self.keyPrefix + "tomorrow"
        }
    }

    /// The snooze a button's action key stands for; nil for any other key, and for a span out of
    /// bounds (a key is what the server reports, not what notify-sched necessarily sent).
    public init?(buttonKey key: String) {
        guard key.hasPrefix(Self.keyPrefix) else { return nil }
        let rest = key.dropFirst(Self.keyPrefix.count)
        if rest == "tomorrow" {
            self = .tomorrowMorning
            return
        }
        guard rest.allSatisfy(\.isASCIIDigit), let seconds = Int64(rest), seconds >= 1,
            TimeSpan.seconds(seconds) <= Self.longest
        else { return nil }
        self = .after(.seconds(seconds))
    }

    /// Its button's label in the language of `catalog`: `In 10min`, `In 1h`, `Tomorrow`.
    public func label(in catalog: MessageCatalog) -> String {
        switch self {
        case .after(let span): catalog.translated("In {span}", context: "button", ["span": span.rough])
        case .tomorrowMorning: catalog.translated("Tomorrow", context: "button")
        }
    }

    /// When a snooze asked for at `now` ends, for a user in `zone`: `morningHour` of the next
    /// calendar day there (moved past a gap as floating times are).
    public func until(from now: Instant, in zone: ZoneRules) -> Instant {
        switch self {
        case .after(let span):
            return now + span
        case .tomorrowMorning:
            var morning = CivilDateTime(midnightOfDay: zone.civil(at: now).daysSinceEpoch + 1)
            morning.hour = Self.morningHour
            return zone.instant(forFloating: morning)
        }
    }

    private static let keyPrefix = "snooze-"
}
