/// A desktop popup, ready to send: what notify-sched asks the notification server to show.
public struct Popup: Sendable, Equatable {
    /// The occurrence it shows; sent as the `x-notify-sched-id` hint so notify-sched can
    /// recognise its own popups.
    public var occurrenceID: String
    /// The summary line: the notification's title.
    public var summary: String
    /// The body: as the server reads it once laid out (`HandlingPolicy`), escaped or cleaned
    /// markup where it reads markup, plain text elsewhere.
    public var body: String
    /// Whether `body` is markup rather than plain text, before it is laid out.
    public var bodyIsMarkup: Bool
    /// An icon name or path.
    public var icon: String?
    public var urgency: Urgency
    /// Its buttons, in order: no more than the server's `buttonLimit` once laid out.
    public var buttons: [PopupButton]
    /// Whether a click on the popup itself is reported, as the `default` action.
    public var hasDefaultAction: Bool
    /// Whether the popup stays on screen (and in the server's list) until the user answers:
    /// the `resident` hint and no expiry.
    public var isResident: Bool
    /// The `category` hint.
    public var category: String?
    /// How long it stays before it expires: nil for the server's default, zero for never.
    /// A resident popup never expires whatever this says.
    public var timeout: TimeSpan?
    /// The `sound-name` hint.
    public var sound: String?
    /// The `image-path` hint.
    public var image: String?
    /// Whether it is the occurrence's scheduled popup or the prompt `handle` asks with.
    public var role: PopupRole

    public init(
        occurrenceID: String, summary: String, body: String, bodyIsMarkup: Bool = false, icon: String? = nil,
        urgency: Urgency = .normal, buttons: [PopupButton] = [], hasDefaultAction: Bool = false,
        isResident: Bool = false, category: String? = nil, timeout: TimeSpan? = nil, sound: String? = nil,
        image: String? = nil, role: PopupRole = .scheduled
    ) {
        self.occurrenceID = occurrenceID
        self.role = role
        self.summary = summary
        self.body = body
        self.bodyIsMarkup = bodyIsMarkup
        self.timeout = timeout
        self.sound = sound
        self.image = image
        self.icon = icon
        self.urgency = urgency
        self.buttons = buttons
        self.hasDefaultAction = hasDefaultAction
        self.isResident = isResident
        self.category = category
    }

    /// Which popup of which occurrence it is.
    public var key: PopupKey { PopupKey(occurrenceID: occurrenceID, role: role) }

    /// The hint that carries the occurrence id.
    public static let occurrenceHint = "x-notify-sched-id"
    /// The `desktop-entry` hint's value: the name of notify-sched's desktop file.
    public static let desktopEntry = "notify-sched"
    /// The action key of a click on the popup itself, as the notification spec names it.
    public static let defaultActionKey = "default"
}

/// Which of an occurrence's popups: the one shown when it fell due, or the prompt of
/// `handleLocalNotification(_:showAlert: true)`. Both may be on screen at once.
public enum PopupRole: String, Sendable, Hashable, Codable {
    /// The popup shown when the occurrence fell due.
    case scheduled
    /// The prompt `handle` asks with.
    case prompt
}

/// Names one popup of notify-sched's: its occurrence and its role.
public struct PopupKey: Sendable, Hashable, CustomStringConvertible {
    /// The occurrence it shows or asks about.
    public var occurrenceID: String
    /// Which of the occurrence's popups it is.
    public var role: PopupRole

    public init(occurrenceID: String, role: PopupRole) {
        self.occurrenceID = occurrenceID
        self.role = role
    }

    /// The scheduled popup of `occurrenceID`.
    public static func scheduled(_ occurrenceID: String) -> PopupKey {
        PopupKey(occurrenceID: occurrenceID, role: .scheduled)
    }

    /// The prompt about `occurrenceID`.
    public static func prompt(_ occurrenceID: String) -> PopupKey {
        PopupKey(occurrenceID: occurrenceID, role: .prompt)
    }

    public var description: String { role == .prompt ? "the prompt about \(occurrenceID)" : occurrenceID }
}

/// One button of a popup: the key the server reports when it is pressed, and its label.
public struct PopupButton: Sendable, Equatable {
    public var key: String
    public var label: String

    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }

    public init(_ choice: UserChoice, label: String) {
        self.init(key: choice.rawValue, label: label)
    }
}
