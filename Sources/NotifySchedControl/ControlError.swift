import NotifySchedCore

/// A call or a reply on the control interface that does not say what the interface declares:
/// a code a program can match and a message a person can act on.
public typealias ControlError = CodedError<ControlErrorDomain>

/// The domain of `ControlError`'s codes.
public enum ControlErrorDomain {}

extension ErrorCode where Domain == ControlErrorDomain {
    /// A call the daemon refuses: no such method, wrong arguments, or a value out of bounds.
    public static var badCall: Self { Self(rawValue: "control.bad-call") }
    /// A reply that is not what its method answers (a daemon of another version, or not ours).
    public static var badReply: Self { Self(rawValue: "control.bad-reply") }
}
