/// What handling one notification came to.
public struct HandlingOutcome: Sendable, Equatable {
    /// Where an answer came from.
    public enum Origin: String, Sendable, Equatable {
        /// The occurrence's scheduled popup: a click, a button, or its closing.
        case popup
        /// The prompt of `handleLocalNotification(_:showAlert: true)`: a button, or its dismissal.
        case prompt
        /// `handleLocalNotification(_:showAlert: false)`: notify-sched acted without asking.
        case atOnce
    }

    public var occurrence: DeliveredOccurrence
    /// Where the answer came from.
    public var origin: Origin
    /// The user's answer to the popup or prompt; nil when notify-sched acted without asking.
    public var response: PopupResponse?
    /// What the answer meant.
    public var choice: UserChoice?
    /// The URL that was opened.
    public var opened: ActionURL?
    /// The state change that was made.
    public var change: StateChange?
    /// For a snooze (`.reminded` for a chosen length), when the occurrence comes back.
    public var remindUntil: Instant?
    /// Why handling stopped short (a refused or unopenable URL, a prompt that could not be
    /// shown); no state change was made then.
    public var failure: CoreError?

    public init(
        occurrence: DeliveredOccurrence, origin: Origin, response: PopupResponse? = nil, choice: UserChoice? = nil,
        opened: ActionURL? = nil, change: StateChange? = nil, remindUntil: Instant? = nil, failure: CoreError? = nil
    ) {
        self.remindUntil = remindUntil
        self.occurrence = occurrence
        self.origin = origin
        self.response = response
        self.choice = choice
        self.opened = opened
        self.change = change
        self.failure = failure
    }
}

extension HandlingOutcome {
    /// Whether it ends what a `handle` call waits for: anything from the prompt or from
    /// `handle --no-alert`, and from the scheduled popup only an answer (not its closing, nor a
    /// click that chooses nothing), which closes the prompt.
    public var endsHandling: Bool { origin != .popup || answersOccurrence }

    /// Whether the occurrence is answered: a choice was carried out. Its scheduled popup and
    /// its prompt are closed then, whichever of them (or `handle --no-alert`) answered.
    public var answersOccurrence: Bool { failure == nil && choice != nil }

    /// Whether no prompt about the occurrence is left waiting after it.
    public var endsPrompt: Bool { origin == .prompt || answersOccurrence }
}
