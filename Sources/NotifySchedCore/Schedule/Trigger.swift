/// When an entry fires.
///
/// A calendar expression and an event binding are large, so those two cases keep their payload
/// in a box; the others are values (a schedule entry keeps the commonest of them in fewer bytes
/// still, see `ScheduleEntry`).
public enum Trigger: Sendable, Hashable {
    /// As soon as the feed is loaded (an entry with no time and no events).
    case immediate
    /// Once, at a time.
    case once(FireTime)
    /// At `first` and then every `interval`, in calendar arithmetic (DESIGN §3).
    case repeating(first: FireTime, every: RepeatInterval, bounds: RecurrenceBounds)
    /// At every elapse of a systemd calendar expression, not before `notBefore` when given.
    /// The expression is read in its own zone if it names one, else in `zone` (the entry's
    /// `timeZone`), else in the user's current zone.
    indirect case calendar(CalendarExpression, zone: ZoneRules?, notBefore: FireTime?, bounds: RecurrenceBounds)
    /// When named events occur, filtered by their patterns (iSmartNews, native `events`).
    indirect case events(EventBinding)
    /// At each instant an iCalendar alarm goes off, over its event's or to-do's instances.
    indirect case alarm(AlarmSeries)
    /// When the daemon checks its iNotify source (start-up, resume, unlock), throttled by its periods.
    case check
}

/// A time from a feed, resolved against zones only when occurrences are computed.
public struct FireTime: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A fixed instant: a time with `Z` or an offset, or a plist `<date>`.
        case absolute(Instant)
        /// A wall-clock time, in `zone` or else in the user's current zone.
        ///
        /// Out of line: a civil time is 56 bytes, an instant 8, and a schedule holds a fire time
        /// per entry, most of them absolute.
        indirect case floating(CivilDateTime)
    }

    // The zone first: a trigger's box holds a fire time per entry, and after the zone's 8 bytes
    // the kind's 9 leave no padding before the next field (17 bytes, not 24).
    /// The entry's `timeZone`: where floating times are read and calendar arithmetic is done.
    /// Nil means the user's current zone.
    public var zone: ZoneRules?
    public var kind: Kind

    public init(_ kind: Kind, zone: ZoneRules? = nil) {
        self.kind = kind
        self.zone = zone
    }

    /// The instant this time names, reading floating times in `zone` or else `userZone`
    /// (a time in a spring-forward gap moves later by the gap; a repeated time takes the first).
    public func instant(userZone: ZoneRules) -> Instant {
        switch kind {
        case .absolute(let instant): instant
        case .floating(let civil): (zone ?? userZone).instant(forFloating: civil)
        }
    }
}

/// The calendar unit a repeating entry steps by.
public enum RepeatInterval: String, Sendable, CaseIterable {
    case minute, hour, day, week, month, year
}

/// Limits on a recurrence: up to and including `until`, at most `count` occurrences in all.
public struct RecurrenceBounds: Sendable, Hashable {
    /// The last instant an occurrence may fall on; nil for none.
    public var until: Instant? {
        get { untilMicroseconds == Self.noEnd ? nil : Instant(microseconds: untilMicroseconds) }
        set { untilMicroseconds = newValue?.microseconds ?? Self.noEnd }
    }
    /// How many occurrences there are at most; nil for no limit.
    public var count: Int? {
        get { storedCount.map(Int.init) }
        set { storedCount = newValue.map { UInt32(clamping: $0) } }
    }

    // 13 bytes rather than 25 (a trigger's box holds them for each entry, and with them a
    // repeat's box takes 64 bytes of the heap rather than 96): no instant is `Int64.max`, and
    // a count is at most `maximumCount`.
    private var untilMicroseconds: Int64
    private var storedCount: UInt32?
    private static let noEnd = Int64.max

    public init(until: Instant? = nil, count: Int? = nil) {
        untilMicroseconds = until?.microseconds ?? Self.noEnd
        storedCount = count.map { UInt32(clamping: $0) }
    }

    public static let unbounded = RecurrenceBounds()

    /// The largest `count` of a `repeatInterval` entry; leave `count` out for a repeat without end.
    public static let maximumCount = 1_000_000

    /// The largest `count` of a `calendar` entry: counting a calendar expression's elapses
    /// walks them from the first at every query, so this bounds that walk to a hundred
    /// searches, the cost of an uncounted entry's catch-up search (at most 121). A
    /// `repeatInterval` entry finds its n-th occurrence directly.
    public static let maximumCalendarCount = 100
}

/// Which events an event-driven entry listens to.
public enum EventBinding: Sendable, Hashable {
    /// The feed's global events (iSmartNews items without events of their own).
    case global
    /// The entry's own events, which override the global ones.
    case local([EventRule])
}
