/// An error from the desktop: the session bus, the notification server, the URL handlers.
public struct DesktopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable string a program can match.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// There is no session bus to talk to.
        public static let noSessionBus = Code(rawValue: "desktop.no-session-bus")
        /// Nothing answers as `org.freedesktop.Notifications` on the session bus.
        public static let noServer = Code(rawValue: "desktop.no-server")
        /// The server did not take the popup.
        public static let showFailed = Code(rawValue: "desktop.show-failed")
        /// No handler opened the URL.
        public static let openFailed = Code(rawValue: "desktop.open-failed")
    }

    public var code: Code
    /// A sentence a person can act on.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
