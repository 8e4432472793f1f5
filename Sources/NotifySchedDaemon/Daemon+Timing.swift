import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Time: the wheel, the wall-clock timer and planning each entry's occurrences.
extension Daemon {
    /// Rebuilds the wheel from the ledger: at start, and after the clock changed.
    func replan(at now: Instant) {
        wheel = TimerWheel(now: now)
        handles = Array(repeating: nil, count: references.count)
        var recorded: [Int: [String: Instant]] = [:]
        for index in sources.indices {
            do {
                recorded[index] = try store.lastRecorded(source: sources[index].location)
            } catch {
                report("notify-sched: \(error.message)")
            }
        }
        for (index, reference) in references.enumerated() {
            guard let known = recorded[reference.source] else {
                // The ledger could not be read: try this source again shortly rather than guess.
                schedule(UInt32(index), at: now + Self.retryDelay)
                continue
            }
            placeOnWheel(UInt32(index), reference, at: now, lastRecorded: entry(reference).flatMap { known[$0.id] })
        }
        armTimer()
    }

    /// Puts an entry on the wheel at its next occurrence, or at `now` when something of it is
    /// due or missed: the timer then plans those a slice per loop turn (`planDue(at:)`), so a
    /// catch-up of thousands after a long downtime, or a feed change adding as many, keeps the
    /// loop answering SIGTERM.
    func placeOnWheel(_ element: UInt32, _ reference: EntryReference, at now: Instant, lastRecorded: Instant?) {
        guard let entry = entry(reference) else { return }
        let plan = OccurrencePlan(
            for: entry, lastRecorded: lastRecorded, now: now, userZone: userZone,
            quietHours: configuration.quietHours)
        if plan.deliver != nil || plan.missed != nil {
            schedule(element, at: now)
        } else if let next = plan.next {
            schedule(element, at: next)
        }
    }

    func timerWoke() {
        let now = WallClock.now()
        startDueChecks(at: now)
        deliverWaiting(at: now)
        switch timer.acknowledge() {
        case .clockChanged:
            report("notify-sched: the clock changed; planning again")
            replan(at: now)
        case .expired, .none:
            planDue(at: now)
            armTimer()
        }
        pruneLedgerIfDue(at: now)
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

    /// Plans the first `plansPerTurn` entries that fell due by `now` and puts the rest back on
    /// the wheel, overdue, in their order: they come out at the loop's next turn. So a SIGTERM,
    /// a button press or a control call waits behind one slice of a burst, never all of it.
    func planDue(at now: Instant) {
        let due = wheel.advance(to: now)
        for (_, element) in due.prefix(Self.plansPerTurn) {
            plan(element, references[Int(element)], at: now)
        }
        for (dueAt, element) in due.dropFirst(Self.plansPerTurn) {
            schedule(element, at: dueAt)
        }
    }

    /// Arms the timer for the wheel's next deadline, the next check of a source or the next
    /// waiting popup, whichever is first.
    func armTimer() {
        timer.arm(at: [wheel.nextDeadline, nextCheck, nextWaiting].compactMap { $0 }.min())
    }

    /// Delivers or records what is due of one timed entry and schedules its next occurrence.
    func plan(_ element: UInt32, _ reference: EntryReference, at now: Instant) {
        guard let entry = entry(reference) else { return }
        do {
            let last = try store.lastRecorded(source: sources[reference.source].location, entryID: entry.id)
            plan(element, reference, at: now, lastRecorded: last)
        } catch {
            report("notify-sched: \(error.message)")
            schedule(element, at: now + Self.retryDelay)
        }
    }

    /// `plan(_:_:at:)` with the entry's last recorded occurrence already read.
    func plan(_ element: UInt32, _ reference: EntryReference, at now: Instant, lastRecorded: Instant?) {
        guard let entry = entry(reference) else { return }
        let source = sources[reference.source].location
        let plan = OccurrencePlan(
            for: entry, lastRecorded: lastRecorded, now: now, userZone: userZone,
            quietHours: configuration.quietHours)
        if let missed = plan.missed {
            record(entry, of: source, occurrence: missed, .missed, at: now)
        }
        if let due = plan.deliver {
            if let quietEnd = quietHoursEnd(for: entry, at: now) {
                schedule(element, at: quietEnd)
                return
            }
            guard deliver(entry, of: source, occurrence: due, at: now) != .failed else {
                schedule(element, at: now + Self.retryDelay)
                return
            }
        }
        if let next = plan.next { schedule(element, at: next) }
    }

    /// When the quiet hours holding `now` end, unless `entry` is critical.
    func quietHoursEnd(for entry: ScheduleEntry, at now: Instant) -> Instant? {
        configuration.quietHours?.end(holding: entry, at: now, in: userZone)
    }
}
