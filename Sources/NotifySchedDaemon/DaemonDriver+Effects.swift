import NotifySchedCore
import NotifySchedPlatform
import NotifySchedStore

// The interpreter: each event goes to the core (`DaemonCore.handle(_:at:)`), and the daemon
// carries out the effects it returns, deciding nothing itself.
extension DaemonDriver {
    /// Hands `event` to the core, carries out what it decides, and arms the timer for the
    /// core's next wake-up. The deliveries shown wait for the ledger only after the timer's
    /// event, while another popup is due within milliseconds.
    ///
    /// Only the timer's event on time leaves the server's answers to its popups to come while
    /// the loop goes on (`carryOut(_:at:leavingAnswers:)`): every other event, and the clock's
    /// step above all (which plans everything again), first hands the answers under way to the
    /// core.
    func perform(_ event: DaemonEvent, at now: Instant) {
        let now = core.instant(for: now)
        let onTime = if case .timerWoke(clockChanged: false) = event { true } else { false }
        if !onTime { recordDeliveries() }
        carryOut(decide(event, at: now), at: now, leavingAnswers: onTime)
        finishEvent(at: now)
    }

    /// Ends an event: arms the timer for the core's next wake-up, and writes the deliveries
    /// it showed (`recordDeliveriesInBackground(at:)`), which a kill -9 would otherwise show
    /// again.
    func finishEvent(at now: Instant) {
        armTimer()
        recordDeliveriesInBackground(at: now)
    }

    /// Hands `event` to the core at `now`: the one place the driver asks it to decide.
    ///
    /// - Returns: The effects it decided on, to carry out.
    func decide(_ event: DaemonEvent, at now: Instant) -> [DaemonEffect] {
        decisions?.deciding(event, at: now, core: core)
        let effects = core.handle(event, at: now)
        decisions?.decided(effects)
        return effects
    }

    /// Carries out the core's effects in order. How a popup's showing went goes back to the
    /// core (`DaemonEvent.shown`, `.waitingShown`), and what it decides then is carried out
    /// before the next effect.
    ///
    /// With `leavingAnswers`, the popups the effects end with are sent and the server's answers
    /// to them left to come: they go back to the core from the loop once in, as an event of
    /// their own, so that the timer is armed for what is due next meanwhile and a popup due a
    /// moment later does not wait for a slow answer.
    ///
    /// - Returns: The occurrence ids of the popups shown, of those whose answers came here.
    @discardableResult
    func carryOut(_ effects: [DaemonEffect], at now: Instant, leavingAnswers: Bool = false) -> [String] {
        var shown: [String] = []
        // Popups due together go to the server side by side; how each went then goes back to
        // the core in turn.
        var together: [DueOccurrence] = []
        func showTogether(leavingAnswers: Bool = false) {
            guard !together.isEmpty else { return }
            let dues = together
            together = []
            var answeredHere = true
            deliver(dues.map { ($0.entry, $0.location, $0.occurrence) }, at: now) { [self] results in
                if answeredHere {
                    shown += answered(dues, results, at: now)
                } else {
                    // Later, from the loop: an event of its own.
                    let now = core.instant(for: clock())
                    answered(dues, results, at: now)
                    finishEvent(at: now)
                }
            }
            if leavingAnswers { answeredHere = false } else { notifier.awaitAnswers() }
        }
        for effect in effects {
            if case .show(let due) = effect {
                together.append(due)
                continue
            }
            showTogether()
            switch effect {
            case .show:
                break  // Gathered above.
            case .showWaiting(let item):
                // The core sets the entry of each popup it sends out.
                let result =
                    item.entry.map { deliver($0, of: item.popup.source, occurrence: item.popup.occurrence, at: now) }
                    ?? .passedOver
                if result == .shown { shown.append(item.popup.occurrenceID) }
                shown += carryOut(decide(.waitingShown(item, result), at: now), at: now)
            case .dropWaiting(let popup, let reason):
                dropWaiting(popup, because: reason)
            case .recordMissed(let source, let entryID, let occurrence):
                record(entryID, of: source, occurrence: occurrence, .missed, at: now)
            case .recordSuppressed(let record):
                recordSuppressed(record)
            case .follow(let source, let entries, let since):
                if followsAtStart != nil {
                    followsAtStart?.append((source, entries, since))
                } else {
                    follow(entries, of: source, since: since)
                }
            case .changeScreen(let change):
                changeScreen(change)
            case .takeOver(let popup):
                takeOver(popup)
            case .takeOverPrompt(let prompt):
                takeOverPrompt(prompt, at: now)
            case .takeSessionStart(let index):
                shown += sourceEvent(.session("session:start", countsAsRun: true), sources: [index], at: now).shown
            case .takeManualCheck:
                shown += sourceEvent(.manualCheck, sources: Array(sources.indices), at: now).shown
            case .startCheck(let index):
                startCheck(of: index, at: now)
            case .saveHealth(let health):
                saveHealth(health)
            case .uploadReceipts(let index, let endpoint):
                uploadReceipts(of: index, to: endpoint, at: now)
            case .recordReceiptPost(let post, let retryAt):
                recordReceiptPost(post, retryAt: retryAt, at: now)
            case .answerSync(let token, let reports):
                syncReplies.removeValue(forKey: token)?(reports)
            case .restart(let configuration):
                stop(.restart(configuration))
            case .releaseFreedMemory:
                FreedMemory.release()
            case .log(let priority, let line):
                log(priority, line)
            case .storeChoice(let index, let plan):
                shown += storeChoice(plan, source: index, at: now)
            case .pruneLedger(let cutOff):
                pruneLedger(before: cutOff)
            case .answerCalls(let tokens, let occurrenceID, let status, let report):
                for token in tokens { replies.removeValue(forKey: token)?(occurrenceID, status, report) }
            case .showPrompt(let occurrence):
                shown += carryOut(.showPrompt(occurrence), at: now)
                recordPrompt(about: occurrence.id, at: now)
            case .openURL(let url, let outcome):
                shown += carryOut(.openURL(url, then: outcome), at: now)
            case .closePopup(let key):
                shown += carryOut(.close(key), at: now)
            case .storeHandling(let outcome):
                storeHandling(outcome, at: now)
            case .showTest(let token, let entry):
                let result = Result { () throws(CoreError) in
                    try show(entry, of: DeliveredOccurrence.testSource, occurrence: now, at: now)
                }
                if case .success(let id) = result { shown.append(id) }
                shown += carryOut(decide(.testShown(token: token, result), at: now), at: now)
            }
        }
        showTogether(leavingAnswers: leavingAnswers)
        return shown
    }

    /// Carries out a handling effect, and hands the core how it went when that is an event.
    ///
    /// - Returns: The occurrence ids of the popups shown then.
    private func carryOut(_ effect: HandlingEffect, at now: Instant) -> [String] {
        guard let result = popups.carryOut(effect) else { return [] }
        return carryOut(decide(.handling(result), at: now), at: now)
    }

    /// Hands the core how the popups of `dues` went, in turn, and carries out what it decides.
    ///
    /// - Returns: The occurrence ids of the popups shown.
    @discardableResult
    private func answered(_ dues: [DueOccurrence], _ results: [ShowResult], at now: Instant) -> [String] {
        var shown: [String] = []
        for (due, result) in zip(dues, results) {
            if result == .shown {
                shown.append(
                    LedgerRecord.occurrenceID(source: due.location, entryID: due.entry.id, occurrence: due.occurrence))
            }
            shown += carryOut(decide(.shown(due, result), at: now), at: now)
        }
        return shown
    }

    /// Stores, in the background, that the recurring entries `entries` of `source` are followed
    /// from `since` on.
    func follow(_ entries: [FollowedEntry], of source: String, since: Instant) {
        store.follow(entries, of: source, since: since) { [log] in log.error($0.message) }
    }

    private func pruneLedger(before cutOff: Instant) {
        do {
            let pruned = try store.pruneLedger(recordedBefore: cutOff)
            if pruned > 0 {
                log.info("pruned \(pruned) ledger records from before \(cutOff.rfc3339)")
            }
        } catch {
            log.error(error.message)
        }
    }
}
