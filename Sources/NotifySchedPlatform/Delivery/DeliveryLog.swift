import NotifySchedCore

/// The occurrences notify-sched delivered lately and the handling state: what
/// `notify-sched handle ID` needs to recognise and act on an id.
///
/// A stand-in for the ledger of DESIGN §7 until the SQLite database replaces it; it keeps the
/// newest `capacity` occurrences.
public struct DeliveryLog: Sendable, Equatable {
    /// Delivered occurrences, oldest first.
    public private(set) var occurrences: [DeliveredOccurrence]
    /// What the user has done with them.
    public var state: HandlingState

    /// How many occurrences the log keeps; older ones are forgotten (and `handle` then says
    /// their ids are not notify-sched's). The default is 256.
    public static let capacity = 256

    public init(occurrences: [DeliveredOccurrence] = [], state: HandlingState = HandlingState()) {
        self.occurrences = occurrences
        self.state = state
    }

    /// The occurrence delivered under `id`, if the log still has it. O(n).
    public func occurrence(id: String) -> DeliveredOccurrence? {
        occurrences.last { $0.id == id }
    }

    /// Adds `occurrence`, dropping the oldest beyond `capacity`. Amortized O(1) until full, then O(n).
    public mutating func record(_ occurrence: DeliveredOccurrence) {
        occurrences.append(occurrence)
        if occurrences.count > Self.capacity { occurrences.removeFirst(occurrences.count - Self.capacity) }
    }
}
