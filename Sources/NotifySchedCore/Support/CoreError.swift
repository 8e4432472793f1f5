/// An error of the core: a code a program can match, a message a person can act on, and
/// where in the feed it was found.
///
/// Readers and parsers throw it; feed validation collects it, with a severity, into
/// `Diagnostic`s. Its `description` is one line: `line 42: notifications[3].fireDate: not a date: "tomorrow"`.
public struct CoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable string a program can match (`"feed.syntax"`).
    public typealias Code = ErrorCode<CoreError>

    /// What went wrong.
    public var code: Code
    /// A sentence a person can act on, without the location.
    public var message: String
    /// Where in the feed, if known.
    public var location: FeedLocation
    /// The error this one wraps, when another error was its cause (the desktop's, when a popup
    /// could not be shown or a URL opened): kept as it was thrown.
    public var underlyingError: (any Error)?

    public init(
        _ code: Code, _ message: String, at location: FeedLocation = FeedLocation(), underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.location = location
        self.underlyingError = underlyingError
    }

    /// Whether the two say the same: code, message and place. The causes are not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.location == rhs.location
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(location)
    }

    public var description: String {
        let place = location.description
        return place.isEmpty ? message : "\(place): \(message)"
    }
}

/// A place in a feed: a key path such as `notifications[3].fireDate` and, for text formats, a line.
public struct FeedLocation: Hashable, Sendable, CustomStringConvertible {
    /// The key path from the root; empty for the root itself.
    public var keyPath: String
    /// The 1-based line in the document, when the format has lines.
    public var line: Int?

    public init(keyPath: String = "", line: Int? = nil) {
        self.keyPath = keyPath
        self.line = line
    }

    public var description: String {
        switch (line, keyPath.isEmpty) {
        case (let line?, false): "line \(line): \(keyPath)"
        case (let line?, true): "line \(line)"
        case (nil, false): keyPath
        case (nil, true): ""
        }
    }
}

/// A problem found in a feed, as `notify-sched validate` lists it.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        /// The feed, or the entry it concerns, cannot be used.
        case error
        /// The feed is usable; something in it is probably not what its author meant.
        case warning
    }

    public var severity: Severity
    public var error: CoreError

    public init(_ severity: Severity, _ error: CoreError) {
        self.severity = severity
        self.error = error
    }

    public var description: String {
        severity == .warning ? "warning: \(error)" : error.description
    }
}

extension ErrorCode where Domain == CoreError {
    /// The feed is bigger than the size cap.
    public static var tooLarge: Self { Self(rawValue: "feed.too-large") }
    /// The bytes are not JSON, an XML plist or a binary plist.
    public static var unknownFormat: Self { Self(rawValue: "feed.unknown-format") }
    /// The text is not valid UTF-8.
    public static var invalidUTF8: Self { Self(rawValue: "feed.invalid-utf8") }
    /// The document is malformed (JSON or XML syntax, a truncated or corrupt binary plist).
    public static var syntax: Self { Self(rawValue: "feed.syntax") }
    /// The document nests deeper, or holds more objects, than the reader allows.
    public static var limitExceeded: Self { Self(rawValue: "feed.limit-exceeded") }
    /// The XML has a DOCTYPE with an internal subset or an entity the reader refuses to expand.
    public static var forbiddenMarkup: Self { Self(rawValue: "feed.forbidden-markup") }
    /// A dictionary names the same key twice.
    public static var duplicateKey: Self { Self(rawValue: "feed.duplicate-key") }
    /// The root is of a shape no dialect accepts.
    public static var unknownDialect: Self { Self(rawValue: "feed.unknown-dialect") }
    /// A required key is absent.
    public static var missingKey: Self { Self(rawValue: "entry.missing-key") }
    /// A value has the wrong type.
    public static var wrongType: Self { Self(rawValue: "entry.wrong-type") }
    /// A value has the right type but is out of range or malformed.
    public static var invalidValue: Self { Self(rawValue: "entry.invalid-value") }
    /// Two entries share an id.
    public static var duplicateID: Self { Self(rawValue: "entry.duplicate-id") }
    /// A date or time string is malformed or names no real date.
    public static var invalidDate: Self { Self(rawValue: "entry.invalid-date") }
    /// A time-zone name is not in the tz database.
    public static var unknownZone: Self { Self(rawValue: "entry.unknown-zone") }
    /// A systemd calendar expression is malformed.
    public static var invalidCalendar: Self { Self(rawValue: "entry.invalid-calendar") }
    /// An action URL is malformed or uses a scheme that is not allowed.
    public static var disallowedURL: Self { Self(rawValue: "entry.disallowed-url") }
    /// An iSmartNews event pattern is malformed (it then behaves as `ON=1`).
    public static var invalidPattern: Self { Self(rawValue: "entry.invalid-pattern") }
    /// A key no dialect reads; kept, and reported as a warning.
    public static var unknownKey: Self { Self(rawValue: "entry.unknown-key") }
    /// A key of a seed dialect that has no effect on the desktop (an iOS presentation or
    /// targeting option); kept, and reported as a warning that says why.
    public static var unsupportedKey: Self { Self(rawValue: "entry.unsupported-key") }
    /// A key is set for the feed, but no signature came with it.
    public static var unsigned: Self { Self(rawValue: "feed.unsigned") }
    /// The signature is malformed or does not match the feed's bytes and the key.
    public static var badSignature: Self { Self(rawValue: "feed.bad-signature") }
    /// A signed feed's `version` is lower than one accepted before (or missing after one was).
    public static var rollback: Self { Self(rawValue: "feed.rollback") }
    /// A signed feed's `expires` has passed.
    public static var expired: Self { Self(rawValue: "feed.expired") }
    /// A public or private key is not the base64 of a raw 32-byte Ed25519 key.
    public static var invalidKey: Self { Self(rawValue: "feed.invalid-key") }
    /// A tz database file is malformed.
    public static var invalidZoneData: Self { Self(rawValue: "zone.invalid-data") }
    /// A popup could not be shown (no notification server, or it refused the popup).
    public static var cannotShow: Self { Self(rawValue: "handling.cannot-show") }
    /// A prompt cannot ask: the notification server shows no buttons.
    public static var cannotAsk: Self { Self(rawValue: "handling.cannot-ask") }
    /// An action's URL was refused by the allowed schemes, or nothing could open it.
    public static var cannotOpen: Self { Self(rawValue: "handling.cannot-open") }
    /// A snooze was asked of a notification whose dialect keeps no reminder of its own.
    public static var cannotSnooze: Self { Self(rawValue: "handling.cannot-snooze") }
    /// A translation catalog (`.mo` or `.po`) is too large, malformed, or not UTF-8.
    public static var invalidCatalog: Self { Self(rawValue: "catalog.invalid") }
}
