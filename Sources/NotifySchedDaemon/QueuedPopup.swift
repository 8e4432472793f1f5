import NotifySchedCore

/// A popup waiting to be shown (see `WaitingPopup`), as the daemon holds it.
struct QueuedPopup {
    var popup: WaitingPopup
    /// The entry as it was when chosen; nil after a restart or a change of its feed, when it is
    /// looked up again by id (and the popup dropped if its feed no longer has it).
    var entry: ScheduleEntry?
    /// Held until then: the end of quiet hours, or the retry after the server did not take it.
    var heldUntil: Instant?

    /// The earliest time it may be shown.
    var readyAt: Instant { max(popup.occurrence, heldUntil ?? popup.occurrence) }
}
