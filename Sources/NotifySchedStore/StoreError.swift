import NotifySchedCore

/// An error of the state database: a code a program can match and a message naming the file
/// and the cause.
public typealias StoreError = CodedError<StoreErrorDomain>

/// The domain of `StoreError`'s codes.
public enum StoreErrorDomain {}

extension ErrorCode where Domain == StoreErrorDomain {
    /// The database could not be opened or created (permissions, a full disk, not a database).
    public static var unavailable: Self { Self(rawValue: "store.unavailable") }
    /// A read or write failed; nothing of the failed transaction was kept.
    public static var failed: Self { Self(rawValue: "store.failed") }
    /// The file was written by a newer notify-sched whose schema this one does not know.
    public static var newerSchema: Self { Self(rawValue: "store.newer-schema") }
}
