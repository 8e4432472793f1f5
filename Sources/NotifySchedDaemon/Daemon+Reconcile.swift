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
        let old = schedule(of: index)?.entries ?? []
        let (changes, effects) = planner.load(
            newSchedule, source: index, settled: settled, answers: answers, at: now)
        carryOut(effects, at: now)
        reconcileScreen(source: index, changes, old: old)
        waiting.forgetEntries(of: location)
        armTimer()
        return changes
    }

    /// The schedule in force for source `index`, if its feed was ever read.
    func schedule(of index: Int) -> Schedule? {
        planner.schedule(source: index)
    }

    /// Replaces the popups on screen of changed entries and closes those of withdrawn ones.
    private func reconcileScreen(source index: Int, _ changes: ScheduleChanges, old: [ScheduleEntry]) {
        let location = sources[index].location
        let shown = handler.onScreen.values.filter { $0.source == location }
        guard !shown.isEmpty, let entries = schedule(of: index)?.entries else { return }
        let withdrawn = Set(changes.withdrawn.map { old[$0].id })
        let changed = Dictionary(
            changes.changed.map { (entries[$0.new].id, entries[$0.new]) }, uniquingKeysWith: { first, _ in first })
        for occurrence in shown {
            if withdrawn.contains(occurrence.entryID) {
                if handler.withdraw(occurrenceID: occurrence.id) {
                    report("notify-sched: closed \(occurrence.id): \(occurrence.entryID) was withdrawn")
                }
            } else if let entry = changed[occurrence.entryID] {
                let updated = DeliveredOccurrence(
                    id: occurrence.id, entry: entry, source: location, deliveredAt: occurrence.deliveredAt)
                do {
                    guard try handler.replace(updated) else { continue }
                    report("notify-sched: replaced \(occurrence.id) in place: \(entry.id) changed")
                } catch {
                    report("notify-sched: \(error.message)")
                    continue
                }
                // `handle ID` and a restarted daemon see the new content too.
                do {
                    if let record = try store.ledgerRecord(occurrenceID: occurrence.id) {
                        try store.recordDelivery(record, of: updated, server: notifier.serverInstance)
                    }
                } catch {
                    report("notify-sched: \(error.message)")
                }
            }
        }
    }
}
