import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// A feed change reconciles what is pending and what is on screen (DESIGN §5).
extension Daemon {
    /// Puts `newSchedule` in force for source `index`: the planner plans added and changed
    /// entries and cancels withdrawn ones' pending occurrences; a changed entry's popup on
    /// screen is replaced in place, a withdrawn one's closed.
    ///
    /// - Returns: What changed; nil when the ledger could not be read, and the schedule in
    ///   force stays.
    @discardableResult
    func reconcile(source index: Int, with newSchedule: Schedule, at now: Instant) -> ScheduleChanges? {
        let location = sources[index].location
        let settled: [String: Instant]
        let answers: [String: EntryAnswer]
        do {
            settled = try store.settledThrough(source: location)
            answers = try store.entryAnswers(source: location)
        } catch {
            // Without them the planner would take delivered one-shot entries for new ones, and
            // show ignored ones.
            report("notify-sched: \(error.message); \(location) keeps the schedule in force")
            return nil
        }
        let effects = core.handle(
            .feedLoaded(
                FeedLoad(
                    source: index, schedule: newSchedule, settled: settled, answers: answers,
                    onScreen: Array(handler.onScreen.values))),
            at: now)
        carryOut(effects, at: now)
        armTimer()
        return effects.lazy.compactMap { effect -> ScheduleChanges? in
            if case .scheduleChanged(_, let changes) = effect { changes } else { nil }
        }.first
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
            if handler.withdraw(occurrenceID: shown.id) {
                report("notify-sched: closed \(shown.id): \(shown.entryID) was withdrawn")
            }
        case .replace(let updated):
            do {
                guard try handler.replace(updated) else { return }
                report("notify-sched: replaced \(updated.id) in place: \(updated.entryID) changed")
            } catch {
                report("notify-sched: \(error.message)")
                return
            }
            do {
                if let record = try store.ledgerRecord(occurrenceID: updated.id) {
                    try store.recordDelivery(record, of: updated, server: notifier.serverInstance)
                }
            } catch {
                report("notify-sched: \(error.message)")
            }
        }
    }
}
