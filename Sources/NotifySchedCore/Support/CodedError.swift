/// An error with a code a program can match and a message a person can act on: the shape of
/// the errors of the modules around the core, each with its own `Domain` and codes.
///
/// ```swift
/// public enum StoreErrorDomain {}
/// public typealias StoreError = CodedError<StoreErrorDomain>
/// extension ErrorCode where Domain == StoreErrorDomain {
///     public static var failed: Self { Self(rawValue: "store.failed") }
/// }
/// throw StoreError(.failed, "\(path): cannot write: disk full")
/// ```
public struct CodedError<Domain>: Error, Hashable, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<Domain>

    /// What went wrong.
    public var code: Code
    /// A sentence a person can act on; it starts with the file, URL or name concerned.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
