import NotifySchedCore

/// Drives handling as `notify-sched handle` and `test` do: a `HandlingCore` decides, a
/// `HandlingExecutor` carries its effects out on the notifier (a recording one), and each
/// result and answer goes back to the core at `now`. Occurrences are looked up in `lookup`.
final class HandlingHarness {
    private(set) var core: HandlingCore
    let executor: HandlingExecutor
    /// Called once per outcome.
    var onOutcome: (HandlingOutcome) -> Void = { _ in }
    var onScreen: [String: DeliveredOccurrence] { core.popups }
    var prompts: [String: DeliveredOccurrence] { core.prompts }

    private let notifier: any Notifier
    private let lookup: (String) -> DeliveredOccurrence?
    private let now: () -> Instant
    private let zone: () -> ZoneRules

    init(
        policy: HandlingPolicy = HandlingPolicy(), notifier: any Notifier,
        lookup: @escaping (String) -> DeliveredOccurrence?, now: @escaping () -> Instant,
        zone: @escaping () -> ZoneRules = { .utc }
    ) {
        core = HandlingCore(policy: policy)
        executor = HandlingExecutor(policy: policy, notifier: notifier)
        self.notifier = notifier
        self.lookup = lookup
        self.now = now
        self.zone = zone
        executor.screen = { [unowned self] in core }
        executor.note = { [unowned self] in core.note($0) }
        executor.respond = { [unowned self] in perform($0) }
    }

    /// Whether notify-sched delivered the occurrence `id`.
    func canHandle(_ id: String?) -> Bool {
        id.flatMap(lookup) != nil
    }

    /// `handle ID`, with or without asking first; false when `id` is not notify-sched's.
    @discardableResult
    func handle(_ id: String?, showAlert: Bool = true) -> Bool {
        guard let occurrence = id.flatMap(lookup) else { return false }
        let server = showAlert ? try? notifier.currentServer() : nil
        perform(.handleRequested(occurrence, showAlert: showAlert, server: server))
        return true
    }

    /// `handle ID --snooze`; false when `id` is not notify-sched's.
    @discardableResult
    func snooze(_ id: String?, _ snooze: Snooze) -> Bool {
        guard let occurrence = id.flatMap(lookup) else { return false }
        perform(.snoozeRequested(occurrence, snooze))
        return true
    }

    @discardableResult
    func deliver(
        _ occurrence: DeliveredOccurrence, replacing popupID: UInt32? = nil, answerable: Bool = true
    ) throws(CoreError) -> String? {
        try executor.deliver(occurrence, replacing: popupID, answerable: answerable)
    }

    func deliverAll(
        _ occurrences: [DeliveredOccurrence], then report: @escaping ([Result<String?, CoreError>]) -> Void
    ) {
        executor.deliverAll(occurrences, then: report)
    }

    func replace(_ occurrence: DeliveredOccurrence) throws(CoreError) -> Bool {
        try executor.replace(occurrence)
    }

    @discardableResult
    func withdraw(occurrenceID: String) -> Bool {
        executor.withdraw(occurrenceID: occurrenceID)
    }

    func takeOverPrompt(about occurrence: DeliveredOccurrence, popupID: UInt32) throws(CoreError) {
        try executor.takeOverPrompt(about: occurrence, popupID: popupID)
    }

    private func perform(_ event: HandlingEvent) {
        for effect in core.handle(event, at: now(), in: zone()) {
            if case .finished(let outcome) = effect {
                onOutcome(outcome)
            } else if let result = executor.carryOut(effect) {
                perform(result)
            }
        }
    }
}
