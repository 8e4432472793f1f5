// Handling: what an answer on a popup or prompt, a `handle` and a `snooze` do (`HandlingCore`,
// which holds what is on screen), what the planner learns from it, and which control calls it
// answers.
extension DaemonCore {
    /// Hands `event` to `handling` and turns what it decides into the daemon's effects; an
    /// outcome is stored, and goes to the planner and the control calls waiting for it.
    mutating func handled(_ event: HandlingEvent, at now: Instant) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        for effect in handling.handle(event, at: now, in: planner.userZone) {
            switch effect {
            case .showPrompt(let occurrence): effects.append(.showPrompt(occurrence))
            case .openURL(let url, let outcome): effects.append(.openURL(url, then: outcome))
            case .close(let key): effects.append(.closePopup(key))
            case .finished(let outcome):
                if let failure = outcome.failure { effects.append(.log(.error, failure.message)) }
                effects.append(.storeHandling(outcome))
                effects += answered(outcome, at: now)
            }
        }
        return effects
    }

    /// Keeps a change of the screen that carrying out an effect brought (`HandlingCore.note(_:)`):
    /// a fact, which decides nothing and takes no time.
    public mutating func note(_ change: ScreenChange) {
        handling.note(change)
    }

    /// An answer that holds for later occurrences (Ignore, "Remind Me Later", or the action
    /// ending a reminder) goes to the planner; the control calls waiting for this outcome are
    /// answered, each once.
    private mutating func answered(_ outcome: HandlingOutcome, at now: Instant) -> [DaemonEffect] {
        if let change = outcome.change, let due = outcome.occurrence.due {
            planner.answered(
                change, remindUntil: outcome.remindUntil, entryID: outcome.occurrence.entryID,
                source: outcome.occurrence.source, occurrence: due, at: now)
        }
        guard let calls = waitingCalls[outcome.occurrence.id] else { return [] }
        let ends = { (call: WaitingCall) in outcome.endsHandling || !call.answerOnly }
        let ended = calls.filter(ends)
        let waiting = calls.filter { !ends($0) }
        waitingCalls[outcome.occurrence.id] = waiting.isEmpty ? nil : waiting
        guard !ended.isEmpty else { return [] }
        let (status, report) = outcome.callAnswer
        return [.answerCalls(ended.map(\.token), about: outcome.occurrence.id, status: status, report: report)]
    }

}
