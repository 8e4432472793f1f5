/// A popup that a notification server may still have on screen: the occurrence it shows (as its
/// scheduled popup, or as the prompt about it) and its id on that server, which a new popup
/// replaces in place (`Notify`'s `replaces_id`).
public struct PopupOnServer: Sendable, Equatable {
    /// The occurrence the popup shows or asks about.
    public var occurrence: DeliveredOccurrence
    /// Its id on the server.
    public var popupID: UInt32

    public init(_ occurrence: DeliveredOccurrence, popupID: UInt32) {
        self.occurrence = occurrence
        self.popupID = popupID
    }
}
