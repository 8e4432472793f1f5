import NotifySchedCore

/// An error from the machine around the core: files, the tz database, the environment.
public typealias PlatformError = CodedError<PlatformErrorDomain>

/// The domain of `PlatformError`'s codes.
public enum PlatformErrorDomain {}

extension ErrorCode where Domain == PlatformErrorDomain {
    /// The file or folder does not exist.
    public static var notFound: Self { Self(rawValue: "platform.not-found") }
    /// It exists but cannot be read, or is not a regular file.
    public static var unreadable: Self { Self(rawValue: "platform.unreadable") }
    /// It is larger than the cap for its kind.
    public static var tooLarge: Self { Self(rawValue: "platform.too-large") }
    /// A file that must be new exists already.
    public static var alreadyExists: Self { Self(rawValue: "platform.already-exists") }
    /// A file or folder cannot be created or written.
    public static var unwritable: Self { Self(rawValue: "platform.unwritable") }
    /// A feed location that cannot be used (such as a URL scheme not supported).
    public static var unsupported: Self { Self(rawValue: "platform.unsupported") }
}
