import NotifySchedCore

/// An error of the state database: a code a program can match and a message naming the file
/// and the cause.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<StoreError>

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

extension ErrorCode where Domain == StoreError {
    /// The database could not be opened or created (permissions, a full disk, not a database).
    public static var unavailable: Self { Self(rawValue: "store.unavailable") }
    /// A read or write failed; nothing of the failed transaction was kept.
    public static var failed: Self { Self(rawValue: "store.failed") }
    /// The file was written by a newer notify-sched whose schema this one does not know.
    public static var newerSchema: Self { Self(rawValue: "store.newer-schema") }
}
