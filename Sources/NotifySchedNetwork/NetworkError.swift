import NotifySchedCore

/// An error fetching, caching or checking a portal feed: a code a program can match and a
/// message, naming the URL or file and the cause, that a person can act on.
public struct NetworkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable string.
    public typealias Code = ErrorCode<NetworkError>

    public var code: Code
    /// A sentence that starts with the URL or path concerned.
    public var message: String
    /// The HTTP status, for `.httpStatus`.
    public var status: Int?
    /// The server's `Retry-After`, for 429 and 503 responses that carried one.
    public var retryAfter: RetryAfter?
    /// The error this one wraps, when another error was its cause (the HTTP client's, TLS's,
    /// the resolver's, the state database's): kept as it was thrown.
    public var underlyingError: (any Error)?

    public init(
        _ code: Code, _ message: String, status: Int? = nil, retryAfter: RetryAfter? = nil,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
        self.underlyingError = underlyingError
    }

    public var description: String { message }

    /// Whether the two say the same: code, message, status and `Retry-After`. The causes are
    /// not compared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.status == rhs.status
            && lhs.retryAfter == rhs.retryAfter
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(status)
        hasher.combine(retryAfter)
    }
}

extension ErrorCode where Domain == NetworkError {
    /// The location is not an `http://` or `https://` URL with a host.
    public static var invalidURL: Self { Self(rawValue: "network.invalid-url") }
    /// The server could not be reached (refused, unreachable, name not resolved, connect timeout).
    public static var unreachable: Self { Self(rawValue: "network.unreachable") }
    /// The whole fetch took longer than the total timeout.
    public static var timeout: Self { Self(rawValue: "network.timeout") }
    /// TLS failed: an untrusted or invalid certificate, or a failed handshake.
    public static var tls: Self { Self(rawValue: "network.tls") }
    /// The body is larger than the size cap.
    public static var tooLarge: Self { Self(rawValue: "network.too-large") }
    /// More redirects than allowed, or a redirect loop.
    public static var tooManyRedirects: Self { Self(rawValue: "network.too-many-redirects") }
    /// A redirect from `https` to `http`, or to another scheme, or without a usable `Location`.
    public static var refusedRedirect: Self { Self(rawValue: "network.refused-redirect") }
    /// The server answered with an error status; `retryAfter` is set for 429 and 503 when it said.
    public static var httpStatus: Self { Self(rawValue: "network.http-status") }
    /// The connection failed in another way (closed early, malformed response).
    public static var transport: Self { Self(rawValue: "network.transport") }
    /// A configured certificate file cannot be read.
    public static var invalidConfiguration: Self { Self(rawValue: "network.invalid-configuration") }
    /// The cache or the version state cannot be read or written.
    public static var storage: Self { Self(rawValue: "network.storage") }
    /// Feeds over HTTP(S) are not enabled where the load ran (no fetcher).
    public static var notEnabled: Self { Self(rawValue: "network.not-enabled") }
    /// A cached copy was needed (a 304, or a start that waits for no network) and there is none.
    public static var noCachedCopy: Self { Self(rawValue: "network.no-cached-copy") }
    /// The fetcher was shut down (the daemon is stopping): nothing more is fetched.
    public static var shutDown: Self { Self(rawValue: "network.shut-down") }
}
