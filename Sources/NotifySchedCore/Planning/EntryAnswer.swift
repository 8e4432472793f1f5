/// What the user's answer to a popup holds for the later occurrences of a native or ZBiM
/// entry: the iNotify buttons of their prompt carry iNotify's meaning over to each entry
/// (seed semantics §1.7; iNotify keeps one reminder per source, these keep one per entry).
///
/// Acting on an occurrence (the action, OK) holds nothing: a repeating entry's next occurrence
/// still comes, and a one-shot entry has none.
public enum EntryAnswer: Sendable, Equatable {
    /// "Ignore": no later occurrence of the entry is shown, as iNotify never shows an ignored
    /// key again, until the user's state is reset.
    case ignored
    /// "Remind Me Later" (or a snooze) on the popup of the occurrence due at `occurrence`: that
    /// occurrence is shown again when the reminder is due (the source's remind period after it
    /// was asked, or the snooze's end), unless a later occurrence of the entry fell due first
    /// and took its place.
    case remind(occurrence: Instant, Reminder)

    /// Whether `entry`'s occurrences follow the answers the planner holds: iNotify messages
    /// have their source-wide state (`INotifyCheck`), and iSmartNews messages their shown set.
    static func applies(to entry: ScheduleEntry) -> Bool {
        entry.dialect.keepsAnswersPerEntry
    }
}
