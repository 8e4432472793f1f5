import NotifySchedCore

/// An error from the desktop: the session bus, the notification server, the URL handlers.
public struct DesktopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable string a program can match.
    public typealias Code = ErrorCode<DesktopError>

    public var code: Code
    /// A sentence a person can act on.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension ErrorCode where Domain == DesktopError {
    /// There is no session bus to talk to.
    public static var noSessionBus: Self { Self(rawValue: "desktop.no-session-bus") }
    /// Nothing answers as `org.freedesktop.Notifications` on the session bus.
    public static var noServer: Self { Self(rawValue: "desktop.no-server") }
    /// The server did not take the popup.
    public static var showFailed: Self { Self(rawValue: "desktop.show-failed") }
    /// No handler opened the URL.
    public static var openFailed: Self { Self(rawValue: "desktop.open-failed") }
}
