/// What the user chose with a button; the raw value is the button's action key.
public enum UserChoice: String, Sendable, CaseIterable {
    /// Open the action's URL (the action button: iNotify's ActionButton, iSmartNews' OK with a link).
    case open
    /// Show it again later (iNotify's "Remind Me Later").
    case remindLater = "remind"
    /// Never show it again (iNotify's "Ignore").
    case ignore
    /// Acknowledge a notification without an action (iNotify's "OK").
    case ok
    /// Decline (iSmartNews' Cancel).
    case cancel
}

/// What became of a popup: a button or the popup itself was clicked, or it was closed.
public enum PopupResponse: Sendable, Equatable, CustomStringConvertible {
    /// The server reported the action with this key (`default` for a click on the popup).
    case action(String)
    /// The popup went away without an action.
    case closed(CloseReason)

    /// `action: <key>` or `closed: <reason>`, as `notify-sched test --wait` prints it. Not
    /// translated: scripts read these result lines (docs/development.md "Translations").
    public var description: String {
        switch self {
        case .action(let key): "action: \(key)"
        case .closed(let reason): "closed: \(reason)"
        }
    }
}

/// Why a popup closed, as the `NotificationClosed` signal says.
///
/// A close reason is not proof the user saw anything: GNOME reports older popups as expired.
public enum CloseReason: UInt32, Sendable, CustomStringConvertible {
    case expired = 1
    case dismissed = 2
    /// Closed by a `CloseNotification` call.
    case closedByCall = 3
    case undefined = 4

    /// The reason for a signal's code; codes outside the spec are `undefined`.
    public init(code: UInt32) {
        self = CloseReason(rawValue: code) ?? .undefined
    }

    public var description: String {
        switch self {
        case .expired: "expired"
        case .dismissed: "dismissed"
        case .closedByCall: "closed"
        case .undefined: "undefined"
        }
    }
}
