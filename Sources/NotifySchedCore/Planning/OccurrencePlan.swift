/// What the daemon does with one timed entry at one moment: deliver its latest due occurrence
/// (a catch-up that folds any earlier ones), record missed ones, and arm the next.
///
/// The rules of DESIGN §3: occurrences missed by no more than the entry's `maxLateness` are
/// caught up once per entry; older ones are recorded as missed, not shown; and nothing at or
/// before the last occurrence the ledger recorded is ever shown again, so a clock that steps
/// back cannot make an occurrence fire twice. A repeating entry the ledger has never seen
/// starts at its next occurrence: what came before it was not missed, it was not known. A
/// one-shot entry seen for the first time after its time is delivered at once if its lateness
/// allows, as UILocalNotification delivers a past `fireDate`. An occurrence that fell due
/// inside quiet hours waited for them by the user's choice: its lateness counts from their end.
public struct OccurrencePlan: Sendable, Equatable {
    /// The occurrence to deliver now, if one is due within its lateness window.
    public var deliver: Instant?
    /// Whether `deliver` stands for more than one due occurrence (a catch-up).
    public var foldsEarlier: Bool
    /// The latest due occurrence that is too late to show: the ledger records it as missed.
    public var missed: Instant?
    /// The next occurrence after `now` (and after anything already recorded), to arm a timer for.
    public var next: Instant?

    public init(deliver: Instant? = nil, foldsEarlier: Bool = false, missed: Instant? = nil, next: Instant? = nil) {
        self.deliver = deliver
        self.foldsEarlier = foldsEarlier
        self.missed = missed
        self.next = next
    }

    /// Plans `entry` at `now`.
    ///
    /// - Parameters:
    ///   - entry: A schedule entry; event- and check-driven entries get an empty plan.
    ///   - lastRecorded: The latest occurrence the ledger recorded for the entry (delivered or
    ///     missed); nil when the entry is new.
    ///   - now: The current time.
    ///   - userZone: The user's current zone, for floating times and quiet hours.
    ///   - quietHours: The user's quiet hours, which hold popups that are not critical.
    /// - Complexity: that of `Trigger.occurrences` and `Trigger.lastOccurrence`.
    public init(
        for entry: ScheduleEntry, lastRecorded: Instant?, now: Instant, userZone: ZoneRules,
        quietHours: QuietHours? = nil
    ) {
        self.init()
        let trigger = entry.trigger
        if case .immediate = trigger {
            if lastRecorded == nil { deliver = now }
            return
        }
        let isLive = { (instant: Instant) in entry.expires.map { instant < $0 } ?? true }
        let afterNow = Instant(microseconds: now.microseconds + 1)
        let isRecurring =
            switch trigger {
            case .repeating, .calendar: true
            default: false
            }
        if lastRecorded != nil || !isRecurring,
            let latest = trigger.lastOccurrence(before: afterNow, userZone: userZone), isLive(latest),
            lastRecorded.map({ latest > $0 }) ?? true
        {
            let heldUntil = quietHours?.end(holding: entry, at: latest, in: userZone)
            if now - max(latest, heldUntil ?? latest) <= entry.maxLateness {
                deliver = latest
                if let lastRecorded, let earlier = trigger.lastOccurrence(before: latest, userZone: userZone) {
                    foldsEarlier = earlier > lastRecorded
                }
            } else {
                missed = latest
            }
        }
        // After a backward clock step, occurrences up to the last recorded one stay done.
        let horizon = max(afterNow, lastRecorded.map { Instant(microseconds: $0.microseconds + 1) } ?? afterNow)
        if let upcoming = trigger.occurrences(onOrAfter: horizon, limit: 1, userZone: userZone).first, isLive(upcoming)
        {
            next = upcoming
        }
    }
}
