import NotifySchedCore

/// Why the daemon cannot start or had to stop: a code a program can match and a message a
/// person can act on.
public typealias DaemonError = CodedError<DaemonErrorDomain>

/// The domain of `DaemonError`'s codes.
public enum DaemonErrorDomain {}

extension ErrorCode where Domain == DaemonErrorDomain {
    /// Another daemon of this user owns the bus name.
    public static var alreadyRunning: Self { Self(rawValue: "daemon.already-running") }
    /// The session bus, the state database or the timer is not available.
    public static var unavailable: Self { Self(rawValue: "daemon.unavailable") }
    /// A control call came with arguments the daemon cannot use.
    public static var badCall: Self { Self(rawValue: "daemon.bad-call") }
}
