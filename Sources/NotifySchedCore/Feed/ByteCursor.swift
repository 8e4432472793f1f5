/// A position in the bytes of a text document, with the line numbers errors need.
///
/// The text readers keep the document in an `UnsafeBufferPointer` for speed, so every
/// access goes through a bounds check written here or right before it.
struct ByteCursor {
    /// The whole document.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var index = 0
    /// Where `lineAtOffset` was last computed; lines are counted forward from there.
    private var countedOffset = 0
    private var lineAtOffset = 1

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// The next byte, or nil at the end.
    ///
    /// - Complexity: O(1).
    func peek(offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    /// Whether the bytes at the cursor spell `literal` (ASCII).
    ///
    /// - Complexity: O(`literal` length).
    func hasPrefix(_ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard bytes.count - index >= length else { return false }
        let start = literal.utf8Start
        for offset in 0..<length where bytes[index + offset] != start[offset] {
            return false
        }
        return true
    }

    /// The offset of the next occurrence of `literal` (ASCII) at or after `start`.
    ///
    /// - Complexity: O(n · `literal` length) in the worst case, O(n) for the literals used here.
    func firstOffset(of literal: StaticString, from start: Int) -> Int? {
        let length = literal.utf8CodeUnitCount
        let pattern = literal.utf8Start
        guard length > 0, bytes.count >= length else { return nil }
        var position = start
        let last = bytes.count - length
        while position <= last {
            if bytes[position] == pattern[0] {
                var offset = 1
                while offset < length, bytes[position + offset] == pattern[offset] {
                    offset += 1
                }
                if offset == length { return position }
            }
            position += 1
        }
        return nil
    }

    /// Skips a UTF-8 byte-order mark at the cursor.
    mutating func skipByteOrderMark() {
        if bytes.count - index >= 3, bytes[index] == 0xEF, bytes[index + 1] == 0xBB, bytes[index + 2] == 0xBF {
            index += 3
        }
    }

    /// Skips JSON and XML whitespace (space, tab, line feed, carriage return).
    ///
    /// - Returns: Whether any whitespace was skipped.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        while index < bytes.count, ByteCursor.isWhitespace(bytes[index]) {
            index += 1
        }
        return index != start
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The 1-based line of `offset`.
    ///
    /// - Complexity: amortized O(1) per byte when offsets only grow, which is how readers
    ///   ask; O(offset) when they go back.
    mutating func line(at offset: Int) -> Int {
        if offset < countedOffset {
            countedOffset = 0
            lineAtOffset = 1
        }
        let end = min(offset, bytes.count)
        // A count with no branch, which the compiler turns into vector instructions.
        lineAtOffset += UnsafeBufferPointer(rebasing: bytes[countedOffset..<end]).reduce(0) {
            $0 &+ ($1 == 0x0A ? 1 : 0)
        }
        countedOffset = end
        return lineAtOffset
    }

    /// An error located at `offset` (the cursor when nil).
    mutating func error(_ code: CoreError.Code, _ message: String, at offset: Int? = nil) -> CoreError {
        CoreError(code, message, at: FeedLocation(line: line(at: offset ?? index)))
    }

    /// The character at `offset` as a message shows it: `'x'`, `'é'`, `byte 0xFF` or `the end of the document`.
    func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "the end of the document" }
        let byte = bytes[offset]
        if byte >= 0x21, byte < 0x7F { return "'\(Unicode.Scalar(byte))'" }
        if byte < 0x80 { return "U+\(ByteCursor.hex(UInt32(byte), width: 4))" }
        var end = offset + 1
        while end < bytes.count, end - offset < 4, bytes[end] & 0xC0 == 0x80 {
            end += 1
        }
        var decoder = UTF8()
        var iterator = bytes[offset..<end].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return "'\(scalar)'" }
        return "byte 0x\(ByteCursor.hex(UInt32(byte), width: 2))"
    }

    /// Up to `limit` bytes of `range` as text for a message, with control characters escaped.
    func excerpt(_ range: Range<Int>, limit: Int = 40) -> String {
        let clamped = range.clamped(to: 0..<bytes.count)
        let shown = clamped.lowerBound..<min(clamped.upperBound, clamped.lowerBound + limit)
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[shown]), as: UTF8.self)
        return FeedKeyPath.quoted(text) + (shown.upperBound < clamped.upperBound ? "…" : "")
    }

    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
