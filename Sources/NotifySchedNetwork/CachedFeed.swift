import NotifySchedCore

/// A portal feed as last accepted: its exact bytes, its signature, and its validators.
public struct CachedFeed: Hashable, Sendable {
    /// The URL it was fetched from, as the user named it.
    public var url: String
    /// The feed's exact bytes.
    public var bytes: [UInt8]
    /// The `.sig` file's bytes as fetched, when the source has a key.
    public var signature: [UInt8]?
    /// The validators for the next conditional GET.
    public var validators: HTTPValidators
    /// When it was fetched and accepted.
    public var storedAt: Instant

    public init(url: String, bytes: [UInt8], signature: [UInt8]?, validators: HTTPValidators, storedAt: Instant) {
        self.url = url
        self.bytes = bytes
        self.signature = signature
        self.validators = validators
        self.storedAt = storedAt
    }
}
