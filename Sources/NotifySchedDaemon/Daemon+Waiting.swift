import NotifySchedCore
import NotifySchedStore

// The popups that session events, posted events and iNotify checks chose: they are stored
// with the state change that chose them and leave the store in the transaction that records
// their delivery, so a crash, SIGTERM, quiet hours or a missing notification server delays
// them but never loses them. When each goes out is the `PopupQueue`'s decision.
extension Daemon {
    /// Takes up the popups a previous daemon left waiting.
    func loadWaitingPopups() {
        do {
            core.waiting = PopupQueue(try store.waitingPopups())
            if !core.waiting.items.isEmpty {
                report("notify-sched: \(core.waiting.items.count) popups waiting from before")
            }
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// Shows the waiting popups whose time has come, in order. When the server does not take
    /// one, it and the rest are held for `retryDelay` (or until a server appears).
    ///
    /// - Returns: The occurrence ids of the popups shown.
    @discardableResult
    func deliverWaiting(at now: Instant) -> Set<String> {
        // Read before the queue is changed: the lookup must not reach into the core meanwhile.
        let entries = entriesByLocation()
        var lookup: [String: [String: ScheduleEntry]] = [:]
        let ready = core.waiting.takeReady(at: now, quietHours: configuration.quietHours, userZone: userZone) {
            Self.entry(of: $0, in: entries, lookup: &lookup)
        }
        var shown: Set<String> = []
        for (position, decision) in ready.enumerated() {
            switch decision {
            case .drop(let popup):
                forget(popup, because: "\(popup.entryID) is no longer in its feed")
            case .show(let item, let entry):
                switch deliver(entry, of: item.popup.source, occurrence: item.popup.occurrence, at: now) {
                case .shown:
                    shown.insert(item.popup.occurrenceID)
                case .passedOver:
                    forget(item.popup, because: nil)
                case .failed:
                    let unshown = ready[position...].compactMap {
                        if case .show(let item, _) = $0 { item } else { nil }
                    }
                    core.waiting.putBack(unshown, heldUntil: now + Self.retryDelay)
                    return shown
                }
            }
        }
        return shown
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

    /// The entry a waiting popup shows, from its feed as in force now (`entries`, by
    /// location); `lookup` keeps each source's entries by id for the popups that follow.
    private static func entry(
        of popup: WaitingPopup, in entries: [String: [ScheduleEntry]], lookup: inout [String: [String: ScheduleEntry]]
    ) -> ScheduleEntry? {
        if lookup[popup.source] == nil {
            lookup[popup.source] = Dictionary(
                (entries[popup.source] ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return lookup[popup.source]?[popup.entryID]
    }
}
