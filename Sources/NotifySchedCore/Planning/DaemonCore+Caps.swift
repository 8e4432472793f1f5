// The caps (`CapGate`): every popup of a source, timed or chosen by an event, is let through
// or suppressed here, just before it goes out, against the impressions the core holds.
//
// A popup counts as it goes out, before the server answers, so that popups due together share
// a cap; one the server did not take stops counting. A popup held back only by popups still
// waiting for the server's answer is not suppressed yet: it waits for those answers, and is
// decided again (`Admission.wait`), so that no popup is suppressed for one that never showed.
extension DaemonCore {
    /// What the caps say of a popup about to go out.
    enum Admission {
        /// Show it; its impression is counted (until its showing fails).
        case show
        /// A cap holds it back, whatever the popups in flight come to.
        case suppress(Suppression)
        /// A cap holds it back only with popups still waiting for the server's answer counted:
        /// decide again once they are answered.
        case wait
    }

    /// The planner's effects as the daemon's, with the caps applied to the popups among them:
    /// those due together are taken by priority, higher first (a stable sort keeps the
    /// planner's order among equals), and each goes out, its impression counted, or is
    /// suppressed, recorded with why and settled as if shown, or waits for the answers to
    /// those in flight.
    mutating func gated(_ planned: [PlannerEffect], at now: Instant) -> [DaemonEffect] {
        let dues = planned.compactMap { if case .show(let due) = $0 { due } else { nil } }
        guard !dues.isEmpty else { return planned.map(DaemonEffect.init) }
        let ordered = dues.enumerated().sorted {
            ($0.element.entry.priority, -$0.offset) > ($1.element.entry.priority, -$1.offset)
        }.map(\.element)
        var decided = ordered.compactMap { gate($0, at: now) }[...]
        // Each popup's slot among the effects keeps its place; its decision takes it.
        return planned.compactMap { effect in
            guard case .show = effect else { return DaemonEffect(effect) }
            return decided.popFirst()
        }
    }

    /// The effect of a timed popup under the caps: shown, or recorded as suppressed (and settled
    /// in the planner), or nil while it waits for the answers to the popups in flight.
    private mutating func gate(_ due: DueOccurrence, at now: Instant) -> DaemonEffect? {
        switch admit(due.entry, of: due.location, occurrence: due.occurrence, at: now) {
        case .show:
            return .show(due)
        case .suppress(let suppression):
            planner.shown(due, .passedOver, at: now)
            return .recordSuppressed(
                .suppressed(due.entry.id, of: due.location, occurrence: due.occurrence, because: suppression, at: now))
        case .wait:
            awaitingAnswers.append(due)
            return nil
        }
    }

    /// Whether the popup of `entry` of `location` due at `occurrence` may go out at `now`. A
    /// popup of an occurrence counted already (a reminder of it) goes out uncounted.
    mutating func admit(
        _ entry: ScheduleEntry, of location: String, occurrence: Instant, at now: Instant
    ) -> Admission {
        let impression = Impression(of: entry, source: location, occurrence: occurrence, at: now)
        guard !impressions.contains(occurrenceID: impression.occurrenceID, entryID: entry.id, source: location)
        else { return .show }
        let groups = planner.schedule(at: location)?.groups ?? []
        guard
            let suppression = capGate.suppression(
                of: entry, source: location, groups: groups, log: impressions, at: now)
        else {
            impressions.add(impression)
            inFlight[impression.occurrenceID] = impression
            return .show
        }
        guard !inFlight.isEmpty else { return .suppress(suppression) }
        var answered = impressions
        for counted in inFlight.values {
            answered.remove(occurrenceID: counted.occurrenceID, entryID: counted.entryID, source: counted.source)
        }
        let held = capGate.suppression(of: entry, source: location, groups: groups, log: answered, at: now)
        return held == nil ? .wait : .suppress(suppression)
    }

    /// A popup went out (`result` `.shown`), or did not: the impression it was counted with
    /// stands, or goes. Once no popup waits for the server's answer, those that waited for the
    /// answers are decided again.
    ///
    /// - Returns: What deciding them again comes to.
    mutating func settleImpression(occurrenceID: String, _ result: ShowResult, at now: Instant) -> [DaemonEffect] {
        guard let counted = inFlight.removeValue(forKey: occurrenceID) else { return [] }
        if result != .shown {
            impressions.remove(occurrenceID: occurrenceID, entryID: counted.entryID, source: counted.source)
        }
        guard inFlight.isEmpty else { return [] }
        let waited = awaitingAnswers.filter { planner.isShowing($0) }
        awaitingAnswers = []
        return waited.compactMap { gate($0, at: now) } + resumeWaitingPopups(at: now)
    }
}
