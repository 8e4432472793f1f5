import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Time: carrying out what the planner decides, and the one wall-clock timer.
extension Daemon {
    func timerWoke() {
        let now = WallClock.now()
        startDueChecks(at: now)
        deliverWaiting(at: now)
        switch timer.acknowledge() {
        case .clockChanged:
            report("notify-sched: the clock changed; planning again")
            carryOut(core.planner.clockChanged(at: now), at: now)
        case .expired, .none:
            carryOut(core.planner.timerExpired(at: now), at: now)
        }
        armTimer()
        pruneLedgerIfDue(at: now)
    }

    /// Carries out what the planner decided: shows popups and tells it how each went, records
    /// missed occurrences, stores the entries it began to follow.
    func carryOut(_ effects: [PlannerEffect], at now: Instant) {
        for effect in effects {
            switch effect {
            case .show(let due):
                let result = deliver(due.entry, of: due.location, occurrence: due.occurrence, at: now)
                core.planner.shown(due, result, at: now)
            case .recordMissed(let source, let entryID, let occurrence):
                record(entryID, of: source, occurrence: occurrence, .missed, at: now)
            case .follow(let source, let entryIDs, let since):
                do {
                    try store.follow(entryIDs, of: source, since: since)
                } catch {
                    report("notify-sched: \(error.message)")
                }
            }
        }
    }

    /// Prunes the ledger when the core says a prune is due.
    func pruneLedgerIfDue(at now: Instant) {
        guard let cutOff = core.ledgerPruneCutOff(at: now) else { return }
        do {
            let pruned = try store.pruneLedger(recordedBefore: cutOff)
            if pruned > 0 {
                report("notify-sched: pruned \(pruned) ledger records from before \(cutOff.rfc3339)")
            }
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// Arms the timer for the core's next wake-up.
    func armTimer() {
        timer.arm(at: core.nextWakeUp(nextCheck: nextCheck))
    }
}
