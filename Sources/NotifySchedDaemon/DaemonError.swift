import NotifySchedCore

/// Why the daemon cannot start or had to stop: a code a program can match and a message a
/// person can act on.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<DaemonError>

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension ErrorCode where Domain == DaemonError {
    /// Another daemon of this user owns the bus name.
    public static var alreadyRunning: Self { Self(rawValue: "daemon.already-running") }
    /// The session bus, the state database or the timer is not available.
    public static var unavailable: Self { Self(rawValue: "daemon.unavailable") }
}
