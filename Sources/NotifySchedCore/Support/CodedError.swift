/// An error with a code a program can match, a message a person can act on, and the error
/// it wraps: the shape of the errors of the modules around the core, each with its own
/// `Domain` and codes.
///
/// ```swift
/// public enum StoreErrorDomain {}
/// public typealias StoreError = CodedError<StoreErrorDomain>
/// extension ErrorCode where Domain == StoreErrorDomain {
///     public static var failed: Self { Self(rawValue: "store.failed") }
/// }
/// throw StoreError(.failed, "\(path): cannot write: disk full", underlyingError: error)
/// ```
public struct CodedError<Domain>: Error, Hashable, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<Domain>

    /// What went wrong.
    public var code: Code
    /// A sentence a person can act on; it starts with the file, URL or name concerned.
    public var message: String
    /// The error this one wraps, when another error was its cause (SQLite's, GLib's, the
    /// network's, another module's): kept as it was thrown, so that a program can still look
    /// into it, where the message only says it in words.
    public var underlyingError: (any Error)?

    public init(_ code: Code, _ message: String, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlyingError = underlyingError
    }

    public var description: String { message }

    /// Whether the two say the same: code and message. The causes are not compared: an
    /// underlying error need not be comparable.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}
