/// What a receipt counts of an entry's occurrences: one count per change of an occurrence's
/// ledger outcome (docs/receipts.md "What is counted"), never an event with a time of its own.
public enum ReceiptCounter: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The server took the popup.
    case shown
    /// The user took the action (`open`) or acknowledged it (`ok`).
    case acted(UserChoice)
    /// The user closed it, or chose Ignore or Cancel.
    case dismissed
    /// The user chose "Remind Me Later" or a snooze.
    case snoozed
    /// The server let it expire: nobody is known to have seen it.
    case expiredUnseen
    /// notify-sched closed it: its entry left the feed, or its next occurrence took its place.
    case withdrawn
    /// It came due while the desktop was off, too late to show (`maxLateness`).
    case missed
    /// A cap, targeting or a rollout held it back; the code is `Suppression.code`'s.
    case suppressed(code: String)

    /// The attribute name a receipt carries it under: `shown`, `acted.open`, `dismissed`,
    /// `snoozed`, `expired_unseen`, `withdrawn`, `missed`, `suppressed.frequency`, ….
    public var description: String {
        switch self {
        case .shown: "shown"
        case .acted(let choice): "acted.\(choice.rawValue)"
        case .dismissed: "dismissed"
        case .snoozed: "snoozed"
        case .expiredUnseen: "expired_unseen"
        case .withdrawn: "withdrawn"
        case .missed: "missed"
        case .suppressed(let code): "suppressed.\(code)"
        }
    }

    /// The counter named `name` (`description`); nil for a name this version does not know.
    public init?(name: String) {
        switch name {
        case "shown": self = .shown
        case "dismissed": self = .dismissed
        case "snoozed": self = .snoozed
        case "expired_unseen": self = .expiredUnseen
        case "withdrawn": self = .withdrawn
        case "missed": self = .missed
        default:
            if name.hasPrefix("acted."), let choice = UserChoice(rawValue: String(name.dropFirst(6))) {
                self = .acted(choice)
            } else if name.hasPrefix("suppressed."), name.count > 11 {
                self = .suppressed(code: String(name.dropFirst(11)))
            } else {
                return nil
            }
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.description < rhs.description }

    /// The counter a ledger line the daemon writes adds to: `shown` for a delivery, `missed`,
    /// `suppressed` with its reason's code, `withdrawn` for a popup its next occurrence replaced.
    public init(recording outcome: LedgerOutcome, suppression: Suppression?) {
        switch outcome {
        case .missed: self = .missed
        case .suppressed: self = .suppressed(code: suppression?.code ?? "unknown")
        case .closed: self = .withdrawn
        case .delivered, .acted, .reminded, .ignored: self = .shown
        }
    }

    /// The counter what handling came to adds to; nil when handling failed, which changes no
    /// outcome. A click on the popup that chooses nothing counts as a dismissal, and a close
    /// for a reason the server does not say counts as one too.
    public init?(_ outcome: HandlingOutcome) {
        guard outcome.failure == nil else { return nil }
        switch outcome.choice {
        case let choice? where choice == .open || choice == .ok: self = .acted(choice)
        case .ignore?, .cancel?: self = .dismissed
        case .remindLater?: self = .snoozed
        case .open?, .ok?, nil:
            switch outcome.response {
            case .closed(.expired)?: self = .expiredUnseen
            case .closed(.closedByCall)?: self = .withdrawn
            case .closed(.dismissed)?, .closed(.undefined)?, .action?, nil: self = .dismissed
            }
        }
    }
}
