import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Showing popups, recording them in the ledger and storing what the user answered.
extension DaemonDriver {
    /// Shows one occurrence and records it once the server accepted it, waiting for the
    /// server's answer.
    func deliver(_ entry: ScheduleEntry, of source: String, occurrence: Instant, at now: Instant) -> ShowResult {
        showResult(of: Result { () throws(CoreError) in try show(entry, of: source, occurrence: occurrence, at: now) })
    }

    /// Shows occurrences due together, side by side, and records each the server accepted; the
    /// errors are logged. `report` gets how each went, in order: at once, or on the loop once
    /// the server answered (`DesktopNotifier.showSideBySide(_:then:)`).
    func deliver(
        _ dues: [(entry: ScheduleEntry, source: String, occurrence: Instant)], at now: Instant,
        then report: @escaping ([ShowResult]) -> Void
    ) {
        show(dues, at: now) { [self] outcomes in report(outcomes.map(showResult(of:))) }
    }

    /// What a showing came to for the core (`ShowResult.init(_:)`); an error is logged.
    private func showResult(of outcome: Result<String, CoreError>) -> ShowResult {
        if case .failure(let error) = outcome { log.error(error.message) }
        return ShowResult(outcome)
    }

    /// Shows one occurrence and records it once the server accepted it, waiting for the
    /// server's answer.
    ///
    /// - Returns: The occurrence's id.
    /// - Throws: `CoreError` when the popup could not be shown; nothing is recorded then.
    func show(
        _ entry: ScheduleEntry, of source: String, occurrence: Instant, at now: Instant
    ) throws(CoreError) -> String {
        var outcome = Result<String, CoreError>.failure(CoreError(.cannotShow, "the popup was not shown"))
        show([(entry, source, occurrence)], at: now) { outcome = $0[0] }
        notifier.awaitAnswers()
        return try outcome.get()
    }

    /// Shows occurrences due together, side by side (`HandlingExecutor.deliverAll`), and
    /// records each once the server accepted it; nothing is recorded of one it did not.
    /// `report` gets, for each, in order, its occurrence id, or why it was not shown.
    private func show(
        _ dues: [(entry: ScheduleEntry, source: String, occurrence: Instant)], at now: Instant,
        then report: @escaping ([Result<String, CoreError>]) -> Void
    ) {
        let occurrences = dues.map { due in
            DeliveredOccurrence(
                id: LedgerRecord.occurrenceID(source: due.source, entryID: due.entry.id, occurrence: due.occurrence),
                entry: due.entry, source: due.source, deliveredAt: now, due: due.occurrence)
        }
        popups.deliverAll(occurrences) { [self] outcomes in
            report(
                zip(dues, zip(occurrences, outcomes)).map { due, delivery in
                    let (shown, outcome) = delivery
                    return outcome.map { replaced in
                        // The ledger is written after the server accepted the popup, and off the
                        // firing path (`recordDeliveriesInBackground(at:)`): a crash in
                        // between shows it once more on restart rather than never.
                        let record = LedgerRecord(
                            occurrenceID: shown.id, source: due.source, entryID: due.entry.id,
                            occurrence: due.occurrence, popupID: notifier.popupID(of: .scheduled(shown.id)),
                            outcome: .delivered, recordedAt: now, receipts: core.receiptTag(for: due.source))
                        // The core counted it as it let it through (`DaemonCore.admit`); a test popup
                        // is not counted.
                        let impression =
                            due.source == DeliveredOccurrence.testSource
                            ? nil : Impression(of: due.entry, source: due.source, occurrence: due.occurrence, at: now)
                        unrecordedDeliveries.append(
                            StateStore.Delivery(
                                record, of: shown, server: notifier.serverInstance, replacing: replaced,
                                impression: impression))
                        log.info(
                            "delivered \(due.entry.id) (\(shown.id)) due \(due.occurrence.rfc3339)"
                                + (replaced.map { " in place of \($0)" } ?? ""))
                        return shown.id
                    }
                })
        }
    }

    /// Takes the server's answers to the popups under way (their outcomes go to the core), then
    /// writes the deliveries shown since the last write to the ledger, in one transaction, at
    /// once: whatever reads the ledger or changes the plan calls this first (`answer(_:)`, a
    /// delivered occurrence's lookup, every event but the timer's on time, the stop).
    func recordDeliveries() {
        notifier.awaitAnswers()
        guard !unrecordedDeliveries.isEmpty else { return }
        do {
            try store.recordDeliveries(takeUnrecorded())
        } catch {
            log.error(error.message)
        }
    }

    /// Writes the deliveries shown since the last write to the ledger, in one transaction in
    /// the background, unless the core says they wait for the popups due next
    /// (`DaemonCore.deliveriesWait(_:at:)`): the loop goes on while SQLite syncs the file, and
    /// whatever reads or writes the store next waits for the write.
    func recordDeliveriesInBackground(at now: Instant) {
        guard !unrecordedDeliveries.isEmpty, !core.deliveriesWait(unrecordedDeliveries.count, at: now) else { return }
        store.recordDeliveriesInBackground(takeUnrecorded()) { [log] in log.error($0.message) }
    }

    private func takeUnrecorded() -> [StateStore.Delivery] {
        defer { unrecordedDeliveries = [] }
        return unrecordedDeliveries
    }

    /// Takes over the popups a previous daemon left unanswered on the notification server that
    /// runs now, so that their buttons work again: each is shown again under its id, which
    /// replaces it in place (see `DesktopNotifier.show(_:replacing:onResponse:)`).
    ///
    /// Only popups that may still be on screen and still matter are candidates: delivered
    /// within `takeOverWindow`, neither answered nor closed, shown by this very server instance
    /// (not one of an earlier login, nor a server that restarted and lost them), the
    /// `takeOverLimit` most recent; the core takes those whose entry is still in its feed. A
    /// popup closed in the meantime comes back; the window and the limit bound that.
    ///
    /// The prompts left unanswered on the same server instance, within the same window and
    /// limit, are candidates too: each is shown again under its id, and its answer is handled
    /// here (the `handle` call that asked got its answer when that daemon stopped).
    func takeOverPopups(at now: Instant) {
        guard (try? notifier.currentServer()) != nil, let server = notifier.serverInstance else { return }
        let unanswered: [PopupOnServer]
        let prompts: [PopupOnServer]
        do {
            unanswered = try store.unanswered(
                since: now - Self.takeOverWindow, server: server, limit: Self.takeOverLimit)
            prompts = try store.promptsToTakeOver(
                server: server, since: now - Self.takeOverWindow, limit: Self.takeOverLimit)
        } catch {
            log.error(error.message)
            return
        }
        perform(.leftOnScreen(unanswered, prompts: prompts), at: now)
    }

    /// Shows again, in place, a prompt a previous daemon left unanswered, and stores its new id.
    func takeOverPrompt(_ prompt: PopupOnServer, at now: Instant) {
        let occurrence = prompt.occurrence
        do {
            try popups.takeOverPrompt(about: occurrence, popupID: prompt.popupID)
        } catch {
            log.error(error.message)
            return
        }
        recordPrompt(about: occurrence.id, at: now)
        log.info("took over the prompt about \(occurrence.entryID) (\(occurrence.id))")
    }

    /// Stores the server's id of the prompt about `occurrenceID`, on screen since `now`, when
    /// one is, so that a restarted daemon takes it over.
    func recordPrompt(about occurrenceID: String, at now: Instant) {
        guard let popupID = notifier.popupID(of: .prompt(occurrenceID)), let server = notifier.serverInstance else {
            return
        }
        do {
            try store.recordPrompt(about: occurrenceID, popupID: popupID, server: server, at: now)
        } catch {
            log.error(error.message)
        }
    }

    /// Shows again, in place, a popup a previous daemon left unanswered, and stores its new id.
    func takeOver(_ popup: PopupOnServer) {
        let occurrence = popup.occurrence
        do {
            try popups.deliver(occurrence, replacing: popup.popupID)
        } catch {
            log.error(error.message)
            return
        }
        do {
            try store.setPopup(
                notifier.popupID(of: .scheduled(occurrence.id)) ?? popup.popupID, server: notifier.serverInstance,
                forOccurrence: occurrence.id)
        } catch {
            log.error(error.message)
        }
        log.info("took over the popup of \(occurrence.entryID) (\(occurrence.id))")
    }

    /// Records the ids a new notification server gave the popups and prompts still waiting
    /// for an answer, which the notifier showed there again at `now`.
    func recordPopupIDs(at now: Instant) {
        for (key, popupID) in notifier.popupIDs {
            switch key.role {
            case .scheduled:
                do {
                    try store.setPopup(popupID, server: notifier.serverInstance, forOccurrence: key.occurrenceID)
                } catch {
                    log.error(error.message)
                }
            case .prompt:
                recordPrompt(about: key.occurrenceID, at: now)
            }
        }
    }

    func record(
        _ entryID: String, of source: String, occurrence: Instant, _ outcome: LedgerOutcome, at now: Instant
    ) {
        let record = LedgerRecord(
            occurrenceID: LedgerRecord.occurrenceID(source: source, entryID: entryID, occurrence: occurrence),
            source: source, entryID: entryID, occurrence: occurrence, outcome: outcome, recordedAt: now,
            receipts: core.receiptTag(for: source))
        do {
            try store.record(record)
        } catch {
            log.error(error.message)
        }
    }

    /// Hands the core the impressions the caps count, before any popup can go out.
    func loadImpressions(at now: Instant) {
        do {
            perform(.impressionsLoaded(try store.impressions()), at: now)
        } catch {
            log.error(error.message)
        }
    }

    /// Records an occurrence a cap held back.
    func recordSuppressed(_ record: LedgerRecord) {
        log.info(
            "suppressed \(record.entryID) (\(record.occurrenceID)) due \(record.occurrence.rfc3339): "
                + (record.suppression?.words ?? "a cap"))
        do {
            try store.recordSuppressed(record)
        } catch {
            log.error(error.message)
        }
    }

    /// Stores what handling came to: the state change and the occurrence's outcome in the ledger.
    func storeHandling(_ outcome: HandlingOutcome, at now: Instant) {
        do {
            try store.recordHandling(outcome, at: now)
        } catch {
            log.error(error.message)
        }
    }

    /// The occurrence delivered under `id`; nil (not ours) when the store cannot say.
    func deliveredOccurrence(id: String) -> DeliveredOccurrence? {
        recordDeliveries()
        do {
            return try store.deliveredOccurrence(id: id)
        } catch {
            log.error(error.message)
            return nil
        }
    }
}
