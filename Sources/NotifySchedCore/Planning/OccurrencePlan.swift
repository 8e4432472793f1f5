/// What the daemon does with one timed entry at one moment: deliver its latest due occurrence
/// (a catch-up that folds any earlier ones), record missed ones, and arm the next.
///
/// The rules of DESIGN §3, around one instant per entry, the instant its occurrences are
/// *settled through* (`settledThrough`): nothing at or before it is ever shown again, so a
/// clock that steps back cannot make an occurrence fire twice. It is the latest occurrence the
/// ledger recorded (delivered or missed) or, for a recurring entry nothing was recorded of yet,
/// the instant the daemon began following it (`followsFrom`): what came before that was not
/// missed, it was not known, and what comes after it is owed even across a restart. A one-shot
/// entry seen for the first time after its time is delivered at once if its lateness allows,
/// as UILocalNotification delivers a past `fireDate`.
///
/// An occurrence is on time when it fell due while the daemon watched the clock
/// (`watchedSince`), however long delivering it took: a zero `maxLateness` (ZBiM's) means
/// "not after a downtime", not "within the same microsecond". Otherwise it is late by the time
/// since it fell due, or since the end of the quiet hours that held it (the user chose that
/// wait), and too late beyond the entry's `maxLateness`.
public struct OccurrencePlan: Sendable, Equatable {
    /// The occurrence to deliver now, if one is due within its lateness window.
    public var deliver: Instant?
    /// Whether `deliver` stands for more than one due occurrence (a catch-up).
    public var foldsEarlier: Bool
    /// The latest due occurrence that is too late to show: the ledger records it as missed.
    public var missed: Instant?
    /// The next occurrence after `now` (and after anything already settled), to arm a timer for.
    public var next: Instant?
    /// Set for a recurring entry with nothing settled yet: the instant (`now`) from which the
    /// daemon follows it, which it stores so that the entry's first occurrence is owed.
    public var followsFrom: Instant?

    public init(
        deliver: Instant? = nil, foldsEarlier: Bool = false, missed: Instant? = nil, next: Instant? = nil,
        followsFrom: Instant? = nil
    ) {
        self.deliver = deliver
        self.foldsEarlier = foldsEarlier
        self.missed = missed
        self.next = next
        self.followsFrom = followsFrom
    }

    /// Plans `entry` at `now`.
    ///
    /// - Parameters:
    ///   - entry: A schedule entry; event- and check-driven entries get an empty plan.
    ///   - settledThrough: The instant the entry's occurrences are settled through (see the type's
    ///     notes); nil when the entry is new.
    ///   - now: The current time.
    ///   - context: The user's zone, quiet hours, application version and the watched span.
    /// - Complexity: that of `Trigger.owedOccurrences(atOrBefore:after:userZone:memo:)`.
    public init(for entry: ScheduleEntry, settledThrough: Instant?, now: Instant, context: PlanningContext) {
        var memo = ElapseMemo(keeping: 0)
        self.init(for: entry, settledThrough: settledThrough, now: now, context: context, memo: &memo)
    }

    /// Plans `entry` at `now`, as one of many planned at `now`: `memo` keeps the calendar
    /// elapses found for them.
    public init(
        for entry: ScheduleEntry, settledThrough: Instant?, now: Instant, context: PlanningContext,
        memo: inout ElapseMemo
    ) {
        self.init()
        guard Self.admits(entry, at: now, context: context) else { return }
        let trigger = entry.trigger
        let userZone = context.userZone
        switch trigger {
        case .immediate:
            if settledThrough == nil { deliver = now }
            return
        case .repeating, .calendar, .alarm:
            if settledThrough == nil { followsFrom = now }
        case .once, .events, .check:
            break
        }
        let owed = trigger.owedOccurrences(
            atOrBefore: now, after: settledThrough ?? followsFrom, userZone: userZone, memo: &memo)
        if let latest = owed.latest {
            let heldUntil = context.quietHours?.end(holding: entry, at: latest, in: userZone)
            let onTime = context.watchedSince.map { latest >= $0 } ?? false
            if onTime || now - max(latest, heldUntil ?? latest) <= entry.maxLateness {
                deliver = latest
                foldsEarlier = owed.foldsEarlier
            } else {
                missed = latest
            }
        }
        // After a backward clock step, occurrences up to the settled one stay done: `next` is
        // after both `now` and what is settled.
        next = owed.next.flatMap { entry.isLive(at: $0) ? $0 : nil }
    }

    /// Whether anything of `entry` may be shown at `now`: it has not expired (an expired entry
    /// is not shown at all, not even an occurrence from before it expired) and the source's
    /// application version is within its `minVersion`/`maxVersion`.
    public static func admits(_ entry: ScheduleEntry, at now: Instant, context: PlanningContext) -> Bool {
        EntryEnding.exclusion(of: entry, at: now, context: context) == nil
    }
}

/// What planning an entry needs beyond the entry and the time: where and how the user is.
public struct PlanningContext: Sendable {
    /// The user's current zone, for floating times and quiet hours.
    public var userZone: ZoneRules
    /// The user's quiet hours, which hold popups that are not critical.
    public var quietHours: QuietHours?
    /// The application version the entry's source is read for: an entry whose
    /// `minVersion`/`maxVersion` leave it out is neither delivered nor armed. Nil admits all.
    public var applicationVersion: String?
    /// Since when the daemon has watched the clock without a gap (its start, the last resume or
    /// clock step): occurrences due since then are on time. Nil when it is not running (`list`).
    public var watchedSince: Instant?

    public init(
        userZone: ZoneRules, quietHours: QuietHours? = nil, applicationVersion: String? = nil,
        watchedSince: Instant? = nil
    ) {
        self.userZone = userZone
        self.quietHours = quietHours
        self.applicationVersion = applicationVersion
        self.watchedSince = watchedSince
    }
}

extension ScheduleEntry {
    /// Whether the entry has not expired at `instant`.
    fileprivate func isLive(at instant: Instant) -> Bool {
        expires.map { instant < $0 } ?? true
    }
}
