/// A popup of an occurrence shown, as caps count it: one per occurrence, however often its
/// popup comes back (a "Remind Me Later", a take-over, a crash's re-issue), and one for a
/// catch-up that folds several occurrences.
public struct Impression: Sendable, Hashable {
    /// The occurrence's id (`LedgerRecord.occurrenceID`).
    public var occurrenceID: String
    /// The feed the entry came from.
    public var source: String
    public var entryID: String
    /// The groups the entry belonged to when it was shown: they keep counting it.
    public var groups: [String]
    /// When the core decided to show it.
    public var shownAt: Instant
    /// Whether it was critical: the user's `max-popups` neither bounds nor counts it.
    public var critical: Bool

    public init(
        occurrenceID: String, source: String, entryID: String, groups: [String], shownAt: Instant, critical: Bool
    ) {
        self.occurrenceID = occurrenceID
        self.source = source
        self.entryID = entryID
        self.groups = groups
        self.shownAt = shownAt
        self.critical = critical
    }

    /// The impression of showing `entry` of `source`, due at `occurrence`, at `now`.
    public init(of entry: ScheduleEntry, source: String, occurrence: Instant, at now: Instant) {
        self.init(
            occurrenceID: LedgerRecord.occurrenceID(source: source, entryID: entry.id, occurrence: occurrence),
            source: source, entryID: entry.id, groups: entry.deliveryRules?.groups ?? [], shownAt: now,
            critical: entry.content.urgency == .critical)
    }
}
