import NotifySchedCore
import NotifySchedStore

// The popups that session events, posted events and iNotify checks chose: they are stored
// with the state change that chose them and leave the store in the transaction that records
// their delivery, so a crash, SIGTERM, quiet hours or a missing notification server delays
// them but never loses them.
extension Daemon {
    /// Queued popups for `entries` of `source`, each to be shown at `occurrence`; an entry
    /// that waits already (chosen before the server or the quiet hours let it out, perhaps by
    /// the daemon before a restart) is not added twice.
    func waitingPopups(for entries: [ScheduleEntry], of source: String, at occurrence: Instant) -> [QueuedPopup] {
        let alreadyWaiting = Set(waiting.lazy.filter { $0.popup.source == source }.map(\.popup.entryID))
        return entries.filter { !alreadyWaiting.contains($0.id) }.map {
            QueuedPopup(popup: WaitingPopup(source: source, entryID: $0.id, occurrence: occurrence), entry: $0)
        }
    }

    /// Adds popups already stored to those waiting, keeping them in the order they go out.
    func wait(_ popups: [QueuedPopup]) {
        guard !popups.isEmpty else { return }
        waiting = (waiting + popups).enumerated()
            .sorted { ($0.element.popup.occurrence, $0.offset) < ($1.element.popup.occurrence, $1.offset) }
            .map(\.element)
    }

    /// Takes up the popups a previous daemon left waiting.
    func loadWaitingPopups() {
        do {
            waiting = try store.waitingPopups().map { QueuedPopup(popup: $0) }
            if !waiting.isEmpty { report("notify-sched: \(waiting.count) popups waiting from before") }
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// Whether a popup of `source` is on screen or waiting to be.
    func hasPopupOnScreenOrWaiting(_ source: String) -> Bool {
        handler.onScreen.values.contains { $0.source == source } || waiting.contains { $0.popup.source == source }
    }

    /// Drops the entries the waiting popups of `source` carry, after its feed changed: each is
    /// looked up again when it goes out.
    func forgetWaitingEntries(of source: String) {
        for index in waiting.indices where waiting[index].popup.source == source { waiting[index].entry = nil }
    }

    /// When the next waiting popup may go out.
    var nextWaiting: Instant? { waiting.lazy.map(\.readyAt).min() }

    /// Shows the waiting popups whose time has come, in order. Inside quiet hours a popup that
    /// is not critical is held until they end; when the server does not take one, it and the
    /// rest are held for `retryDelay` (or until a server appears).
    ///
    /// - Returns: The occurrence ids of the popups shown.
    @discardableResult
    func deliverWaiting(at now: Instant) -> Set<String> {
        var shown: Set<String> = []
        var serverFailed = false
        var lookup: [String: [String: ScheduleEntry]] = [:]
        var kept: [QueuedPopup] = []
        for var item in waiting {
            guard item.readyAt <= now else {
                kept.append(item)
                continue
            }
            guard !serverFailed else {
                item.heldUntil = now + Self.retryDelay
                kept.append(item)
                continue
            }
            guard let entry = item.entry ?? entry(of: item.popup, lookup: &lookup) else {
                forget(item.popup, because: "\(item.popup.entryID) is no longer in its feed")
                continue
            }
            if let quietEnd = quietHoursEnd(for: entry, at: now) {
                item.heldUntil = quietEnd
                kept.append(item)
                continue
            }
            switch deliver(entry, of: item.popup.source, occurrence: item.popup.occurrence, at: now) {
            case .shown:
                shown.insert(item.popup.occurrenceID)
            case .passedOver:
                forget(item.popup, because: nil)
            case .failed:
                serverFailed = true
                item.heldUntil = now + Self.retryDelay
                kept.append(item)
            }
        }
        waiting = kept
        return shown
    }

    /// Lets the popups held for a retry go out at once: a notification server appeared.
    func releaseHeldPopups() {
        for index in waiting.indices { waiting[index].heldUntil = nil }
    }

    /// Removes a waiting popup that will not be shown.
    private func forget(_ popup: WaitingPopup, because reason: String?) {
        if let reason { report("notify-sched: dropped the waiting popup \(popup.occurrenceID): \(reason)") }
        do {
            try store.removeWaitingPopup(occurrenceID: popup.occurrenceID)
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// The entry a waiting popup shows, from its feed as in force now; `lookup` keeps each
    /// source's entries by id for the popups that follow.
    private func entry(of popup: WaitingPopup, lookup: inout [String: [String: ScheduleEntry]]) -> ScheduleEntry? {
        if lookup[popup.source] == nil {
            let entries = sources.firstIndex { $0.location == popup.source }.flatMap { schedule(of: $0) }?.entries ?? []
            lookup[popup.source] = Dictionary(entries.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return lookup[popup.source]?[popup.entryID]
    }
}
