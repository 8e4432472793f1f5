/// What a preview found (`PreviewRun`): every occurrence of the timed entries in its window, in
/// one zone, each with what becomes of it, and the entries that have none there.
public struct Timeline: Sendable {
    /// The zone it was computed in.
    public var zone: ZoneRules
    /// The window: occurrences due in it after its start, and the popups a daemon starting at its
    /// start catches up.
    public var window: Range<Instant>
    /// The occurrences, by the instant each shows or is decided at, then in feed order.
    public var occurrences: [TimelineOccurrence]
    /// The entries without an occurrence in the window, each with why, in feed order.
    public var quietEntries: [QuietEntry]
    /// Where the timeline stops short of the window's end, when the core's decisions or the
    /// occurrences listed reached `PreviewRun.occurrenceLimit`, or the core stopped asking to be
    /// woken while it held popups back; nil when it covers the whole window.
    public var cutShortAt: Instant?

    public init(
        zone: ZoneRules, window: Range<Instant>, occurrences: [TimelineOccurrence], quietEntries: [QuietEntry],
        cutShortAt: Instant? = nil
    ) {
        self.zone = zone
        self.window = window
        self.occurrences = occurrences
        self.quietEntries = quietEntries
        self.cutShortAt = cutShortAt
    }
}
