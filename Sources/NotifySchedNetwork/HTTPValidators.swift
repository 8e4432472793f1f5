/// The validators of a fetched feed, sent back on the next fetch for a conditional GET.
public struct HTTPValidators: Codable, Hashable, Sendable {
    /// The `ETag` header, sent back as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` header, sent back as `If-Modified-Since`.
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether there is anything to make a request conditional with.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}
