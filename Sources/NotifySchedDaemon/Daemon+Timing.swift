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
            carryOut(planner.clockChanged(at: now), at: now)
        case .expired, .none:
            carryOut(planner.timerExpired(at: now), at: now)
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
                planner.shown(due, result, at: now)
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

    /// Prunes the ledger once a day, when the timer wakes the daemon anyway: it would otherwise
    /// grow by a record per occurrence forever.
    func pruneLedgerIfDue(at now: Instant) {
        if let last = ledgerPrunedAt, now >= last, now - last < .days(1) { return }
        ledgerPrunedAt = now
        do {
            let pruned = try store.pruneLedger(recordedBefore: now - .days(Self.ledgerRetentionDays))
            if pruned > 0 {
                report("notify-sched: pruned \(pruned) ledger records older than \(Self.ledgerRetentionDays) days")
            }
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// Arms the timer for the planner's next deadline, the next check of a source or the next
    /// waiting popup, whichever is first.
    func armTimer() {
        timer.arm(at: [planner.nextDeadline, nextCheck, waiting.nextDeadline].compactMap { $0 }.min())
    }
}
