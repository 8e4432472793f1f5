/// One of an iSmartNews meta item's `dates` (seed semantics §2.8): a time range it may show
/// in, at most `shownLimit` times; for a weekly or monthly range, that many times a week or a
/// month.
///
/// Weekly (`MO(09:00)`…`SU(18:00)`) and monthly (`1(09:00)`…`15(18:00)`) ranges are wall-clock
/// times in the user's zone, Monday first, start included and end excluded, as iSmartNews
/// compares them; a range whose end comes before its start never matches, as in iSmartNews.
public struct ShowRange: Sendable, Hashable {
    /// When the range holds.
    public enum Span: Sendable, Hashable {
        /// Between two instants.
        case between(Instant, Instant)
        /// Every week, in seconds since Monday 00:00 local time.
        case weekly(start: Int, end: Int)
        /// Every month, in seconds since the 1st at 00:00 local time.
        case monthly(start: Int, end: Int)

        /// A stable text of the span, part of where its count is stored.
        public var key: String {
            switch self {
            case .between(let start, let end): "d\(start.microseconds)-\(end.microseconds)"
            case .weekly(let start, let end): "w\(start)-\(end)"
            case .monthly(let start, let end): "m\(start)-\(end)"
            }
        }

        /// Whether it can ever hold: its end after its start (iSmartNews compares them as they
        /// are, so a range wrapping over the week's or the month's end never matches).
        public var canHold: Bool {
            switch self {
            case .between(let start, let end): start < end
            case .weekly(let start, let end), .monthly(let start, let end): start < end
            }
        }
    }

    /// The range's identity: its own `uuid`, or the item's uuid with its place; its count is
    /// kept under it across feed reloads.
    public var id: String
    public var span: Span
    /// How many times the item may show in the range (in each week or month of a recurring
    /// one); nil means no limit.
    public var shownLimit: Int?

    public init(id: String, span: Span, shownLimit: Int? = nil) {
        self.id = id
        self.span = span
        self.shownLimit = shownLimit
    }

    /// Whether `now`, read in `zone` for a weekly or monthly range, falls in the range.
    public func contains(_ now: Instant, zone: ZoneRules) -> Bool {
        switch span {
        case .between(let start, let end):
            return start <= now && now < end
        case .weekly(let start, let end):
            let local = zone.civil(at: now)
            let seconds = Self.mondayIndex(of: local) * 86_400 + Self.secondOfDay(local)
            return start <= seconds && seconds < end
        case .monthly(let start, let end):
            let local = zone.civil(at: now)
            let seconds = (local.day - 1) * 86_400 + Self.secondOfDay(local)
            return start <= seconds && seconds < end
        }
    }

    /// The week (its Monday's day number) or month `now` is in, read in `zone`, whose count the
    /// range keeps; nil for a range between two instants, whose count never starts again.
    public func period(of now: Instant, zone: ZoneRules) -> Int64? {
        let local = zone.civil(at: now)
        switch span {
        case .between: return nil
        case .weekly: return local.daysSinceEpoch - Int64(Self.mondayIndex(of: local))
        case .monthly: return Int64(local.year) * 12 + Int64(local.month - 1)
        }
    }

    /// 0 for Monday … 6 for Sunday.
    private static func mondayIndex(of local: CivilDateTime) -> Int {
        (local.weekday + 6) % 7
    }

    private static func secondOfDay(_ local: CivilDateTime) -> Int {
        local.hour * 3600 + local.minute * 60 + local.second
    }
}
