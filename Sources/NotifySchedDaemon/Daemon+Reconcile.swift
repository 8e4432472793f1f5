import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// A feed change reconciles what is pending and what is on screen (DESIGN §5).
extension Daemon {
    /// Puts `newSchedule` in force for source `index`: an added entry is planned, a changed one's
    /// pending occurrence is planned again and its popup on screen replaced in place, a withdrawn
    /// one's pending occurrence is cancelled and its popup closed. Unchanged entries keep their
    /// wheel elements as they are.
    ///
    /// - Complexity: O(*n*) for *n* entries of all sources (finding the source's elements) plus
    ///   one plan per added or changed entry; the ledger is read once for the source.
    /// - Returns: What changed.
    @discardableResult
    func reconcile(source index: Int, with newSchedule: Schedule, at now: Instant) -> ScheduleChanges {
        let old = sources[index].schedule?.entries ?? []
        let changes = ScheduleChanges(from: old, to: newSchedule.entries)
        var elements = [UInt32?](repeating: nil, count: old.count)
        for (element, reference) in references.enumerated()
        where reference.source == index && reference.entry != EntryReference.vacant {
            elements[reference.entry] = UInt32(element)
        }
        sources[index].schedule = newSchedule
        for match in changes.unchanged {
            if let element = elements[match.old] { references[Int(element)].entry = match.new }
        }
        var replanned: [UInt32] = []
        for match in changes.changed {
            guard let element = elements[match.old] else { continue }
            references[Int(element)].entry = match.new
            cancelPending(element)
            replanned.append(element)
        }
        for position in changes.withdrawn {
            guard let element = elements[position] else { continue }
            cancelPending(element)
            references[Int(element)].entry = EntryReference.vacant
            vacantElements.append(element)
        }
        for position in changes.added {
            replanned.append(allocateElement(EntryReference(source: index, entry: position)))
        }
        reconcileScreen(source: index, changes, old: old)
        forgetWaitingEntries(of: sources[index].location)
        guard !replanned.isEmpty else { return changes }
        do {
            let recorded = try store.lastRecorded(source: sources[index].location)
            for element in replanned {
                let reference = references[Int(element)]
                placeOnWheel(element, reference, at: now, lastRecorded: entry(reference).flatMap { recorded[$0.id] })
            }
        } catch {
            report("notify-sched: \(error.message)")
            // The ledger could not be read: try these entries again shortly rather than guess.
            for element in replanned { schedule(element, at: now + Self.retryDelay) }
        }
        armTimer()
        return changes
    }

    /// Replaces the popups on screen of changed entries and closes those of withdrawn ones.
    private func reconcileScreen(source index: Int, _ changes: ScheduleChanges, old: [ScheduleEntry]) {
        let location = sources[index].location
        let shown = handler.onScreen.values.filter { $0.source == location }
        guard !shown.isEmpty, let entries = sources[index].schedule?.entries else { return }
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

    /// Schedules `element` on the wheel, keeping its handle so that a feed change can cancel it.
    func schedule(_ element: UInt32, at due: Instant) {
        handles[Int(element)] = wheel.schedule(element, at: due)
    }

    /// Cancels `element`'s pending occurrence, if any.
    private func cancelPending(_ element: UInt32) {
        guard let handle = handles[Int(element)] else { return }
        // A handle whose entry already fell due is stale; the wheel checks its generation.
        _ = wheel.cancel(handle)
        handles[Int(element)] = nil
    }

    /// A wheel element for `reference`: a vacant one reused, or a new one.
    private func allocateElement(_ reference: EntryReference) -> UInt32 {
        if let element = vacantElements.popLast() {
            references[Int(element)] = reference
            return element
        }
        references.append(reference)
        handles.append(nil)
        return UInt32(references.count - 1)
    }
}
