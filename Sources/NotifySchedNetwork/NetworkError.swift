import NotifySchedCore

/// An error fetching, caching or checking a portal feed: a code a program can match and a
/// message, naming the URL or file and the cause, that a person can act on.
public struct NetworkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a stable string.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The location is not an `http://` or `https://` URL with a host.
        public static let invalidURL = Code(rawValue: "network.invalid-url")
        /// The server could not be reached (refused, unreachable, name not resolved, connect timeout).
        public static let unreachable = Code(rawValue: "network.unreachable")
        /// The whole fetch took longer than the total timeout.
        public static let timeout = Code(rawValue: "network.timeout")
        /// TLS failed: an untrusted or invalid certificate, or a failed handshake.
        public static let tls = Code(rawValue: "network.tls")
        /// The body is larger than the size cap.
        public static let tooLarge = Code(rawValue: "network.too-large")
        /// More redirects than allowed, or a redirect loop.
        public static let tooManyRedirects = Code(rawValue: "network.too-many-redirects")
        /// A redirect from `https` to `http`, or to another scheme, or without a usable `Location`.
        public static let refusedRedirect = Code(rawValue: "network.refused-redirect")
        /// The server answered with an error status; `retryAfter` is set for 429 and 503 when it said.
        public static let httpStatus = Code(rawValue: "network.http-status")
        /// The connection failed in another way (closed early, malformed response).
        public static let transport = Code(rawValue: "network.transport")
        /// A configured certificate file cannot be read.
        public static let invalidConfiguration = Code(rawValue: "network.invalid-configuration")
        /// The cache or the version state cannot be read or written.
        public static let storage = Code(rawValue: "network.storage")
    }

    public var code: Code
    /// A sentence that starts with the URL or path concerned.
    public var message: String
    /// The HTTP status, for `.httpStatus`.
    public var status: Int?
    /// The server's `Retry-After`, for 429 and 503 responses that carried one.
    public var retryAfter: RetryAfter?

    public init(_ code: Code, _ message: String, status: Int? = nil, retryAfter: RetryAfter? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.retryAfter = retryAfter
    }

    public var description: String { message }
}
