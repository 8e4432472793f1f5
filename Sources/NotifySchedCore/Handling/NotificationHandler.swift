/// Carries out what `HandlingCore` decides about notify-sched's popups: shows them and the
/// prompts through a `Notifier`, opens URLs, and turns what the desktop answers back into
/// `HandlingEvent`s (DESIGN §5, seed semantics §3).
///
/// It does no I/O itself: popups and URLs go through a `Notifier`, the delivered occurrences
/// come from `lookup`, the time from `now`. It keeps no handling state: each outcome says the
/// change it makes (`HandlingOutcome.change`, `remindUntil`), and the caller stores it, where
/// the state is held (`StateStore.recordHandling`).
///
/// ```swift
/// let handler = NotificationHandler(notifier: notifier, lookup: store.deliveredOccurrence(id:), now: WallClock.now)
/// handler.onOutcome = { outcome in try? store.recordHandling(outcome, at: WallClock.now()); loop.quit() }
/// if !handler.handleLocalNotification(LocalNotification(occurrenceID: id)) { /* not ours */ }
/// ```
public final class NotificationHandler {
    /// The decisions, and what is on screen.
    public private(set) var core: HandlingCore
    public var policy: HandlingPolicy { core.policy }
    /// Called once per handled answer or immediate action.
    public var onOutcome: (HandlingOutcome) -> Void = { _ in }
    /// The scheduled popups on screen, waiting for an answer, by occurrence id.
    public var onScreen: [String: DeliveredOccurrence] { core.popups }
    /// The prompts on screen, waiting for an answer, by the id of the occurrence they ask about.
    public var prompts: [String: DeliveredOccurrence] { core.prompts }

    private let notifier: any Notifier
    private let lookup: (String) -> DeliveredOccurrence?
    private let now: () -> Instant
    private let zone: () -> ZoneRules

    /// - Parameters:
    ///   - now: The time an answer is given at.
    ///   - zone: The user's zone now, where a snooze until tomorrow morning ends.
    public init(
        policy: HandlingPolicy = HandlingPolicy(), notifier: any Notifier,
        lookup: @escaping (String) -> DeliveredOccurrence?, now: @escaping () -> Instant,
        zone: @escaping () -> ZoneRules = { .utc }
    ) {
        core = HandlingCore(policy: policy)
        self.notifier = notifier
        self.lookup = lookup
        self.now = now
        self.zone = zone
    }

    /// Whether `notification` is one notify-sched delivered. No side effects.
    public func canHandleLocalNotification(_ notification: LocalNotification) -> Bool {
        occurrence(of: notification) != nil
    }

    /// Handles `notification` if notify-sched delivered it (`HandlingEvent.handleRequested`).
    ///
    /// - Returns: false, having done nothing, when notify-sched did not deliver `notification`;
    ///   the caller handles it itself. True otherwise, also when the prompt could not be shown
    ///   (the outcome then says why).
    @discardableResult
    public func handleLocalNotification(_ notification: LocalNotification, showAlert: Bool = true) -> Bool {
        guard let occurrence = occurrence(of: notification) else { return false }
        let server = showAlert ? try? notifier.currentServer() : nil
        perform(.handleRequested(occurrence, showAlert: showAlert, server: server))
        return true
    }

    /// Snoozes `notification` if notify-sched delivered it (`HandlingEvent.snoozeRequested`).
    ///
    /// - Returns: false, having done nothing, when notify-sched did not deliver `notification`.
    @discardableResult
    public func snooze(_ notification: LocalNotification, _ snooze: Snooze) -> Bool {
        guard let occurrence = occurrence(of: notification) else { return false }
        perform(.snoozeRequested(occurrence, snooze))
        return true
    }

    /// Shows again, in place of popup `popupID` of the server, the prompt about `occurrence`
    /// that a previous daemon left unanswered: its buttons answer to this handler then.
    ///
    /// - Throws: `CoreError` with code `.cannotShow` when no server shows it.
    public func takeOverPrompt(about occurrence: DeliveredOccurrence, popupID: UInt32) throws(CoreError) {
        do {
            try showPrompt(about: occurrence, replacing: popupID)
        } catch {
            throw CoreError(
                .cannotShow, "cannot show the prompt about \(occurrence.id) again: \(error)", underlyingError: error)
        }
        perform(.promptShown(occurrence))
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
        let earlier = popupID == nil ? core.earlierOnScreen(occurrence) : nil
        var replaced: String?
        do {
            if let earlier {
                // Whatever the server says, the earlier popup's answer would now go to this one.
                perform(.popupGone(earlier.id))
                if try notifier.replace(.scheduled(earlier.id), with: request.layout, onResponse: request.onResponse) {
                    replaced = earlier.id
                }
            }
            if replaced == nil { try notifier.show(request.layout, replacing: popupID, onResponse: request.onResponse) }
        } catch {
            throw cannotShow(occurrence, error)
        }
        perform(.popupShown(occurrence, replacing: nil))
        return replaced == occurrence.id ? nil : replaced
    }

    /// Shows occurrences due together as `deliver(_:)` does each, new popups side by side
    /// (`Notifier.showSideBySide(_:then:)`): popups due at one instant reach the server together
    /// rather than one round trip to it apart. One that replaces a popup of its entry, or that is
    /// not shown for its URL, goes alone, in its turn, once the server answered those before it.
    ///
    /// `report` gets, for each occurrence, in order, what `deliver(_:)` returns or throws: at
    /// once, or later on the notifier's loop when the notifier takes the server's answers then.
    public func deliverAll(
        _ occurrences: [DeliveredOccurrence], then report: @escaping ([Result<String?, CoreError>]) -> Void
    ) {
        deliver(occurrences[...], after: [], then: report)
    }

    /// Delivers `rest` (`deliverAll(_:then:)`) after the occurrences whose results are `done`:
    /// those that go alone up to a run of new popups, that run side by side, and the rest once
    /// the server answered it.
    private func deliver(
        _ rest: ArraySlice<DeliveredOccurrence>, after done: [Result<String?, CoreError>],
        then report: @escaping ([Result<String?, CoreError>]) -> Void
    ) {
        var rest = rest
        var done = done
        var together: [DeliveredOccurrence] = []
        while let occurrence = rest.first {
            if (try? checkOpenable(occurrence)) == nil || core.earlierOnScreen(occurrence) != nil
                || together.contains(where: occurrence.isOfTheSameEntry)
            {
                guard together.isEmpty else { break }
                done.append(Result { () throws(CoreError) in try deliver(occurrence) })
            } else {
                together.append(occurrence)
            }
            rest.removeFirst()
        }
        guard !together.isEmpty else { return report(done) }
        notifier.showSideBySide(together.map { popupRequest(for: $0, answerable: true) }) { [self] failures in
            for (occurrence, failure) in zip(together, failures) {
                if let failure {
                    done.append(.failure(cannotShow(occurrence, failure)))
                } else {
                    perform(.popupShown(occurrence, replacing: nil))
                    done.append(.success(nil))
                }
            }
            deliver(rest, after: done, then: report)
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
            onResponse: { [weak self] in self?.perform(.answered(occurrence, .scheduled, $0)) })
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
        guard onScreen[occurrence.id] != nil else { return false }
        let request = popupRequest(for: occurrence, answerable: true)
        let replaced: Bool
        do {
            replaced = try notifier.replace(
                .scheduled(occurrence.id), with: request.layout, onResponse: request.onResponse)
        } catch {
            throw CoreError(
                .cannotShow, "cannot update notification \(occurrence.id): \(error)", underlyingError: error)
        }
        perform(replaced ? .popupShown(occurrence, replacing: nil) : .popupGone(occurrence.id))
        return replaced
    }

    /// Closes the popup of `occurrenceID` when it is on screen: its entry was withdrawn from the
    /// feed. Nothing is handled or marked for it.
    ///
    /// - Returns: false when no popup of `occurrenceID` is on screen.
    @discardableResult
    public func withdraw(occurrenceID: String) -> Bool {
        guard onScreen[occurrenceID] != nil else { return false }
        perform(.popupGone(occurrenceID))
        return notifier.close(.scheduled(occurrenceID))
    }

    /// Hands `event` to the core and carries out what it decides, each result an event again.
    private func perform(_ event: HandlingEvent) {
        for effect in core.handle(event, at: now(), in: zone()) {
            switch effect {
            case .showPrompt(let occurrence):
                do {
                    try showPrompt(about: occurrence, replacing: nil)
                    perform(.promptShown(occurrence))
                } catch {
                    perform(
                        .promptFailed(occurrence, cause: CoreError(.cannotShow, "\(error)", underlyingError: error)))
                }
            case .openURL(let url, let outcome):
                do {
                    try notifier.open(url)
                    perform(.urlOpened(outcome, failure: nil))
                } catch {
                    perform(.urlOpened(outcome, failure: CoreError(.cannotOpen, "\(error)", underlyingError: error)))
                }
            case .close(let key):
                _ = notifier.close(key)
            case .finished(let outcome):
                onOutcome(outcome)
            }
        }
    }

    private func showPrompt(about occurrence: DeliveredOccurrence, replacing popupID: UInt32?) throws {
        let policy = self.policy
        try notifier.show(
            { server in policy.prompt(for: occurrence, on: server) }, replacing: popupID,
            onResponse: { [weak self] response in self?.perform(.answered(occurrence, .prompt, response)) })
    }

    private func occurrence(of notification: LocalNotification) -> DeliveredOccurrence? {
        notification.occurrenceID.flatMap(lookup)
    }
}
