import NotifySchedCore
import NotifySchedPlatform
import NotifySchedStore

// The popups that session events, posted events and iNotify checks chose: they are stored
// with the state change that chose them and leave the store in the transaction that records
// their delivery, so a crash, SIGTERM, quiet hours or a missing notification server delays
// them but never loses them. When each goes out is the core's decision (`PopupQueue`).
extension DaemonDriver {
    /// Hands the core the popups a previous daemon left waiting.
    func loadWaitingPopups(at now: Instant) {
        do {
            let popups = try store.waitingPopups()
            if !popups.isEmpty { log.info("\(popups.count) popups waiting from before") }
            perform(.waitingLoaded(popups), at: now)
        } catch {
            log.error(error.message)
        }
    }

    /// Removes a waiting popup that will not be shown from the store.
    func dropWaiting(_ popup: WaitingPopup, because reason: String?) {
        if let reason { log.notice("dropped the waiting popup \(popup.occurrenceID): \(reason)") }
        do {
            try store.removeWaitingPopup(occurrenceID: popup.occurrenceID)
        } catch {
            log.error(error.message)
        }
    }
}
