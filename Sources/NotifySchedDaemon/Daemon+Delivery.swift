import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Showing popups, recording them in the ledger and storing what the user answered.
extension Daemon {
    /// Shows one occurrence and records it once the server accepted it; false when it could not be shown.
    func deliver(_ entry: ScheduleEntry, of source: String, occurrence: Instant, at now: Instant) -> Bool {
        do {
            try show(entry, of: source, occurrence: occurrence, at: now)
            return true
        } catch {
            report("notify-sched: \(error.message)")
            // An action nothing opens is not retried: the entry is passed over (seed semantics §5.20).
            return error.code == .cannotOpen
        }
    }

    /// Shows one occurrence and records it once the server accepted it.
    ///
    /// - Returns: The occurrence's id.
    /// - Throws: `CoreError` when the popup could not be shown; nothing is recorded then.
    @discardableResult
    func show(
        _ entry: ScheduleEntry, of source: String, occurrence: Instant, at now: Instant
    ) throws(CoreError) -> String {
        let id = LedgerRecord.occurrenceID(source: source, entryID: entry.id, occurrence: occurrence)
        let shown = DeliveredOccurrence(id: id, entry: entry, source: source, deliveredAt: now)
        try handler.deliver(shown)
        // The ledger is written after the server accepted the popup: a crash in between shows it
        // once more on restart rather than never.
        record(entry, of: source, occurrence: occurrence, .delivered, at: now)
        delivered.record(shown)
        do {
            try logFile.update { $0.record(shown) }
        } catch {
            report("notify-sched: \(error.message)")
        }
        report("notify-sched: delivered \(entry.id) (\(id)) due \(occurrence.rfc3339)")
        return id
    }

    func record(
        _ entry: ScheduleEntry, of source: String, occurrence: Instant, _ outcome: LedgerOutcome, at now: Instant
    ) {
        let record = LedgerRecord(
            occurrenceID: LedgerRecord.occurrenceID(source: source, entryID: entry.id, occurrence: occurrence),
            source: source, entryID: entry.id, occurrence: occurrence, outcome: outcome, recordedAt: now)
        do {
            try store.record(record)
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// Stores what the user's answer changed, and its outcome in the ledger.
    func handled(_ outcome: HandlingOutcome) {
        let source = outcome.occurrence.source
        defer { answerWaitingCalls(with: outcome) }
        if let failure = outcome.failure { report("notify-sched: \(failure.message)") }
        if outcome.change != nil {
            let state = handler.state[source]
            do {
                try logFile.update { $0.state[source] = state }
            } catch {
                report("notify-sched: \(error.message)")
            }
        }
        let ledgerOutcome: LedgerOutcome? =
            switch outcome.change {
            case .viewed?, .newsShown?: .acted
            case .ignored?: .ignored
            case .reminded?: .reminded
            case nil: outcome.failure == nil ? .closed : nil
            }
        guard let ledgerOutcome else { return }
        do {
            if var record = try store.ledgerRecord(occurrenceID: outcome.occurrence.id) {
                record.outcome = ledgerOutcome
                record.recordedAt = WallClock.now()
                try store.record(record)
            }
        } catch {
            report("notify-sched: \(error.message)")
        }
    }
}
