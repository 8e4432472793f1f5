/// The popups that session events, posted events and iNotify checks chose, waiting to be shown
/// (`WaitingPopup`), and the decisions about when each goes out: at its occurrence (an
/// iSmartNews queue's timeout puts it later), after the quiet hours that hold it, after a retry
/// delay when the notification server did not take the popup before it. They go out in the
/// order of their occurrences, and in the order they were chosen among equal ones.
///
/// Pure and deterministic, like `OccurrencePlanner`: time comes in as an argument, and the daemon
/// carries out what `takeReady(at:quietHours:userZone:entry:)` returns, then tells the queue
/// what did not go out (`putBack(_:heldUntil:)`). It holds each waiting popup once; the state
/// database keeps them across restarts.
public struct PopupQueue: Sendable {
    /// One waiting popup, as the queue holds it.
    public struct Item: Sendable, Equatable {
        public var popup: WaitingPopup
        /// The entry as it was when chosen; nil after a restart or a change of its feed, when it
        /// is looked up again by id (and the popup dropped if its feed no longer has it).
        public var entry: ScheduleEntry?
        /// Held until then: the end of quiet hours, or the retry after the server did not take it.
        public var heldUntil: Instant?
        /// When it was added, among the popups of the queue: the tie-break between equal occurrences.
        fileprivate var order = 0

        public init(popup: WaitingPopup, entry: ScheduleEntry? = nil) {
            self.popup = popup
            self.entry = entry
        }

        /// The earliest time it may be shown.
        public var readyAt: Instant { max(popup.occurrence, heldUntil ?? popup.occurrence) }

        public static func == (lhs: Item, rhs: Item) -> Bool {
            let sameEntry =
                switch (lhs.entry, rhs.entry) {
                case (nil, nil): true
                case (let left?, let right?): left.hasSameMeaning(as: right)
                default: false
                }
            return lhs.popup == rhs.popup && sameEntry && lhs.heldUntil == rhs.heldUntil && lhs.order == rhs.order
        }
    }

    /// What to do with a popup whose time has come.
    public enum Ready: Sendable {
        /// Show it with this entry, then `putBack` it if the server did not take it.
        case show(Item, ScheduleEntry)
        /// Drop it: its feed no longer has its entry.
        case drop(WaitingPopup)
    }

    /// The waiting popups, in the order they go out.
    public private(set) var items: [Item] = []
    private var added = 0

    /// A queue of `popups`, as a restarted daemon reads them from the state database.
    public init(_ popups: [WaitingPopup] = []) {
        add(popups.map { Item(popup: $0) })
    }

    /// When the next popup may go out; nil when none waits.
    public var nextDeadline: Instant? { items.lazy.map(\.readyAt).min() }

    /// Whether a popup of `source` waits.
    public func hasPopup(of source: String) -> Bool {
        items.contains { $0.popup.source == source }
    }

    /// Popups for `entries` of `source`, each to be shown at `occurrence`, leaving out the
    /// entries that wait already (chosen before the server or the quiet hours let them out,
    /// perhaps by the daemon before a restart): an entry is never chosen twice. Not added yet:
    /// the daemon stores them first.
    public func popups(for entries: [ScheduleEntry], of source: String, at occurrence: Instant) -> [Item] {
        let waiting = Set(items.lazy.filter { $0.popup.source == source }.map(\.popup.entryID))
        return entries.filter { !waiting.contains($0.id) }.map {
            Item(popup: WaitingPopup(source: source, entryID: $0.id, occurrence: occurrence), entry: $0)
        }
    }

    /// Adds popups (stored already) to those waiting, in their place in the order.
    public mutating func add(_ new: [Item]) {
        guard !new.isEmpty else { return }
        for var item in new {
            item.order = added
            added += 1
            items.append(item)
        }
        sortItems()
    }

    /// Puts back popups taken by `takeReady` that did not go out (no server took them), held
    /// until `heldUntil`, in their place in the order.
    public mutating func putBack(_ returned: [Item], heldUntil: Instant) {
        guard !returned.isEmpty else { return }
        items += returned.map {
            var item = $0
            item.heldUntil = heldUntil
            return item
        }
        sortItems()
    }

    /// Takes the popups whose time has come at `now`, in order: each to show with its entry
    /// (the one it was chosen with, else `entry(popup)`), or to drop when its entry is gone.
    /// One that quiet hours hold, unless its entry is critical, stays, held until they end.
    public mutating func takeReady(
        at now: Instant, quietHours: QuietHours?, userZone: ZoneRules, entry: (WaitingPopup) -> ScheduleEntry?
    ) -> [Ready] {
        var ready: [Ready] = []
        var kept: [Item] = []
        for var item in items {
            guard item.readyAt <= now else {
                kept.append(item)
                continue
            }
            guard let shown = item.entry ?? entry(item.popup) else {
                ready.append(.drop(item.popup))
                continue
            }
            if let quietEnd = quietHours?.end(holding: shown, at: now, in: userZone) {
                item.heldUntil = quietEnd
                kept.append(item)
                continue
            }
            ready.append(.show(item, shown))
        }
        items = kept
        return ready
    }

    /// Lets the popups held for a retry go out at once: a notification server appeared.
    public mutating func releaseHeld() {
        for index in items.indices { items[index].heldUntil = nil }
    }

    /// Drops the entries the popups of `source` carry, after its feed changed: each is looked
    /// up again when it goes out.
    public mutating func forgetEntries(of source: String) {
        for index in items.indices where items[index].popup.source == source { items[index].entry = nil }
    }

    private mutating func sortItems() {
        items.sort { ($0.popup.occurrence, $0.order) < ($1.popup.occurrence, $1.order) }
    }
}
