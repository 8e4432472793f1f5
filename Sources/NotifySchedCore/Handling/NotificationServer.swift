/// The desktop's notification server, as it describes itself on the bus
/// (`GetServerInformation` and `GetCapabilities` of the freedesktop notification spec).
public struct NotificationServer: Sendable, Equatable {
    public var name: String
    public var vendor: String
    public var version: String
    /// The version of the notification spec the server implements.
    public var specVersion: String
    /// What the server can do: `actions`, `body`, `body-markup`, `persistence`, …
    public var capabilities: Set<String>

    public init(name: String, vendor: String, version: String, specVersion: String, capabilities: Set<String>) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }

    /// The server shows buttons and reports which one was pressed.
    public var showsButtons: Bool { capabilities.contains("actions") }
    /// The server shows a body at all.
    public var showsBody: Bool { capabilities.contains("body") }
    /// The server reads the body as markup, so plain text must be escaped.
    public var readsMarkup: Bool { capabilities.contains("body-markup") }
    /// The server plays the `sound-name` hint.
    public var playsSounds: Bool { capabilities.contains("sound") }

    /// The most buttons the server draws whole, each one press away (docs/daemon.md "On the
    /// desktop" has the measurements): GNOME Shell 43 drops all after the third and
    /// lxqt-notificationd 1.2 folds four or more into a drop-down; GNOME's notification-daemon
    /// has room for four in its fixed width; xfce4-notifyd, MATE's daemon and Plasma widen or
    /// wrap, and dunst lists every action in its menu. A server not measured gets three.
    public var buttonLimit: Int {
        switch (name, vendor) {
        case ("Xfce Notify Daemon", _), ("Notification Daemon", "MATE"), ("Plasma", _), ("dunst", _): 5
        case ("Notification Daemon", "GNOME"): 4
        default: 3
        }
    }

    /// Whether the server draws the `default` action (a click on the popup itself) as one more
    /// button, labelled as the action is: xfce4-notifyd 0.7 and lxqt-notificationd 1.2 do, so a
    /// popup there gets no `default` action rather than a stray button repeating its title
    /// (docs/daemon.md "On the desktop" has the table of servers).
    public var drawsDefaultActionAsButton: Bool {
        ["Xfce Notify Daemon", "lxqt-notificationd"].contains(name)
    }

    /// Whether the server sends `NotificationClosed` when a popup expires. GNOME's
    /// notification-daemon (3.20) hides an expired popup without a word and keeps it in its list
    /// until that is full (`MaxNotificationsExceeded`), and shows it again after a restart.
    public var reportsExpiry: Bool {
        !(name == "Notification Daemon" && vendor == "GNOME")
    }

    /// `name version (vendor; capabilities)`, for status lines.
    public var summary: String {
        "\(name) \(version) (\(vendor); \(capabilities.sorted().joined(separator: " ")))"
    }
}
