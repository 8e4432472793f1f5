/// A stable string naming what went wrong, typed by the error it belongs to.
///
/// Every module has one error type with codes a program can match (`StoreError.Code.failed`,
/// `"store.failed"`); this one generic type gives them all the same shape, and each error
/// declares its codes in an extension constrained to itself.
public struct ErrorCode<Domain>: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }
}
