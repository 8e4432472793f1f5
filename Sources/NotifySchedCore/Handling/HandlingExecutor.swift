/// Carries out what `HandlingCore` decides, through a `Notifier`: shows scheduled popups and
/// prompts, opens URLs and closes popups, and turns what the desktop does back into events
/// for the core that decides (`DaemonCore` in the daemon, a `HandlingCore` in a command).
///
/// It decides nothing and holds no state of its own: what is on screen is the core's, read
/// through `screen` and changed through `note`; the user's answers go to `respond`, from the
/// notifier's loop.
///
/// ```swift
/// var core = HandlingCore(policy: policy)
/// let executor = HandlingExecutor(policy: policy, notifier: notifier)
/// executor.screen = { core }
/// executor.note = { core.note($0) }
/// executor.respond = { event in /* core.handle(event, …), each effect through executor.carryOut */ }
/// ```
public final class HandlingExecutor {
    public let policy: HandlingPolicy
    /// What is on screen, as the core that decides holds it.
    public var screen: () -> HandlingCore
    /// Tells the core what a popup or prompt shown, or a popup gone, changed on screen.
    public var note: (ScreenChange) -> Void = { _ in }
    /// Hands the core the user's answer to a popup or prompt, from the notifier's loop.
    public var respond: (HandlingEvent) -> Void = { _ in }

    private let notifier: any Notifier

    public init(policy: HandlingPolicy, notifier: any Notifier) {
        self.policy = policy
        self.notifier = notifier
        screen = { HandlingCore(policy: policy) }
    }

    /// Carries out `effect`, but `.finished`, which is the caller's to store and report.
    ///
    /// - Returns: How it went, for the core, when that is an event: a prompt not shown, a URL
    ///   opened or not.
    public func carryOut(_ effect: HandlingEffect) -> HandlingEvent? {
        switch effect {
        case .showPrompt(let occurrence):
            do {
                try showPrompt(about: occurrence, replacing: nil)
            } catch {
                return .promptFailed(occurrence, cause: CoreError(.cannotShow, "\(error)", underlyingError: error))
            }
            note(.promptShown(occurrence))
            return nil
        case .openURL(let url, let outcome):
            do {
                try notifier.open(url)
            } catch {
                return .urlOpened(outcome, failure: CoreError(.cannotOpen, "\(error)", underlyingError: error))
            }
            return .urlOpened(outcome, failure: nil)
        case .close(let key):
            _ = notifier.close(key)
            return nil
        case .finished:
            return nil
        }
    }

    /// Shows again, in place of popup `popupID` of the server, the prompt about `occurrence`
    /// that a previous daemon left unanswered: its buttons answer here then.
    ///
    /// - Throws: `CoreError` with code `.cannotShow` when no server shows it.
    public func takeOverPrompt(about occurrence: DeliveredOccurrence, popupID: UInt32) throws(CoreError) {
        do {
            try showPrompt(about: occurrence, replacing: popupID)
        } catch {
            throw CoreError(
                .cannotShow, "cannot show the prompt about \(occurrence.id) again: \(error)", underlyingError: error)
        }
        note(.promptShown(occurrence))
    }
    /// Shows `occurrence` as its scheduled popup. A click on the popup or one of its buttons is
    /// handled as `showAlert: false`: the user chose already.
    ///
    /// A popup of the same entry that is still on screen, unanswered, is replaced in place
    /// (`replaces_id`) rather than joined by a second (`HandlingCore.earlierOnScreen(_:)`): an
    /// iSmartNews message shown at every event, a repeating entry nobody answered, a reminder
    /// of a popup left open stay one popup.
    ///
    /// An iNotify message whose action URL has a scheme that is not allowed, or that nothing on
    /// the desktop opens, is not shown (iNotify checks `canOpenURL` first); unlike iNotify,
    /// which offers the same message again at every check, the caller moves on to the next.
    ///
    /// With `popupID` it replaces that popup of the server in place: a restarted daemon takes
    /// over the popups its predecessor left on screen this way. Without `answerable`, nothing
    /// will hear an answer to it (`HandlingPolicy.scheduledPopup(for:on:answerable:)`).
    ///
    /// - Returns: The id of the other occurrence whose popup it replaced, if any: that one went
    ///   away unanswered.
    /// - Throws: `CoreError` with code `.cannotShow` when no server shows it, `.cannotOpen` when
    ///   an iNotify message is skipped for its URL.
    @discardableResult
    public func deliver(
        _ occurrence: DeliveredOccurrence, replacing popupID: UInt32? = nil, answerable: Bool = true
    ) throws(CoreError) -> String? {
        try checkOpenable(occurrence)
        let request = popupRequest(for: occurrence, answerable: answerable)
        let earlier = popupID == nil ? screen().earlierOnScreen(occurrence) : nil
        var replaced: String?
        do {
            if let earlier {
                // Whatever the server says, the earlier popup's answer would now go to this one.
                note(.popupGone(earlier.id))
                if try notifier.replace(.scheduled(earlier.id), with: request.layout, onResponse: request.onResponse) {
                    replaced = earlier.id
                }
            }
            if replaced == nil { try notifier.show(request.layout, replacing: popupID, onResponse: request.onResponse) }
        } catch {
            // The earlier popup is gone for the core: the notifier lets go of it too (under its
            // key, or this one's once the replacement began), or a server that comes back would
            // show it again with nobody to hear it.
            if let earlier {
                _ = notifier.close(.scheduled(earlier.id))
                _ = notifier.close(.scheduled(occurrence.id))
            }
            throw cannotShow(occurrence, error)
        }
        note(.popupShown(occurrence, replacing: nil))
        return replaced == occurrence.id ? nil : replaced
    }

    /// Shows occurrences due together as `deliver(_:)` does each, new popups side by side
    /// (`Notifier.showSideBySide(_:then:)`): popups due at one instant reach the server together
    /// rather than one round trip to it apart. One that replaces a popup of its entry, or that is
    /// not shown for its URL, goes alone, at once: it waits for no answer to the new popups. A
    /// second occurrence of an entry among them waits for the server's answer to the first.
    ///
    /// `report` gets, for each occurrence, in order, what `deliver(_:)` returns or throws: at
    /// once, or later on the notifier's loop when the notifier takes the server's answers then.
    public func deliverAll(
        _ occurrences: [DeliveredOccurrence], then report: @escaping ([Result<String?, CoreError>]) -> Void
    ) {
        deliver(occurrences[...], after: [], then: report)
    }

    /// Delivers `rest` (`deliverAll(_:then:)`) after the occurrences whose results are `done`:
    /// up to a second occurrence of an entry of the run of new popups, those that go alone at
    /// once and the run side by side; the rest once the server answered the run.
    private func deliver(
        _ rest: ArraySlice<DeliveredOccurrence>, after done: [Result<String?, CoreError>],
        then report: @escaping ([Result<String?, CoreError>]) -> Void
    ) {
        var rest = rest
        // This turn's results, in order: those of the run once the server answered it.
        var turn: [Result<String?, CoreError>?] = []
        var together: [(place: Int, occurrence: DeliveredOccurrence)] = []
        while let occurrence = rest.first, !together.contains(where: { $0.occurrence.isOfTheSameEntry(as: occurrence) })
        {
            if (try? checkOpenable(occurrence)) == nil || screen().earlierOnScreen(occurrence) != nil {
                turn.append(Result { () throws(CoreError) in try deliver(occurrence) })
            } else {
                together.append((turn.count, occurrence))
                turn.append(nil)
            }
            rest.removeFirst()
        }
        guard !together.isEmpty else { return report(done + turn.compactMap { $0 }) }
        notifier.showSideBySide(together.map { popupRequest(for: $0.occurrence, answerable: true) }) {
            [self] failures in
            for ((place, occurrence), failure) in zip(together, failures) {
                if let failure {
                    turn[place] = .failure(cannotShow(occurrence, failure))
                } else {
                    note(.popupShown(occurrence, replacing: nil))
                    turn[place] = .success(nil)
                }
            }
            deliver(rest, after: done + turn.compactMap { $0 }, then: report)
        }
    }

    /// Refuses an iNotify message whose action URL is not allowed or that nothing opens.
    private func checkOpenable(_ occurrence: DeliveredOccurrence) throws(CoreError) {
        if occurrence.dialect == .iNotify, let url = occurrence.content.action?.url,
            !policy.urlPolicy.allows(scheme: url.scheme) || !notifier.canOpen(url)
        {
            throw CoreError(.cannotOpen, "not showing \(occurrence.id): nothing opens its action URL \(url)")
        }
    }

    /// The scheduled popup of `occurrence`, whose answer is handled here.
    private func popupRequest(for occurrence: DeliveredOccurrence, answerable: Bool) -> PopupRequest {
        let policy = self.policy
        return PopupRequest(
            layout: { server in policy.scheduledPopup(for: occurrence, on: server, answerable: answerable) },
            onResponse: { [weak self] in self?.respond(.answered(occurrence, .scheduled, $0)) })
    }

    private func cannotShow(_ occurrence: DeliveredOccurrence, _ error: any Error) -> CoreError {
        CoreError(
            .cannotShow,
            policy.catalog.translated(
                "cannot show notification {id}: {cause}", ["id": occurrence.id, "cause": "\(error)"]),
            underlyingError: error)
    }

    /// Shows `occurrence` in place of its popup when that is still on screen: its entry changed
    /// in the feed. The server keeps the popup's id, and an answer is handled with the new content.
    ///
    /// - Returns: false, having shown nothing, when no popup of `occurrence.id` is on screen.
    /// - Throws: `CoreError` with code `.cannotShow` when the server does not take the new popup.
    public func replace(_ occurrence: DeliveredOccurrence) throws(CoreError) -> Bool {
        guard screen().popups[occurrence.id] != nil else { return false }
        let request = popupRequest(for: occurrence, answerable: true)
        let replaced: Bool
        do {
            replaced = try notifier.replace(
                .scheduled(occurrence.id), with: request.layout, onResponse: request.onResponse)
        } catch {
            throw CoreError(
                .cannotShow, "cannot update notification \(occurrence.id): \(error)", underlyingError: error)
        }
        note(replaced ? .popupShown(occurrence, replacing: nil) : .popupGone(occurrence.id))
        return replaced
    }

    /// Closes the popup of `occurrenceID` when it is on screen: its entry was withdrawn from the
    /// feed. Nothing is handled or marked for it.
    ///
    /// - Returns: false when no popup of `occurrenceID` is on screen.
    @discardableResult
    public func withdraw(occurrenceID: String) -> Bool {
        guard screen().popups[occurrenceID] != nil else { return false }
        note(.popupGone(occurrenceID))
        return notifier.close(.scheduled(occurrenceID))
    }

    private func showPrompt(about occurrence: DeliveredOccurrence, replacing popupID: UInt32?) throws {
        let policy = self.policy
        try notifier.show(
            { server in policy.prompt(for: occurrence, on: server) }, replacing: popupID,
            onResponse: { [weak self] response in self?.respond(.answered(occurrence, .prompt, response)) })
    }
}
