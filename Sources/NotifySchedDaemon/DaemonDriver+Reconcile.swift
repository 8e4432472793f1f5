import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// A feed change reconciles what is pending and what is on screen (DESIGN §5): the core decides,
// from what the state database remembers, and the daemon changes the screen.
extension DaemonDriver {
    /// `schedule`, source `index`'s new feed, with what the state database remembers of its
    /// entries, for the core to put in force; nil, logged, when the
    /// state database cannot say (the planner would take delivered one-shot entries for new
    /// ones, and show ignored ones). The schedule is relocated into the loop thread's memory
    /// (`Schedule.relocated()`): a worker thread read it.
    func feedLoad(of index: Int, _ schedule: Schedule) -> FeedLoad? {
        let location = sources[index].location
        do {
            return FeedLoad(
                source: index, schedule: schedule.relocated(), settled: try store.settledThrough(source: location),
                answers: try store.entryAnswers(source: location))
        } catch {
            log.error("\(location): \(error.message)")
            return nil
        }
    }

    /// The schedule in force for source `index`, if its feed was ever read.
    func schedule(of index: Int) -> Schedule? {
        core.planner.schedule(source: index)
    }

    /// Replaces a popup on screen whose entry changed, or closes one whose entry was withdrawn
    /// (`ScreenPlan.afterFeedChange`).
    func changeScreen(_ change: ScreenPlan.Change) {
        switch change {
        case .close(let shown):
            if popups.withdraw(occurrenceID: shown.id) {
                log.info("closed \(shown.id): \(shown.entryID) was withdrawn")
            }
        case .replace(let updated):
            do {
                guard try popups.replace(updated) else { return }
                log.info("replaced \(updated.id) in place: \(updated.entryID) changed")
            } catch {
                log.error(error.message)
                return
            }
            do {
                if let record = try store.ledgerRecord(occurrenceID: updated.id) {
                    try store.recordDelivery(record, of: updated, server: notifier.serverInstance)
                }
            } catch {
                log.error(error.message)
            }
        }
    }
}
