/// Why a timed entry has no occurrence to come, as `list` says it in place of `pending`.
public enum EntryEnding: String, Sendable, CaseIterable {
    /// Its occurrences are over: a one-shot time passed, a series reached its `count` or
    /// `until`, an immediate entry was shown.
    case ended
    /// Its `expires` instant has passed: nothing of it shows again.
    case expired
    /// The source's application version is outside its `minVersion`/`maxVersion`.
    case otherVersion = "other version"

    /// Why `entry` has nothing to come after `now`, or nil when it has an occurrence to come or
    /// is shown on events or checks rather than at a time.
    ///
    /// - Parameter comesAgain: Whether the entry has an occurrence after `now` and after what
    ///   it is settled through, or one a daemon starting now would still deliver
    ///   (`OccurrencePlan.next`, `OccurrencePlan.deliver`).
    public static func of(
        _ entry: ScheduleEntry, now: Instant, context: PlanningContext, comesAgain: Bool
    ) -> EntryEnding? {
        switch entry.trigger {
        case .events, .check: return nil
        case .immediate, .once, .repeating, .calendar, .alarm: break
        }
        return exclusion(of: entry, at: now, context: context) ?? (comesAgain ? nil : .ended)
    }

    /// Why nothing of `entry` may show at `now`: it has expired (not even an occurrence from
    /// before it expired shows), or the source's application version is outside its
    /// `minVersion`/`maxVersion`; nil when it may show (`OccurrencePlan.admits`).
    static func exclusion(of entry: ScheduleEntry, at now: Instant, context: PlanningContext) -> EntryEnding? {
        if let expires = entry.expires, now >= expires { return .expired }
        if let version = context.applicationVersion, !entry.versions.admits(version) { return .otherVersion }
        return nil
    }
}
