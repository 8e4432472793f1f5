/// A popup chosen by a session event, a posted event or an iNotify check, waiting to be shown:
/// for its time (an iSmartNews queue's timeout), for quiet hours to end, or for a notification
/// server.
///
/// The daemon stores it with the state change that chose it, in one transaction, and removes it
/// in the transaction that records its delivery, so neither a crash nor SIGTERM loses it.
public struct WaitingPopup: Sendable, Equatable {
    /// The feed the entry came from.
    public var source: String
    /// The entry's id within its source.
    public var entryID: String
    /// The occurrence it shows: when the event or check chose it, or when its queue lets it out.
    public var occurrence: Instant

    public init(source: String, entryID: String, occurrence: Instant) {
        self.source = source
        self.entryID = entryID
        self.occurrence = occurrence
    }

    /// The occurrence's id, as the ledger and the popup's hint carry it.
    public var occurrenceID: String {
        LedgerRecord.occurrenceID(source: source, entryID: entryID, occurrence: occurrence)
    }
}
