/// Reads RFC 8259 JSON into a `FeedNode` tree within `FeedReadLimits`.
///
/// Strict: no comments, trailing commas, single quotes, `NaN` or other JSON5 forms. Strings
/// must be valid UTF-8 with paired surrogate escapes; object keys must be unique. Numbers
/// written without fraction or exponent that fit in 64 bits are `.integer`; all others are
/// `.real` and must be finite.
struct JSONReader {
    private var cursor: ByteCursor
    private let limits: FeedReadLimits
    private var nodeCount = 0
    /// Reused for strings with escapes, so each costs one allocation (its `String`).
    private var scratch: [UInt8] = []
    /// A builder per depth, reused from one object to the next.
    private var builders: [FeedDictionaryBuilder] = []
    /// Takes the elements of the root's `notifications` array, each as soon as it is read.
    private let takeEntry: ((FeedNode) -> Void)?

    private init(_ bytes: UnsafeBufferPointer<UInt8>, limits: FeedReadLimits, takeEntry: ((FeedNode) -> Void)?) {
        cursor = ByteCursor(bytes)
        self.limits = limits
        self.takeEntry = takeEntry
    }

    /// Reads the JSON document in `bytes`.
    ///
    /// - Parameter takeEntry: When given, takes the elements of the root object's
    ///   `notifications` array as each is read; the tree holds that array empty.
    /// - Throws: `CoreError` (`.invalidUTF8`, `.syntax`, `.limitExceeded`, `.duplicateKey`).
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: FeedReadLimits, takeEntry: ((FeedNode) -> Void)? = nil
    ) throws(CoreError) -> FeedNode {
        var reader = JSONReader(bytes, limits: limits, takeEntry: takeEntry)
        try UTF8Validator.validate(&reader.cursor)
        reader.cursor.skipByteOrderMark()
        reader.cursor.skipWhitespace()
        let root = try reader.readValue(depth: 1)
        reader.cursor.skipWhitespace()
        guard reader.cursor.isAtEnd else {
            throw reader.syntaxError(
                "unexpected \(reader.cursor.describeByte(at: reader.cursor.index)) after the JSON value")
        }
        return root
    }

    // MARK: - Values

    /// Reads a value; `handsOverElements` gives an array's elements to `takeEntry` instead.
    private mutating func readValue(depth: Int, handsOverElements: Bool = false) throws(CoreError) -> FeedNode {
        guard let byte = cursor.peek() else {
            throw syntaxError("the document ends where a value was expected")
        }
        let line = cursor.line(at: cursor.index)
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else {
            throw cursor.error(.limitExceeded, limits.tooManyValues())
        }
        let value: FeedValue
        switch byte {
        case UInt8(ascii: "{"): value = .dictionary(try readObject(depth: depth))
        case UInt8(ascii: "["): value = .array(try readArray(depth: depth, handsOverElements: handsOverElements))
        case UInt8(ascii: "\""): value = .string(try readString(what: "a string"))
        case UInt8(ascii: "t"): value = try readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): value = try readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): value = try readLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try readNumber()
        default: throw syntaxError("unexpected \(cursor.describeByte(at: cursor.index)), expected a value")
        }
        return FeedNode(value, line: line)
    }

    private mutating func readObject(depth: Int) throws(CoreError) -> FeedDictionary {
        guard depth <= limits.effectiveMaxDepth else { throw cursor.error(.limitExceeded, limits.tooDeep()) }
        cursor.index += 1
        cursor.skipWhitespace()
        while builders.count <= depth { builders.append(FeedDictionaryBuilder()) }
        var builder = FeedDictionaryBuilder()
        swap(&builder, &builders[depth])
        defer {
            builder.reset()
            swap(&builder, &builders[depth])
        }
        if cursor.peek() == UInt8(ascii: "}") {
            cursor.index += 1
            return builder.dictionary
        }
        while true {
            guard cursor.peek() == UInt8(ascii: "\"") else {
                if cursor.peek() == UInt8(ascii: "}"), !builder.isEmpty {
                    throw syntaxError("a trailing comma before '}' is not allowed in JSON")
                }
                throw syntaxError("expected a key in double quotes, found \(cursor.describeByte(at: cursor.index))")
            }
            let keyStart = cursor.index
            let key = try readString(what: "a key")
            if let first = builder.existing(key) {
                throw FeedDictionaryBuilder.duplicateKeyError(key, first: first, line: cursor.line(at: keyStart))
            }
            cursor.skipWhitespace()
            guard cursor.peek() == UInt8(ascii: ":") else {
                throw syntaxError(
                    "expected ':' after the key \(FeedKeyPath.quoted(key)), found "
                        + cursor.describeByte(at: cursor.index)
                )
            }
            cursor.index += 1
            cursor.skipWhitespace()
            let node: FeedNode
            do throws(CoreError) {
                node = try readValue(
                    depth: depth + 1, handsOverElements: depth == 1 && takeEntry != nil && key == "notifications")
            } catch {
                throw error.inside(key: key)
            }
            builder.append(key, node)
            if try readSeparator(closing: UInt8(ascii: "}"), container: "an object") { return builder.dictionary }
        }
    }

    private mutating func readArray(depth: Int, handsOverElements: Bool) throws(CoreError) -> [FeedNode] {
        guard depth <= limits.effectiveMaxDepth else { throw cursor.error(.limitExceeded, limits.tooDeep()) }
        cursor.index += 1
        cursor.skipWhitespace()
        var elements: [FeedNode] = []
        if cursor.peek() == UInt8(ascii: "]") {
            cursor.index += 1
            return elements
        }
        var count = 0
        while true {
            if cursor.peek() == UInt8(ascii: "]"), count > 0 {
                throw syntaxError("a trailing comma before ']' is not allowed in JSON")
            }
            do throws(CoreError) {
                let element = try readValue(depth: depth + 1)
                if handsOverElements, let takeEntry { takeEntry(element) } else { elements.append(element) }
            } catch {
                throw error.inside(index: count)
            }
            count += 1
            if try readSeparator(closing: UInt8(ascii: "]"), container: "an array") { return elements }
        }
    }

    /// Reads what follows a member of a container: a comma (returns false) or the `closing`
    /// bracket (returns true).
    private mutating func readSeparator(closing: UInt8, container: String) throws(CoreError) -> Bool {
        cursor.skipWhitespace()
        switch cursor.peek() {
        case UInt8(ascii: ","):
            cursor.index += 1
            cursor.skipWhitespace()
            return false
        case closing:
            cursor.index += 1
            return true
        case nil:
            throw syntaxError("the document ends inside \(container)")
        default:
            let found = cursor.describeByte(at: cursor.index)
            throw syntaxError("expected ',' or '\(Unicode.Scalar(closing))' in \(container), found \(found)")
        }
    }

    private mutating func readLiteral(_ literal: StaticString, _ value: FeedValue) throws(CoreError) -> FeedValue {
        guard cursor.hasPrefix(literal) else {
            throw syntaxError(
                "unexpected \(cursor.excerpt(cursor.index..<cursor.index + literal.utf8CodeUnitCount)), "
                    + "expected a value"
            )
        }
        cursor.index += literal.utf8CodeUnitCount
        return value
    }

    // MARK: - Strings

    /// Reads a string at the opening quote. `what` names it in errors ("a key").
    private mutating func readString(what: String) throws(CoreError) -> String {
        let bytes = cursor.bytes
        let start = cursor.index + 1
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try checkLength(index - start, what: what)
                cursor.index = index + 1
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                cursor.index = index
                return try readEscapedString(prefix: start..<index, what: what)
            }
            if byte < 0x20 {
                throw controlCharacterError(byte, at: index)
            }
            index += 1
        }
        throw syntaxError("the document ends inside \(what)", at: cursor.index)
    }

    /// Continues `readString` from the first backslash; `prefix` is the text before it.
    private mutating func readEscapedString(prefix: Range<Int>, what: String) throws(CoreError) -> String {
        let bytes = cursor.bytes
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[prefix]))
        var index = cursor.index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try checkLength(scratch.count, what: what)
                cursor.index = index + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte < 0x20 { throw controlCharacterError(byte, at: index) }
            guard byte == UInt8(ascii: "\\") else {
                scratch.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try readUnicodeEscape(at: &index)
                if let encoded = UTF8.encode(scalar) { scratch.append(contentsOf: encoded) }
            default:
                throw syntaxError("\\\(cursor.describeByte(at: index - 1)) is not a JSON escape", at: index - 2)
            }
        }
        throw syntaxError("the document ends inside \(what)", at: prefix.lowerBound - 1)
    }

    /// Reads the hex digits of `\uXXXX` (and of a following low surrogate) after the `u`.
    private mutating func readUnicodeEscape(at index: inout Int) throws(CoreError) -> Unicode.Scalar {
        let escapeStart = index - 2
        let high = try readHex4(at: &index, escapeStart: escapeStart)
        if (0xDC00...0xDFFF).contains(high) {
            throw loneSurrogateError(high, at: escapeStart)
        }
        guard (0xD800...0xDBFF).contains(high) else {
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        }
        let bytes = cursor.bytes
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw loneSurrogateError(high, at: escapeStart)
        }
        index += 2
        let low = try readHex4(at: &index, escapeStart: index - 2)
        guard (0xDC00...0xDFFF).contains(low) else {
            throw loneSurrogateError(high, at: escapeStart)
        }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
    }

    private mutating func readHex4(at index: inout Int, escapeStart: Int) throws(CoreError) -> UInt32 {
        let bytes = cursor.bytes
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = JSONReader.hexValue(bytes[index]) else {
                throw syntaxError("\\u must be followed by four hexadecimal digits", at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private mutating func checkLength(_ length: Int, what: String) throws(CoreError) {
        guard length <= limits.maxStringBytes else {
            throw cursor.error(.limitExceeded, limits.tooLong(what.prefix(1).uppercased() + what.dropFirst(), length))
        }
    }

    // MARK: - Numbers

    private mutating func readNumber() throws(CoreError) -> FeedValue {
        let bytes = cursor.bytes
        let start = cursor.index
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        guard index < bytes.count, JSONReader.isDigit(bytes[index]) else {
            throw syntaxError("expected a digit after '-'", at: start)
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, JSONReader.isDigit(bytes[index]) {
                throw syntaxError("numbers must not have leading zeros", at: start)
            }
        } else {
            index = skipDigits(from: index)
        }
        let digitsEnd = index
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, JSONReader.isDigit(bytes[index]) else {
                throw syntaxError("expected a digit after the decimal point", at: start)
            }
            index = skipDigits(from: index)
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, JSONReader.isDigit(bytes[index]) else {
                throw syntaxError("expected a digit in the exponent", at: start)
            }
            index = skipDigits(from: index)
        }
        cursor.index = index
        if isInteger, let integer = JSONReader.integer(bytes[digitsStart..<digitsEnd], negative: negative) {
            return .integer(integer)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let real = Double(text), real.isFinite else {
            throw syntaxError("the number \(cursor.excerpt(start..<index)) is too large", at: start)
        }
        return .real(real)
    }

    private func skipDigits(from start: Int) -> Int {
        var index = start
        while index < cursor.bytes.count, JSONReader.isDigit(cursor.bytes[index]) {
            index += 1
        }
        return index
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// The decimal `digits` as an `Int64`, or nil when the value does not fit.
    private static func integer(_ digits: Slice<UnsafeBufferPointer<UInt8>>, negative: Bool) -> Int64? {
        var magnitude: UInt64 = 0
        for digit in digits {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit &- UInt8(ascii: "0")))
            if overflow1 || overflow2 { return nil }
            magnitude = sum
        }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(bitPattern: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    // MARK: - Errors

    private mutating func syntaxError(_ message: String, at offset: Int? = nil) -> CoreError {
        cursor.error(.syntax, message, at: offset)
    }

    private mutating func controlCharacterError(_ byte: UInt8, at offset: Int) -> CoreError {
        let name = byte == 0x0A ? "a line break" : "the control character U+\(ByteCursor.hex(UInt32(byte), width: 4))"
        return syntaxError("\(name) inside a string must be escaped", at: offset)
    }

    private mutating func loneSurrogateError(_ unit: UInt32, at offset: Int) -> CoreError {
        syntaxError(
            "\\u\(ByteCursor.hex(unit, width: 4)) is a lone surrogate, not a character: "
                + "surrogates must come in high-low pairs",
            at: offset)
    }
}
