/// An error from the machine around the core: files, the tz database, the environment.
public struct PlatformError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable string a program can match.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file or folder does not exist.
        public static let notFound = Code(rawValue: "platform.not-found")
        /// It exists but cannot be read, or is not a regular file.
        public static let unreadable = Code(rawValue: "platform.unreadable")
        /// It is larger than the cap for its kind.
        public static let tooLarge = Code(rawValue: "platform.too-large")
        /// A file that must be new exists already.
        public static let alreadyExists = Code(rawValue: "platform.already-exists")
        /// A file or folder cannot be created or written.
        public static let unwritable = Code(rawValue: "platform.unwritable")
        /// A feed location that cannot be used (such as a URL scheme not supported).
        public static let unsupported = Code(rawValue: "platform.unsupported")
    }

    public var code: Code
    /// A sentence a person can act on; it starts with the path concerned.
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
