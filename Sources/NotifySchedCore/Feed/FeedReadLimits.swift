/// The bounds a feed document must stay within to be read.
///
/// Feeds are untrusted, so every reader counts what it produces and stops with
/// `CoreError.Code.limitExceeded` (or `.tooLarge` for the size) as soon as a bound is
/// passed. Memory and time are then proportional to the bounds, whatever the input. The
/// defaults fit a 100 000-entry feed with room to spare.
///
/// ```swift
/// var limits = FeedReadLimits()
/// limits.maxBytes = 1 << 20
/// let document = try FeedDocument.read(bytes, limits: limits)
/// ```
public struct FeedReadLimits: Sendable, Hashable {
    /// The largest document, in bytes, checked before anything is parsed. The default is
    /// 16 MiB.
    public var maxBytes: Int
    /// The deepest nesting of arrays and dictionaries; the root container is at depth 1. The
    /// default is 128. Values above `depthCeiling` count as `depthCeiling`.
    public var maxDepth: Int
    /// The most values a document may produce, counting every array, dictionary and scalar
    /// (dictionary keys are not counted). A binary plist counts a shared object once per
    /// place it appears, so a small file of shared subtrees cannot expand past this. The
    /// default is 4 000 000.
    public var maxNodes: Int
    /// The longest single string, key or data value, in bytes (UTF-8 for text, decoded bytes
    /// for data). The default is 1 MiB.
    public var maxStringBytes: Int
    /// The most objects a binary plist's trailer may declare. The default is 4 000 000.
    public var maxBinaryObjects: Int

    /// The deepest nesting any `maxDepth` allows.
    ///
    /// The readers recurse once per level, which costs up to about 1.5 KiB of stack in an
    /// optimized build (binary plists; JSON and XML about 1 KiB) and several times that in a
    /// debug build. The default depth therefore needs about 200 KiB, and this ceiling about
    /// 750 KiB optimized and 4 MiB in debug: read feeds on a thread with the usual 8 MiB.
    public static let depthCeiling = 512

    /// Creates limits; every parameter defaults to the value its property documents.
    public init(
        maxBytes: Int = 16 << 20,
        maxDepth: Int = 128,
        maxNodes: Int = 4_000_000,
        maxStringBytes: Int = 1 << 20,
        maxBinaryObjects: Int = 4_000_000
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxStringBytes = maxStringBytes
        self.maxBinaryObjects = maxBinaryObjects
    }

    /// `maxDepth` capped at `depthCeiling`.
    var effectiveMaxDepth: Int { min(maxDepth, FeedReadLimits.depthCeiling) }

    func tooDeep() -> String {
        "the document nests arrays and dictionaries more than \(effectiveMaxDepth) levels deep"
    }

    func tooManyValues() -> String {
        "the document holds more than \(maxNodes) values"
    }

    func tooLong(_ what: String, _ length: Int) -> String {
        "\(what) is \(length) bytes long; the limit is \(maxStringBytes)"
    }
}
