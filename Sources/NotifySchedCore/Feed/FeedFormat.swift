/// The encoding of a feed document, recognized from its first bytes.
///
/// Feeds arrive as JSON, XML property lists or binary property lists; the readers accept
/// nothing else. The raw values are the names the CLI and logs use.
public enum FeedFormat: String, Sendable, Hashable, CaseIterable {
    /// RFC 8259 JSON whose root is an object or an array.
    case json = "json"
    /// An XML property list (`<plist>` root element).
    case xmlPropertyList = "xml-plist"
    /// A binary property list (`bplist00`).
    case binaryPropertyList = "binary-plist"
    /// An iCalendar calendar (RFC 5545), starting `BEGIN:VCALENDAR`.
    case iCalendar = "icalendar"

    /// Recognizes the format of `bytes` from their first characters, without parsing them.
    ///
    /// `bplist00` starts a binary plist. After an optional UTF-8 byte-order mark and
    /// whitespace, `<` starts an XML plist, `{` or `[` a JSON document, and `BEGIN:VCALENDAR`
    /// an iCalendar calendar. An OpenStep text
    /// plist (`(…)`, `{ key = value; }`) is refused, and so is text in UTF-16 or UTF-32.
    /// Detection does not prove the document well-formed: `FeedDocument.read(_:limits:)`
    /// also refuses XML whose root element is not `<plist>`.
    ///
    /// - Parameter bytes: The start of the document; the whole document is fine too.
    /// - Returns: The format the document is written in.
    /// - Throws: `CoreError` with code `.unknownFormat` when the bytes are none of the three.
    public static func detect(in bytes: [UInt8]) throws(CoreError) -> FeedFormat {
        try bytes.withUnsafeBufferPointer { buffer throws(CoreError) in try detect(in: buffer) }
    }

    static func detect(in bytes: UnsafeBufferPointer<UInt8>) throws(CoreError) -> FeedFormat {
        var cursor = ByteCursor(bytes)
        if cursor.hasPrefix("bplist00") { return .binaryPropertyList }
        if cursor.hasPrefix("bplist") {
            throw CoreError(.unknownFormat, "only binary plists of version \"bplist00\" are supported")
        }
        if startsWithWideText(bytes) {
            throw CoreError(
                .unknownFormat, "the feed is UTF-16 or UTF-32 text; save it as UTF-8")
        }
        cursor.skipByteOrderMark()
        cursor.skipWhitespace()
        guard let first = cursor.peek() else {
            throw CoreError(.unknownFormat, "the feed is empty")
        }
        if cursor.hasPrefix("BEGIN:VCALENDAR") || cursor.hasPrefix("begin:vcalendar") { return .iCalendar }
        switch first {
        case UInt8(ascii: "<"):
            return .xmlPropertyList
        case UInt8(ascii: "["):
            return .json
        case UInt8(ascii: "{"):
            if looksLikeOpenStepDictionary(cursor) { throw openStepError(at: &cursor) }
            return .json
        case UInt8(ascii: "("):
            throw openStepError(at: &cursor)
        default:
            throw CoreError(
                .unknownFormat,
                "the feed is not JSON, an XML plist, a binary plist or an iCalendar calendar: it starts with "
                    + cursor.describeByte(at: cursor.index),
                at: FeedLocation(line: cursor.line(at: cursor.index)))
        }
    }

    /// UTF-16 and UTF-32 show up as a byte-order mark or as zero bytes around the first
    /// ASCII character; neither can start valid UTF-8 JSON or XML.
    private static func startsWithWideText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 2 else { return false }
        let (first, second) = (bytes[0], bytes[1])
        if (first == 0xFE && second == 0xFF) || (first == 0xFF && second == 0xFE) { return true }
        if first == 0, second == 0 { return bytes.count >= 4 && bytes[2] == 0xFE && bytes[3] == 0xFF }
        return (first == 0 && second < 0x80) || (first < 0x80 && second == 0)
    }

    /// An OpenStep dictionary starts like a JSON object, but its first key (quoted or not) is
    /// followed by `=` rather than `:`.
    private static func looksLikeOpenStepDictionary(_ start: ByteCursor) -> Bool {
        var cursor = start
        cursor.index += 1
        cursor.skipWhitespace()
        guard let next = cursor.peek() else { return false }
        if next == UInt8(ascii: "\"") {
            cursor.index += 1
            while let byte = cursor.peek(), byte != UInt8(ascii: "\"") {
                cursor.index += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            cursor.index += 1
        } else {
            while let byte = cursor.peek(), isOpenStepWordCharacter(byte) {
                cursor.index += 1
            }
        }
        cursor.skipWhitespace()
        return cursor.peek() == UInt8(ascii: "=")
    }

    /// The characters of an unquoted OpenStep string, less `:` so `{a:1}` stays a JSON error.
    private static func isOpenStepWordCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"),
            UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    private static func openStepError(at cursor: inout ByteCursor) -> CoreError {
        CoreError(
            .unknownFormat,
            "OpenStep-style text plists are not supported; use JSON, an XML plist or a binary plist",
            at: FeedLocation(line: cursor.line(at: cursor.index)))
    }
}
