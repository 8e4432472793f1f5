/// Reads XML property lists into a `FeedNode` tree within `FeedReadLimits`.
///
/// Only the XML that plists use is read: the XML declaration (UTF-8 only), comments,
/// processing instructions, CDATA sections, character references, the five predefined
/// entities, and a `<!DOCTYPE plist …>` without internal subset. Entities are never
/// declared, expanded or fetched: an internal subset or any other `&name;` is refused with
/// `.forbiddenMarkup`. Values are range-checked rather than coerced: integers must fit in
/// 64 bits, reals must be finite, dates must be real `YYYY-MM-DDTHH:MM:SSZ` times and data
/// must be strict base64.
struct XMLPropertyListReader {
    private var cursor: ByteCursor
    private let limits: FeedReadLimits
    private var nodeCount = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, limits: FeedReadLimits) {
        cursor = ByteCursor(bytes)
        self.limits = limits
    }

    /// Reads the XML plist in `bytes`.
    ///
    /// The prolog is read first, so a DOCTYPE with an internal subset is refused before the
    /// rest of the document is looked at.
    ///
    /// - Throws: `CoreError` (`.forbiddenMarkup`, `.unknownFormat`, `.invalidUTF8`, `.syntax`,
    ///   `.limitExceeded`, `.duplicateKey`).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: FeedReadLimits) throws(CoreError) -> FeedNode {
        var reader = XMLPropertyListReader(bytes, limits: limits)
        try reader.readProlog()
        try UTF8Validator.validate(&reader.cursor)
        let root = try reader.readPlist()
        try reader.skipMiscellany()
        guard reader.cursor.isAtEnd else {
            throw reader.syntaxError("unexpected \(reader.describeHere()) after </plist>")
        }
        return root
    }

    // MARK: - Document structure

    private mutating func readProlog() throws(CoreError) {
        cursor.skipByteOrderMark()
        var sawDoctype = false
        while true {
            cursor.skipWhitespace()
            if cursor.hasPrefix("<?") {
                try skipProcessingInstruction(inProlog: true)
            } else if cursor.hasPrefix("<!--") {
                try skipComment()
            } else if cursor.hasPrefix("<!DOCTYPE") {
                guard !sawDoctype else { throw syntaxError("a document may have only one DOCTYPE") }
                try readDoctype()
                sawDoctype = true
            } else if cursor.hasPrefix("<!ENTITY") || cursor.hasPrefix("<!ELEMENT") || cursor.hasPrefix("<!ATTLIST")
                || cursor.hasPrefix("<!NOTATION")
            {
                throw cursor.error(.forbiddenMarkup, "markup declarations such as <!ENTITY> are not allowed in a plist")
            } else if cursor.peek() == UInt8(ascii: "<") {
                return
            } else if cursor.isAtEnd {
                throw syntaxError("the document has no root element")
            } else {
                throw syntaxError("unexpected \(describeHere()) before the root element")
            }
        }
    }

    /// Reads `<!DOCTYPE name ExternalID? >`, refusing an internal subset wherever it starts.
    private mutating func readDoctype() throws(CoreError) {
        let start = cursor.index
        cursor.index += "<!DOCTYPE".utf8.count
        var name: Range<Int>?
        while true {
            cursor.skipWhitespace()
            guard let byte = cursor.peek() else { throw syntaxError("the DOCTYPE is not closed", at: start) }
            switch byte {
            case UInt8(ascii: "["):
                throw cursor.error(
                    .forbiddenMarkup,
                    "the DOCTYPE has an internal subset ([…]); plists must not declare entities or other markup")
            case UInt8(ascii: ">"):
                cursor.index += 1
                guard let name, matches(name, "plist") else {
                    throw cursor.error(.unknownFormat, "the DOCTYPE does not declare a plist document", at: start)
                }
                return
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard let close = cursor.bytes[(cursor.index + 1)...].firstIndex(of: byte) else {
                    throw syntaxError("a quoted literal in the DOCTYPE is not closed", at: start)
                }
                cursor.index = close + 1
            default:
                let word = try readName()
                if name == nil { name = word }
            }
        }
    }

    private mutating func readPlist() throws(CoreError) -> FeedNode {
        guard let next = cursor.peek(offset: 1), XMLPropertyListReader.isNameStart(next) else {
            throw cursor.error(.unknownFormat, "the document starts with '<' but is not an XML document")
        }
        let tag = try readStartTag()
        guard tag.element == .plist else {
            throw cursor.error(
                .unknownFormat,
                "the XML document's root element is <\(nameText(tag.name))>, not <plist>: it is not a property list",
                at: tag.start)
        }
        guard !tag.isEmpty else {
            throw syntaxError("<plist/> holds no value; it must hold exactly one", at: tag.start)
        }
        try skipMiscellany()
        guard !cursor.hasPrefix("</") else {
            throw syntaxError("<plist> holds no value; it must hold exactly one", at: tag.start)
        }
        let root = try readValue(depth: 1)
        try skipMiscellany()
        guard cursor.hasPrefix("</") else {
            if cursor.peek() == UInt8(ascii: "<") {
                throw syntaxError("<plist> holds more than one value; it must hold exactly one")
            }
            throw unexpectedText(inside: tag)
        }
        try readEndTag(of: tag)
        return root
    }

    // MARK: - Values

    private mutating func readValue(depth: Int) throws(CoreError) -> FeedNode {
        guard cursor.peek() == UInt8(ascii: "<"), !cursor.hasPrefix("<!") else {
            throw syntaxError(
                cursor.isAtEnd
                    ? "the document ends where a value was expected" : "expected a value, found \(describeHere())")
        }
        let tag = try readStartTag()
        let line = cursor.line(at: tag.start)
        nodeCount += 1
        guard nodeCount <= limits.maxNodes else {
            throw cursor.error(.limitExceeded, limits.tooManyValues(), at: tag.start)
        }
        guard let element = tag.element else {
            throw syntaxError("<\(nameText(tag.name))> is not a plist element", at: tag.start)
        }
        let value: FeedValue
        switch element {
        case .dict, .array:
            guard depth <= limits.effectiveMaxDepth else {
                throw cursor.error(.limitExceeded, limits.tooDeep(), at: tag.start)
            }
            if element == .dict {
                value = .dictionary(tag.isEmpty ? FeedDictionary() : try readDictionary(tag, depth: depth))
            } else {
                value = .array(tag.isEmpty ? [] : try readArray(tag, depth: depth))
            }
        case .key:
            throw syntaxError("expected a value, found <key>", at: tag.start)
        case .plist:
            throw syntaxError("<plist> cannot be nested", at: tag.start)
        default:
            value = try readScalar(element, tag: tag)
        }
        return FeedNode(value, line: line)
    }

    private mutating func readDictionary(_ tag: StartTag, depth: Int) throws(CoreError) -> FeedDictionary {
        var builder = FeedDictionaryBuilder()
        while true {
            try skipMiscellany()
            if cursor.hasPrefix("</") {
                try readEndTag(of: tag)
                return builder.dictionary
            }
            guard cursor.peek() == UInt8(ascii: "<") else { throw unexpectedText(inside: tag) }
            let keyTag = try readStartTag()
            guard keyTag.element == .key else {
                throw syntaxError("expected <key> in a <dict>, found <\(nameText(keyTag.name))>", at: keyTag.start)
            }
            let key = try readString(keyTag, what: "A key")
            if let first = builder.existing(key) {
                throw FeedDictionaryBuilder.duplicateKeyError(key, first: first, line: cursor.line(at: keyTag.start))
            }
            try skipMiscellany()
            let node: FeedNode
            do throws(CoreError) {
                if cursor.hasPrefix("</") { throw syntaxError("the key has no value") }
                node = try readValue(depth: depth + 1)
            } catch {
                throw error.inside(key: key)
            }
            builder.append(key, node)
        }
    }

    private mutating func readArray(_ tag: StartTag, depth: Int) throws(CoreError) -> [FeedNode] {
        var elements: [FeedNode] = []
        while true {
            try skipMiscellany()
            if cursor.hasPrefix("</") {
                try readEndTag(of: tag)
                return elements
            }
            guard cursor.peek() == UInt8(ascii: "<") else { throw unexpectedText(inside: tag) }
            do throws(CoreError) {
                elements.append(try readValue(depth: depth + 1))
            } catch {
                throw error.inside(index: elements.count)
            }
        }
    }

    private mutating func readScalar(_ element: Element, tag: StartTag) throws(CoreError) -> FeedValue {
        if element == .string { return .string(try readString(tag, what: "A string")) }
        let text = try readText(of: tag)
        if element == .data {
            guard let data = withBytes(of: text, { Base64Decoder.decode($0) }) else {
                throw syntaxError("<data> does not hold valid base64", at: tag.start)
            }
            guard data.count <= limits.maxStringBytes else {
                throw cursor.error(.limitExceeded, limits.tooLong("A data value", data.count), at: tag.start)
            }
            return .data(data)
        }
        let value: FeedValue? = withBytes(of: text) { bytes in
            let trimmed = XMLPropertyListReader.trimmingWhitespace(bytes)
            switch element {
            case .integer: return XMLPropertyListReader.integer(trimmed).map(FeedValue.integer)
            case .real: return XMLPropertyListReader.real(trimmed).map(FeedValue.real)
            case .date: return XMLPropertyListReader.date(trimmed).map(FeedValue.date)
            case .true: return trimmed.isEmpty ? .bool(true) : nil
            case .false: return trimmed.isEmpty ? .bool(false) : nil
            default: return nil
            }
        }
        guard let value else {
            let shown = withBytes(of: text) { bytes in
                FeedKeyPath.quoted(String(decoding: XMLPropertyListReader.trimmingWhitespace(bytes), as: UTF8.self))
            }
            let problem =
                switch element {
                case .integer: "is not an integer that fits in 64 bits (decimal or 0x hexadecimal)"
                case .real: "is not a finite decimal number"
                case .date: "is not a real date and time in the form YYYY-MM-DDTHH:MM:SSZ"
                default: "must be empty"
                }
            throw syntaxError("<\(element.name)> \(shown) \(problem)", at: tag.start)
        }
        return value
    }

    private mutating func readString(_ tag: StartTag, what: String) throws(CoreError) -> String {
        let text = try readText(of: tag)
        let length = withBytes(of: text) { $0.count }
        guard length <= limits.maxStringBytes else {
            throw cursor.error(.limitExceeded, limits.tooLong(what, length), at: tag.start)
        }
        return withBytes(of: text) { String(decoding: $0, as: UTF8.self) }
    }

    // MARK: - Character data

    /// The character data of an element: a range of the document when it holds no markup,
    /// or its decoded bytes when references, CDATA, comments or carriage returns had to be
    /// resolved.
    private enum Text {
        case slice(Range<Int>)
        case owned([UInt8])
    }

    private func withBytes<Result>(of text: Text, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch text {
        case .slice(let range): body(UnsafeBufferPointer(rebasing: cursor.bytes[range]))
        case .owned(let bytes): bytes.withUnsafeBufferPointer(body)
        }
    }

    /// Reads the character data of the element `tag` opened, through its end tag.
    private mutating func readText(of tag: StartTag) throws(CoreError) -> Text {
        if tag.isEmpty { return .slice(cursor.index..<cursor.index) }
        let bytes = cursor.bytes
        var owned: [UInt8] = []
        var isOwned = false
        var runStart = cursor.index
        var index = cursor.index
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x20, byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&") {
                index += 1
                continue
            }
            if byte == UInt8(ascii: "<"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                let text: Text
                if isOwned {
                    owned.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    text = .owned(owned)
                } else {
                    text = .slice(runStart..<index)
                }
                cursor.index = index
                try readEndTag(of: tag)
                return text
            }
            if byte < 0x20, byte != 0x0D {
                guard byte == 0x0A || byte == 0x09 else { throw controlCharacterError(byte, at: index) }
                index += 1
                continue
            }
            isOwned = true
            owned.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            cursor.index = index
            if byte == 0x0D {
                try appendNormalized(index..<index + 1, to: &owned)
            } else if byte == UInt8(ascii: "&") {
                if let encoded = UTF8.encode(try readReference()) { owned.append(contentsOf: encoded) }
            } else if cursor.hasPrefix("<![CDATA[") {
                let contentStart = index + "<![CDATA[".utf8.count
                guard let end = cursor.firstOffset(of: "]]>", from: contentStart) else {
                    throw syntaxError("the CDATA section is not closed")
                }
                try appendNormalized(contentStart..<end, to: &owned)
                cursor.index = end + "]]>".utf8.count
            } else if cursor.hasPrefix("<!--") {
                try skipComment()
            } else if cursor.hasPrefix("<?") {
                try skipProcessingInstruction(inProlog: false)
            } else {
                throw syntaxError("<\(nameText(tag.name))> cannot contain other elements; found \(describeHere())")
            }
            index = max(cursor.index, index + 1)
            runStart = index
        }
        throw syntaxError("the document ends inside <\(nameText(tag.name))>", at: tag.start)
    }

    /// Appends `range` with XML line-end normalization (CR LF and lone CR become LF),
    /// refusing control characters XML does not allow.
    private mutating func appendNormalized(_ range: Range<Int>, to output: inout [UInt8]) throws(CoreError) {
        let bytes = cursor.bytes
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            index += 1
            if byte == 0x0D {
                output.append(0x0A)
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
            } else if byte < 0x20, byte != 0x0A, byte != 0x09 {
                throw controlCharacterError(byte, at: index - 1)
            } else {
                output.append(byte)
            }
        }
        cursor.index = max(cursor.index, index)
    }

    /// Reads `&…;` at the cursor: a character reference or one of the five predefined entities.
    private mutating func readReference() throws(CoreError) -> Unicode.Scalar {
        let start = cursor.index
        cursor.index += 1
        if cursor.peek() == UInt8(ascii: "#") {
            cursor.index += 1
            let radix: UInt32 = cursor.peek() == UInt8(ascii: "x") ? 16 : 10
            if radix == 16 { cursor.index += 1 }
            var value: UInt32 = 0
            var digits = 0
            while let byte = cursor.peek(), byte != UInt8(ascii: ";") {
                guard let digit = JSONReader.hexValue(byte), UInt32(digit) < radix else {
                    throw syntaxError("a character reference must be &#digits; or &#xhex;", at: start)
                }
                value = value * radix + UInt32(digit)
                guard value <= 0x10FFFF else {
                    throw syntaxError("the character reference is beyond U+10FFFF", at: start)
                }
                digits += 1
                cursor.index += 1
            }
            guard digits > 0, cursor.peek() == UInt8(ascii: ";") else {
                throw syntaxError("a character reference must be &#digits; or &#xhex;", at: start)
            }
            cursor.index += 1
            guard XMLPropertyListReader.isXMLCharacter(value), let scalar = Unicode.Scalar(value) else {
                throw syntaxError(
                    "the character reference names U+\(ByteCursor.hex(value, width: 4)), which XML does not allow",
                    at: start)
            }
            return scalar
        }
        guard let first = cursor.peek(), XMLPropertyListReader.isNameStart(first) else {
            throw syntaxError("'&' must start a reference such as &amp;", at: start)
        }
        let name = try readName()
        guard cursor.peek() == UInt8(ascii: ";") else {
            throw syntaxError("the reference &\(nameText(name)) is missing its ';'", at: start)
        }
        cursor.index += 1
        if matches(name, "lt") { return "<" }
        if matches(name, "gt") { return ">" }
        if matches(name, "amp") { return "&" }
        if matches(name, "apos") { return "'" }
        if matches(name, "quot") { return "\"" }
        throw cursor.error(
            .forbiddenMarkup,
            "the entity reference &\(nameText(name)); is not allowed: "
                + "plists may use only &lt; &gt; &amp; &apos; &quot; and character references",
            at: start)
    }

    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
            || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
    }

    // MARK: - Tags

    /// The plist elements; anything else is refused.
    private enum Element {
        case plist, dict, array, key, string, integer, real, date, data, `true`, `false`

        /// The element called `name`; its length, first and last letters pick the only candidate.
        init?(named name: Slice<UnsafeBufferPointer<UInt8>>) {
            guard let first = name.first, let last = name.last else { return nil }
            let candidate: Element
            switch (name.count, first, last) {
            case (5, UInt8(ascii: "p"), _): candidate = .plist
            case (4, UInt8(ascii: "d"), UInt8(ascii: "t")): candidate = .dict
            case (5, UInt8(ascii: "a"), _): candidate = .array
            case (3, UInt8(ascii: "k"), _): candidate = .key
            case (6, UInt8(ascii: "s"), _): candidate = .string
            case (7, UInt8(ascii: "i"), _): candidate = .integer
            case (4, UInt8(ascii: "r"), _): candidate = .real
            case (4, UInt8(ascii: "d"), UInt8(ascii: "e")): candidate = .date
            case (4, UInt8(ascii: "d"), UInt8(ascii: "a")): candidate = .data
            case (4, UInt8(ascii: "t"), _): candidate = .true
            case (5, UInt8(ascii: "f"), _): candidate = .false
            default: return nil
            }
            guard name.elementsEqual(candidate.name.utf8) else { return nil }
            self = candidate
        }

        var name: String {
            switch self {
            case .plist: "plist"
            case .dict: "dict"
            case .array: "array"
            case .key: "key"
            case .string: "string"
            case .integer: "integer"
            case .real: "real"
            case .date: "date"
            case .data: "data"
            case .true: "true"
            case .false: "false"
            }
        }
    }

    private struct StartTag {
        /// The offset of its `<`.
        var start: Int
        var name: Range<Int>
        var element: Element?
        /// Written `<name/>`.
        var isEmpty: Bool
    }

    /// Reads a start tag at `<`; attributes are checked for well-formedness and ignored.
    private mutating func readStartTag() throws(CoreError) -> StartTag {
        let start = cursor.index
        cursor.index += 1
        let name = try readName()
        let element = Element(named: cursor.bytes[name])
        while true {
            let hadSpace = cursor.skipWhitespace()
            switch cursor.peek() {
            case UInt8(ascii: ">"):
                cursor.index += 1
                return StartTag(start: start, name: name, element: element, isEmpty: false)
            case UInt8(ascii: "/") where cursor.peek(offset: 1) == UInt8(ascii: ">"):
                cursor.index += 2
                return StartTag(start: start, name: name, element: element, isEmpty: true)
            case nil:
                throw syntaxError("the document ends inside the tag <\(nameText(name))>", at: start)
            default:
                guard hadSpace else {
                    throw syntaxError("unexpected \(describeHere()) in the tag <\(nameText(name))>")
                }
                try skipAttribute()
            }
        }
    }

    private mutating func skipAttribute() throws(CoreError) {
        let name = try readName()
        cursor.skipWhitespace()
        guard cursor.peek() == UInt8(ascii: "=") else {
            throw syntaxError("the attribute \(nameText(name)) needs '=' and a quoted value")
        }
        cursor.index += 1
        cursor.skipWhitespace()
        guard let quote = cursor.peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw syntaxError("the value of the attribute \(nameText(name)) must be quoted")
        }
        cursor.index += 1
        while let byte = cursor.peek(), byte != quote {
            if byte == UInt8(ascii: "<") { throw syntaxError("'<' is not allowed in an attribute value") }
            if byte == UInt8(ascii: "&") {
                _ = try readReference()
            } else {
                cursor.index += 1
            }
        }
        guard !cursor.isAtEnd else { throw syntaxError("the document ends inside an attribute value") }
        cursor.index += 1
    }

    /// Reads `</name>` at the cursor and checks that it closes `tag`.
    private mutating func readEndTag(of tag: StartTag) throws(CoreError) {
        let start = cursor.index
        cursor.index += 2
        let name = try readName()
        cursor.skipWhitespace()
        guard cursor.peek() == UInt8(ascii: ">") else {
            throw syntaxError("expected '>' to end </\(nameText(name))>, found \(describeHere())")
        }
        cursor.index += 1
        guard cursor.bytes[name].elementsEqual(cursor.bytes[tag.name]) else {
            let opened = cursor.line(at: tag.start)
            throw syntaxError(
                "</\(nameText(name))> does not close <\(nameText(tag.name))>, opened at line \(opened)", at: start)
        }
    }

    private mutating func readName() throws(CoreError) -> Range<Int> {
        let start = cursor.index
        guard let first = cursor.peek(), XMLPropertyListReader.isNameStart(first) else {
            throw syntaxError("expected a name, found \(describeHere())")
        }
        cursor.index += 1
        while let byte = cursor.peek(),
            XMLPropertyListReader.isNameStart(byte) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        {
            cursor.index += 1
        }
        return start..<cursor.index
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private func matches(_ name: Range<Int>, _ literal: String) -> Bool {
        cursor.bytes[name].elementsEqual(literal.utf8)
    }

    private func nameText(_ name: Range<Int>) -> String {
        let shown = name.lowerBound..<min(name.upperBound, name.lowerBound + 40)
        return String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[shown]), as: UTF8.self)
    }

    // MARK: - Comments and processing instructions

    /// Skips whitespace, comments and processing instructions between elements.
    private mutating func skipMiscellany() throws(CoreError) {
        while true {
            cursor.skipWhitespace()
            if cursor.hasPrefix("<!--") {
                try skipComment()
            } else if cursor.hasPrefix("<?") {
                try skipProcessingInstruction(inProlog: false)
            } else {
                return
            }
        }
    }

    private mutating func skipComment() throws(CoreError) {
        guard let end = cursor.firstOffset(of: "-->", from: cursor.index + 4) else {
            throw syntaxError("the comment is not closed")
        }
        cursor.index = end + 3
    }

    /// Skips `<?target …?>`; in the prolog, an XML declaration must declare UTF-8 if it names
    /// an encoding.
    private mutating func skipProcessingInstruction(inProlog: Bool) throws(CoreError) {
        let start = cursor.index
        cursor.index += 2
        let target = try readName()
        guard let end = cursor.firstOffset(of: "?>", from: cursor.index) else {
            throw syntaxError("the processing instruction is not closed", at: start)
        }
        let isDeclaration = target.count == 3 && cursor.bytes[target].map { $0 | 0x20 }.elementsEqual("xml".utf8)
        if isDeclaration {
            guard inProlog else { throw syntaxError("the XML declaration may only start the document", at: start) }
            if let encoding = declaredEncoding(in: cursor.index..<end) {
                let lowered = String(decoding: encoding.map { $0 | 0x20 }, as: UTF8.self)
                guard ["utf-8", "utf8", "us-ascii", "ascii"].contains(lowered) else {
                    let declared = FeedKeyPath.quoted(String(decoding: encoding, as: UTF8.self))
                    throw cursor.error(
                        .unknownFormat, "the XML declares the encoding \(declared); only UTF-8 plists are read",
                        at: start)
                }
            }
        }
        cursor.index = end + 2
    }

    /// The value of `encoding="…"` in an XML declaration's text, if present.
    private func declaredEncoding(in range: Range<Int>) -> [UInt8]? {
        let text = Array(cursor.bytes[range])
        let key = Array("encoding".utf8)
        guard let found = (0...max(0, text.count - key.count)).first(where: { text[$0...].starts(with: key) }) else {
            return nil
        }
        var index = found + key.count
        while index < text.count, ByteCursor.isWhitespace(text[index]) || text[index] == UInt8(ascii: "=") {
            index += 1
        }
        guard index < text.count, text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'") else {
            return nil
        }
        let quote = text[index]
        let valueStart = index + 1
        let valueEnd = text[valueStart...].firstIndex(of: quote) ?? text.count
        return Array(text[valueStart..<valueEnd])
    }

    // MARK: - Scalar syntax

    private static func trimmingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, ByteCursor.isWhitespace(bytes[start]) { start += 1 }
        while end > start, ByteCursor.isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// `[+-]?` then decimal digits or `0x` and hexadecimal digits, fitting in `Int64`.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var index = 0
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var radix: UInt64 = 10
        if text.count - index > 2, text[index] == UInt8(ascii: "0"), text[index + 1] | 0x20 == UInt8(ascii: "x") {
            radix = 16
            index += 2
        }
        guard index < text.count else { return nil }
        var magnitude: UInt64 = 0
        while index < text.count {
            guard let digit = JSONReader.hexValue(text[index]), UInt64(digit) < radix else { return nil }
            let (shifted, overflow1) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { return nil }
            magnitude = sum
            index += 1
        }
        if negative {
            return magnitude <= UInt64(Int64.max) + 1 ? Int64(bitPattern: 0 &- magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    /// A finite decimal number: `[+-]?(digits[.digits]|.digits)([eE][+-]?digits)?`. Words such
    /// as `nan` and `inf`, and hexadecimal floats, are refused.
    static func real(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        func skipDigits() -> Int {
            let start = index
            while index < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[index]) { index += 1 }
            return index - start
        }
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
        var mantissaDigits = skipDigits()
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            mantissaDigits += skipDigits()
        }
        guard mantissaDigits > 0 else { return nil }
        if index < text.count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
            guard skipDigits() > 0 else { return nil }
        }
        guard index == text.count, let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            return nil
        }
        return value
    }

    /// Exactly `YYYY-MM-DDTHH:MM:SSZ`, naming a real date and time (no rolling over).
    static func date(_ text: UnsafeBufferPointer<UInt8>) -> Instant? {
        let template = Array("0000-00-00T00:00:00Z".utf8)
        guard text.count == template.count else { return nil }
        for (byte, expected) in zip(text, template) {
            let matches =
                expected == UInt8(ascii: "0")
                ? (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) : byte == expected
            guard matches else { return nil }
        }
        func field(_ start: Int, _ length: Int) -> Int {
            text[start..<start + length].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        }
        let civil = CivilDateTime(
            year: field(0, 4), month: field(5, 2), day: field(8, 2), hour: field(11, 2), minute: field(14, 2),
            second: field(17, 2))
        return civil.isValid ? civil.instant(atOffset: 0) : nil
    }

    // MARK: - Errors

    private mutating func syntaxError(_ message: String, at offset: Int? = nil) -> CoreError {
        cursor.error(.syntax, message, at: offset)
    }

    private func describeHere() -> String {
        cursor.isAtEnd ? "the end of the document" : cursor.excerpt(cursor.index..<cursor.index + 20)
    }

    private mutating func unexpectedText(inside tag: StartTag) -> CoreError {
        if cursor.isAtEnd {
            return syntaxError("the document ends inside <\(nameText(tag.name))>", at: tag.start)
        }
        return syntaxError("unexpected text \(describeHere()) inside <\(nameText(tag.name))>")
    }

    private mutating func controlCharacterError(_ byte: UInt8, at offset: Int) -> CoreError {
        syntaxError(
            "the control character U+\(ByteCursor.hex(UInt32(byte), width: 4)) is not allowed in XML", at: offset)
    }
}
