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

    /// The planner's effects as the daemon's, with the rules applied to the popups among them:
    /// those due together are taken by priority, higher first, then those with a targeting
    /// expression before those without, then in the planner's order (feed order among entries
    /// due at one instant); each goes out, its impression counted, or is suppressed, recorded
    /// with why and settled as if shown, or waits for the answers to those in flight.
    mutating func gated(_ planned: [PlannerEffect], at now: Instant) -> [DaemonEffect] {
        let dues = planned.compactMap { if case .show(let due) = $0 { due } else { nil } }
        guard !dues.isEmpty else { return planned.map(DaemonEffect.init) }
        let ordered = Self.byPrecedence(dues, entry: \.entry)
        let decided = ordered.map { gate($0, at: now) }
        // The popups go where the first of them was among the effects, in their new order.
        guard let first = planned.firstIndex(where: { if case .show = $0 { true } else { false } }) else { return [] }
        var effects: [DaemonEffect] = []
        for (index, effect) in planned.enumerated() {
            if index == first { effects += decided.joined() }
            if case .show = effect { continue }
            effects.append(DaemonEffect(effect))
        }
        return effects
    }

    /// `items` in the order they compete for the slots the caps leave: by priority, then those
    /// with a targeting expression first, then in their order (the seed dialects' entries, which
    /// have neither, keep theirs).
    static func byPrecedence<Item>(_ items: [Item], entry: (Item) -> ScheduleEntry?) -> [Item] {
        func key(_ item: Item) -> (priority: Int, targeted: Int) {
            let entry = entry(item)
            return (entry?.priority ?? 0, entry?.deliveryRules?.targeting == nil ? 0 : 1)
        }
        return items.enumerated().sorted { first, second in
            let (a, b) = (key(first.element), key(second.element))
            return (a.priority, a.targeted, -first.offset) > (b.priority, b.targeted, -second.offset)
        }.map(\.element)
    }

    /// The effects of a timed popup under the rules: shown, or recorded as suppressed (and
    /// settled in the planner), or none while it waits for the answers to the popups in flight.
    private mutating func gate(_ due: DueOccurrence, at now: Instant) -> [DaemonEffect] {
        switch admit(due.entry, of: due.location, occurrence: due.occurrence, at: now) {
        case .show:
            return [.show(due)]
        case .suppress(let suppression):
            planner.shown(due, .passedOver, at: now)
            return suppressed(due.entry.id, of: due.location, occurrence: due.occurrence, because: suppression, at: now)
        case .wait:
            awaitingAnswers.append(due)
            return []
        }
    }

    /// Records the occurrence as suppressed; a targeting expression that could not be evaluated
    /// is logged too, once per entry.
    mutating func suppressed(
        _ entryID: String, of location: String, occurrence: Instant, because suppression: Suppression, at now: Instant
    ) -> [DaemonEffect] {
        let record = DaemonEffect.recordSuppressed(
            .suppressed(
                entryID, of: location, occurrence: occurrence, because: suppression, at: now,
                receipts: receiptTag(for: location)))
        guard case .targeting(let verdict) = suppression, let failure = verdict.failure,
            targetingFailuresLogged.insert(location + "\n" + entryID).inserted
        else { return [record] }
        return [
            .log(
                .warning,
                "the targeting of \(entryID) in \(location) could not be evaluated (\(failure)); "
                    + "it counts as false: \(verdict.expression)"),
            record,
        ]
    }

    /// Whether the popup of `entry` of `location` due at `occurrence` may go out at `now`. A
    /// popup of an occurrence counted already (a reminder of it) goes out uncounted.
    mutating func admit(
        _ entry: ScheduleEntry, of location: String, occurrence: Instant, at now: Instant
    ) -> Admission {
        let impression = Impression(of: entry, source: location, occurrence: occurrence, at: now)
        guard !impressions.contains(occurrenceID: impression.occurrenceID, entryID: entry.id, source: location)
        else { return .show }
        let schedule = planner.schedule(at: location)
        let (groups, version) = (schedule?.groups ?? [], schedule?.version)
        guard
            let suppression = capGate.suppression(
                of: entry, source: location, groups: groups, feedVersion: version, log: impressions, at: now)
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
        // Held back whatever the popups in flight come to: the reason is one that holds without them.
        guard
            let held = capGate.suppression(
                of: entry, source: location, groups: groups, feedVersion: version, log: answered, at: now)
        else { return .wait }
        return .suppress(held)
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
        return waited.flatMap { gate($0, at: now) } + resumeWaitingPopups(at: now)
    }
}
