/// A desktop popup, ready to send: what notify-sched asks the notification server to show.
public struct Popup: Sendable, Equatable {
    /// The occurrence it shows; sent as the `x-notify-sched-id` hint so notify-sched can
    /// recognise its own popups.
    public var occurrenceID: String
    /// The summary line: the notification's title.
    public var summary: String
    /// The body, already escaped when the server reads markup.
    public var body: String
    /// An icon name or path.
    public var icon: String?
    public var urgency: Urgency
    /// At most three buttons, in order.
    public var buttons: [PopupButton]
    /// Whether a click on the popup itself is reported, as the `default` action.
    public var hasDefaultAction: Bool
    /// Whether the popup stays on screen (and in the server's list) until the user answers:
    /// the `resident` hint and no expiry.
    public var isResident: Bool
    /// The `category` hint.
    public var category: String?

    public init(
        occurrenceID: String, summary: String, body: String, icon: String? = nil, urgency: Urgency = .normal,
        buttons: [PopupButton] = [], hasDefaultAction: Bool = false, isResident: Bool = false,
        category: String? = nil
    ) {
        self.occurrenceID = occurrenceID
        self.summary = summary
        self.body = body
        self.icon = icon
        self.urgency = urgency
        self.buttons = buttons
        self.hasDefaultAction = hasDefaultAction
        self.isResident = isResident
        self.category = category
    }

    /// The hint that carries the occurrence id.
    public static let occurrenceHint = "x-notify-sched-id"
    /// The `desktop-entry` hint's value: the name of notify-sched's desktop file.
    public static let desktopEntry = "notify-sched"
    /// The action key of a click on the popup itself, as the notification spec names it.
    public static let defaultActionKey = "default"
    /// The most buttons a popup carries (GNOME Shell shows no more).
    public static let maximumButtons = 3
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
