/// What handling a notification decides, and the state it needs: which scheduled popups and
/// prompts are on screen waiting for an answer. Pure: the driver hands it each event
/// (`HandlingEvent`: a `handle` or `snooze`, an answer, a prompt or URL that was not shown or
/// was opened or not) with the instant it came at, carries out the effects it returns
/// (`HandlingEffect`), turning each one's result back into an event, and reports what the
/// screen shows as it changes (`ScreenChange`).
///
/// It follows the ZBiM SDK's `handleLocalNotification(_:showAlert:)` (DESIGN §5, seed
/// semantics §3): with `showAlert` it asks first, with a prompt that stays until answered;
/// without, the user chose already and the action runs at once. A URL is opened only when its
/// scheme is allowed and something opens it; otherwise the outcome carries the failure and
/// nothing is marked. Once an occurrence is answered, its other popup (the scheduled one or
/// the prompt) is closed: it would only act a second time.
public struct HandlingCore: Sendable, Equatable {
    public let policy: HandlingPolicy
    /// The scheduled popups on screen, waiting for an answer, by occurrence id.
    public private(set) var popups: [String: DeliveredOccurrence] = [:]
    /// The prompts on screen, waiting for an answer, by the id of the occurrence they ask about.
    public private(set) var prompts: [String: DeliveredOccurrence] = [:]

    public init(policy: HandlingPolicy) {
        self.policy = policy
    }

    /// Takes `event`, which came at `now` (`zone` is the user's, where a snooze until tomorrow
    /// morning ends), and returns what to do about it, in order.
    public mutating func handle(_ event: HandlingEvent, at now: Instant, in zone: ZoneRules) -> [HandlingEffect] {
        switch event {
        case .handleRequested(let occurrence, let showAlert, let server):
            guard showAlert else {
                return carryOut(
                    policy.immediateDecision(for: occurrence), for: occurrence, from: .atOnce, at: now, in: zone)
            }
            // A second `handle` of the same occurrence waits for the prompt already up.
            guard prompts[occurrence.id] == nil else { return [] }
            if let server, !server.showsButtons {
                let command = "\(policy.commandName) handle \(occurrence.id) --no-alert"
                return [
                    .finished(
                        HandlingOutcome(
                            occurrence: occurrence, origin: .prompt,
                            failure: CoreError(
                                .cannotAsk,
                                policy.catalog.translated(
                                    "the notification server ({server}) shows no buttons, so it cannot ask; "
                                        + "run `{command}` to act at once", ["server": server.name, "command": command])
                            )))
                ]
            }
            return [.showPrompt(occurrence)]
        case .snoozeRequested(let occurrence, let snooze):
            do {
                return carryOut(
                    try policy.snoozeDecision(for: occurrence, snooze), for: occurrence, from: .atOnce, at: now,
                    in: zone)
            } catch {
                return [.finished(HandlingOutcome(occurrence: occurrence, origin: .atOnce, failure: error))]
            }
        case .promptFailed(let occurrence, let cause):
            return [
                .finished(
                    HandlingOutcome(
                        occurrence: occurrence, origin: .prompt,
                        failure: CoreError(
                            .cannotShow,
                            policy.catalog.translated(
                                "cannot ask about notification {id}: {cause}",
                                ["id": occurrence.id, "cause": cause.message]),
                            underlyingError: cause.underlyingError ?? cause)))
            ]
        case .answered(let occurrence, let role, let response):
            let origin: HandlingOutcome.Origin
            switch role {
            case .scheduled:
                popups[occurrence.id] = nil
                origin = .popup
            case .prompt:
                prompts[occurrence.id] = nil
                origin = .prompt
            }
            return carryOut(
                policy.decision(for: response, of: occurrence), for: occurrence, from: origin, response: response,
                at: now, in: zone)
        case .urlOpened(var outcome, let failure):
            if let failure, let url = outcome.opened {
                outcome.opened = nil
                outcome.change = nil
                outcome.remindUntil = nil
                outcome.failure = CoreError(
                    .cannotOpen, "cannot open \(url): \(failure.message)",
                    underlyingError: failure.underlyingError ?? failure)
            }
            return finish(outcome)
        }
    }

    /// Keeps a change of the screen that carrying out an effect brought (a popup or prompt
    /// shown, a popup gone): a fact, which decides nothing.
    public mutating func note(_ change: ScreenChange) {
        switch change {
        case .popupShown(let occurrence, let replacing):
            if let replacing { popups[replacing] = nil }
            popups[occurrence.id] = occurrence
        case .popupGone(let occurrenceID):
            popups[occurrenceID] = nil
        case .promptShown(let occurrence):
            prompts[occurrence.id] = occurrence
        }
    }

    /// The scheduled popups (`.scheduled`) or the prompts (`.prompt`) on screen, by their
    /// occurrences' delivery, oldest first, then by occurrence id.
    public func onScreen(_ role: PopupRole) -> [DeliveredOccurrence] {
        (role == .scheduled ? popups : prompts).values.sorted { ($0.deliveredAt, $0.id) < ($1.deliveredAt, $1.id) }
    }

    /// Whether a popup of `source` is on screen, waiting for an answer.
    public func hasPopup(of source: String) -> Bool {
        popups.values.contains { $0.source == source }
    }

    /// The unanswered popup of another occurrence of `occurrence`'s entry still on screen: a
    /// new popup of the entry replaces it in place rather than joining it.
    public func earlierOnScreen(_ occurrence: DeliveredOccurrence) -> DeliveredOccurrence? {
        popups.values.first(where: occurrence.isOfTheSameEntry)
    }

    /// Carries out `decision`: the outcome, or the URL to open first, which it waits for.
    private mutating func carryOut(
        _ decision: Decision, for occurrence: DeliveredOccurrence, from origin: HandlingOutcome.Origin,
        response: PopupResponse? = nil, at now: Instant, in zone: ZoneRules
    ) -> [HandlingEffect] {
        var outcome = HandlingOutcome(
            occurrence: occurrence, origin: origin, response: response, choice: decision.choice)
        if let change = decision.change {
            outcome.change = change
            outcome.remindUntil = decision.snooze?.until(from: now, in: zone)
        }
        guard let url = decision.opens else { return finish(outcome) }
        guard policy.urlPolicy.allows(scheme: url.scheme) else {
            let allowed = policy.urlPolicy.allowedSchemes.sorted().joined(separator: ", ")
            outcome.change = nil
            outcome.remindUntil = nil
            outcome.failure = CoreError(
                .cannotOpen,
                "not opening \(url): the URL scheme \"\(url.scheme):\" is not allowed (allowed: \(allowed))")
            return finish(outcome)
        }
        outcome.opened = url
        return [.openURL(url, then: outcome)]
    }

    /// Ends handling with `outcome`, closing what an answer leaves without purpose. Asked of the
    /// notifier whatever is held here: a popup the server took late, after its showing had
    /// failed, waits there too.
    private mutating func finish(_ outcome: HandlingOutcome) -> [HandlingEffect] {
        var effects: [HandlingEffect] = []
        let id = outcome.occurrence.id
        if outcome.answersOccurrence {
            if outcome.origin != .popup {
                popups[id] = nil
                effects.append(.close(.scheduled(id)))
            }
            if outcome.origin != .prompt {
                prompts[id] = nil
                effects.append(.close(.prompt(id)))
            }
        }
        return effects + [.finished(outcome)]
    }
}

/// What happens to handling, as `HandlingCore.handle(_:at:in:)` takes it: a request from the
/// command line or the bus, an answer from the desktop, or how an effect went.
public enum HandlingEvent: Sendable, Equatable {
    /// `handle` of `occurrence`: with `showAlert`, ask first (on `server`, the notification
    /// server that runs now; nil when none answers, and showing the prompt will say why).
    case handleRequested(DeliveredOccurrence, showAlert: Bool, server: NotificationServer?)
    /// `snooze` of `occurrence`: "Remind Me Later" at once, back when `Snooze` ends.
    case snoozeRequested(DeliveredOccurrence, Snooze)
    /// The prompt about `occurrence` could not be shown, for `cause`.
    case promptFailed(DeliveredOccurrence, cause: CoreError)
    /// The user answered (or closed) the popup of `occurrence` in `role`.
    case answered(DeliveredOccurrence, PopupRole, PopupResponse)
    /// The URL of `HandlingEffect.openURL` was opened (`failure` nil), or not.
    case urlOpened(HandlingOutcome, failure: CoreError?)
}

/// A change of what is on screen, as carrying out an effect brought it (`HandlingCore.note(_:)`).
public enum ScreenChange: Sendable, Equatable {
    /// The scheduled popup of `occurrence` is on screen, in place of the popup of the
    /// occurrence `replacing` when it replaced one.
    case popupShown(DeliveredOccurrence, replacing: String?)
    /// The scheduled popup of the occurrence is no longer on screen, unanswered: withdrawn, or
    /// replaced by one the server did not take.
    case popupGone(String)
    /// The prompt about `occurrence` (`HandlingEffect.showPrompt`, or one a previous daemon left,
    /// shown again in place) is on screen.
    case promptShown(DeliveredOccurrence)
}

extension HandlingEvent {
    /// The occurrence it concerns.
    public var occurrence: DeliveredOccurrence {
        switch self {
        case .handleRequested(let occurrence, _, _), .snoozeRequested(let occurrence, _),
            .promptFailed(let occurrence, _), .answered(let occurrence, _, _):
            occurrence
        case .urlOpened(let outcome, _): outcome.occurrence
        }
    }
}

/// What `HandlingCore.handle(_:at:in:)` decides the driver does, in order.
public enum HandlingEffect: Sendable, Equatable {
    /// Show the prompt about the occurrence (`HandlingPolicy.prompt(for:on:)`), whose answer
    /// comes back as `.answered(_, .prompt, _)`, and say how it went (`ScreenChange.promptShown`,
    /// `HandlingEvent.promptFailed`).
    case showPrompt(DeliveredOccurrence)
    /// Open the URL with the desktop's default handler, then hand `then` back (`.urlOpened`).
    case openURL(ActionURL, then: HandlingOutcome)
    /// Close the popup, unless it is gone; its closing is not an answer.
    case close(PopupKey)
    /// Handling ended: store the state `HandlingOutcome.change` says and report it.
    case finished(HandlingOutcome)
}
