/// An error of the state database: a code a program can match and a message naming the file
/// and the cause.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The database could not be opened or created (permissions, a full disk, not a database).
        public static let unavailable = Code(rawValue: "store.unavailable")
        /// A read or write failed; nothing of the failed transaction was kept.
        public static let failed = Code(rawValue: "store.failed")
        /// The file was written by a newer notify-sched whose schema this one does not know.
        public static let newerSchema = Code(rawValue: "store.newer-schema")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
