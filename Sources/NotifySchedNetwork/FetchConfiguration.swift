import NotifySchedCore

/// How `FeedFetcher` talks to portals. Every field has the documented default.
///
/// | field | default | CLI |
/// |---|---|---|
/// | `connectTimeout` | 10 s | `--connect-timeout` |
/// | `totalTimeout` | 60 s, over all redirects and the whole body | `--timeout` |
/// | `maxBytes` | 16 MiB (`FeedReadLimits.maxBytes`), counted while reading | |
/// | `maxRedirects` | 5; `https` never redirects to `http` | |
/// | `trustedCertificateFiles` | none: the system's roots only | `--ca-file` |
/// | `userAgent` | `notify-sched/<version>` | |
public struct FetchConfiguration: Hashable, Sendable {
    /// How long to wait for a TCP connection (and TLS handshake) to a server. The default is 10 s.
    public var connectTimeout: TimeSpan
    /// How long the whole fetch may take, redirects and body included. The default is 60 s.
    public var totalTimeout: TimeSpan
    /// The size cap of a response body, counted as it arrives: past it the fetch stops and is
    /// refused. The default is 16 MiB.
    public var maxBytes: Int
    /// How many redirects to follow. The default is 5.
    public var maxRedirects: Int
    /// PEM files of certificate authorities to trust in addition to the system's (for a portal
    /// with a private CA, and for tests with a self-signed one). The default is none.
    public var trustedCertificateFiles: [String]
    /// The `User-Agent` header. The default is `notify-sched/<version>`.
    public var userAgent: String

    public init(
        connectTimeout: TimeSpan = .seconds(10), totalTimeout: TimeSpan = .seconds(60),
        maxBytes: Int = FeedReadLimits().maxBytes, maxRedirects: Int = 5, trustedCertificateFiles: [String] = [],
        userAgent: String = ProductVersion.userAgent
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxBytes = maxBytes
        self.maxRedirects = maxRedirects
        self.trustedCertificateFiles = trustedCertificateFiles
        self.userAgent = userAgent
    }
}
