/// A feed document read into a generic tree, before any dialect gives it meaning.
///
/// The readers are written for untrusted input: they never trap, never recurse without a
/// bound and stop at the `FeedReadLimits`. They use no Foundation parser (see
/// `shared/reference/safety-facts.md` for what those do with hostile input).
public struct FeedDocument: Sendable, Equatable {
    /// The format the document was written in.
    public var format: FeedFormat
    /// The root value: for JSON an object or an array, for plists any value.
    public var root: FeedNode

    public init(format: FeedFormat, root: FeedNode) {
        self.format = format
        self.root = root
    }

    /// Reads a feed document, recognizing its format from its content.
    ///
    /// The order is the safe one: size cap, format sniff, UTF-8 validation (text formats),
    /// then one bounded pass that builds the tree. JSON follows RFC 8259 strictly. XML plists
    /// may use the XML declaration, comments, processing instructions, CDATA, character
    /// references, the five predefined entities and a DOCTYPE without internal subset.
    /// Binary plists must be `bplist00`; their sets and UIDs are refused (no feed dialect uses
    /// them, and XML plists cannot express them). A JSON number is `.integer` when written
    /// without fraction or exponent and it fits in 64 bits, otherwise `.real`. Nodes of text
    /// formats carry their line; errors carry the line and, inside containers, the key path.
    ///
    /// - Parameters:
    ///   - bytes: The whole document.
    ///   - limits: The bounds the document must stay within.
    ///   - takeEntry: When given, takes the elements of a JSON document's root `notifications`
    ///     array as each is read, so that a portal feed's entries are mapped while the rest is
    ///     read; the tree then holds that array empty. Plists keep every element in the tree.
    /// - Returns: The document's format and its root value.
    /// - Throws: `CoreError` with code `.tooLarge`, `.unknownFormat`, `.invalidUTF8`,
    ///   `.syntax`, `.limitExceeded`, `.forbiddenMarkup` or `.duplicateKey`.
    public static func read(
        _ bytes: [UInt8], limits: FeedReadLimits = FeedReadLimits(), takeEntry: ((FeedNode) -> Void)? = nil
    ) throws(CoreError) -> FeedDocument {
        guard bytes.count <= limits.maxBytes else {
            throw CoreError(.tooLarge, "the feed is \(bytes.count) bytes; the limit is \(limits.maxBytes)")
        }
        return try bytes.withUnsafeBufferPointer { buffer throws(CoreError) in
            let format = try FeedFormat.detect(in: buffer)
            let root: FeedNode
            switch format {
            case .json: root = try JSONReader.read(buffer, limits: limits, takeEntry: takeEntry)
            case .xmlPropertyList: root = try XMLPropertyListReader.read(buffer, limits: limits)
            case .binaryPropertyList: root = try BinaryPropertyListReader.read(buffer, limits: limits)
            case .iCalendar:
                throw CoreError(.unknownFormat, "the feed is an iCalendar calendar, which `ICalendarDocument` reads")
            }
            return FeedDocument(format: format, root: root)
        }
    }
}
