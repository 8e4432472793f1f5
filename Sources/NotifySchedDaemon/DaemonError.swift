/// Why the daemon cannot start or had to stop: a code a program can match and a message a
/// person can act on.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Another daemon of this user owns the bus name.
        public static let alreadyRunning = Code(rawValue: "daemon.already-running")
        /// The session bus, the state database or the timer is not available.
        public static let unavailable = Code(rawValue: "daemon.unavailable")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
