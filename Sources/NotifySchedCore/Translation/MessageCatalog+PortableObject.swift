extension MessageCatalog {
    /// Reads a gettext source catalog (a `.po` file), keeping what `msgfmt` would compile.
    ///
    /// Entries marked `fuzzy`, untranslated entries and obsolete ones (`#~`) are left out, as
    /// `msgfmt` leaves them out; a message with plural forms is kept under its singular msgid
    /// with its first form. Strings take the escapes `\n \t \r \" \\`.
    ///
    /// - Parameter bytes: The whole file.
    /// - Throws: `CoreError` with code `.invalidCatalog`, naming the line, when the file is larger
    ///   than `maxBytes`, is not UTF-8, declares another charset, or is not valid `.po` syntax.
    /// - Complexity: O(n) in the size of the file.
    public init(portableObject bytes: [UInt8]) throws(CoreError) {
        guard bytes.count <= Self.maxBytes else {
            throw Self.invalid("\(bytes.count) bytes is larger than the catalog size cap of \(Self.maxBytes) bytes")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw Self.invalid("the file is not UTF-8") }
        var parser = PortableObjectParser()
        for (index, line) in text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
        ).enumerated() {
            try parser.read(line, number: index + 1)
        }
        try parser.finishEntry()
        self.init(translations: parser.translations)
    }
}

/// The state of reading a `.po` file line by line.
private struct PortableObjectParser {
    /// The keywords of an entry, in the order they may appear.
    enum Field: Equatable {
        case context, message, plural
        case translation(Int)
    }

    var translations: [String: String] = [:]
    private var fields: [(field: Field, text: String)] = []
    private var isFuzzy = false
    private var line = 0
    private var entryLine = 0

    mutating func read(_ text: Substring, number: Int) throws(CoreError) {
        line = number
        let trimmed = text.trimmingBlanks
        if trimmed.isEmpty || trimmed.hasPrefix("#~") { return }
        if trimmed.hasPrefix("#") {
            // A comment after an entry's strings belongs to the next entry.
            if fields.last.map({ if case .translation = $0.field { true } else { false } }) ?? false {
                try finishEntry()
            }
            if trimmed.hasPrefix("#,"),
                trimmed.dropFirst(2).split(separator: ",").contains(where: { $0.trimmingBlanks == "fuzzy" })
            {
                isFuzzy = true
            }
            return
        }
        if trimmed.hasPrefix("\"") {
            guard !fields.isEmpty else {
                throw MessageCatalog.invalid("a string that continues no keyword", line: line)
            }
            fields[fields.count - 1].text += try Self.unquoted(trimmed, line: line)
            return
        }
        let keyword = trimmed.prefix { $0 != " " && $0 != "\t" && $0 != "\"" }
        let field = try Self.field(named: keyword, line: line)
        let isNewEntry: Bool =
            switch field {
            case .context: true
            case .message: fields.last?.field != .context
            default: false
            }
        if isNewEntry {
            try finishEntry()
            entryLine = line
        }
        try checkOrder(of: field)
        fields.append((field, try Self.unquoted(trimmed.dropFirst(keyword.count).trimmingBlanks, line: line)))
    }

    /// Adds the entry read so far, unless it is fuzzy or untranslated.
    mutating func finishEntry() throws(CoreError) {
        guard !fields.isEmpty else { return }
        defer {
            fields = []
            isFuzzy = false
        }
        guard let message = fields.first(where: { $0.field == .message })?.text,
            let translation = fields.first(where: { $0.field == .translation(0) })?.text
        else {
            throw MessageCatalog.invalid("the entry has no msgid and msgstr (or msgstr[0])", line: entryLine)
        }
        if message.isEmpty {
            try MessageCatalog.checkCharset(ofHeader: translation, line: entryLine)
            return
        }
        guard !isFuzzy, !translation.isEmpty else { return }
        let context = fields.first { $0.field == .context }?.text
        let key = MessageCatalog.key(message, context: context)
        if translations[key] == nil { translations[key] = translation }
    }

    /// Refuses a keyword out of place: msgctxt, msgid, msgid_plural, then msgstr or msgstr[0], msgstr[1]…
    private func checkOrder(of field: Field) throws(CoreError) {
        let previous = fields.last?.field
        let allowed: Bool =
            switch field {
            case .context, .message: true
            case .plural: previous == .message
            case .translation(let index):
                index == 0 ? previous == .message || previous == .plural : previous == .translation(index - 1)
            }
        guard allowed else { throw MessageCatalog.invalid("a keyword out of place", line: line) }
    }

    private static func field(named keyword: Substring, line: Int) throws(CoreError) -> Field {
        switch keyword {
        case "msgctxt": return .context
        case "msgid": return .message
        case "msgid_plural": return .plural
        case "msgstr": return .translation(0)
        default:
            guard keyword.hasPrefix("msgstr["), keyword.hasSuffix("]"),
                let index = Int(keyword.dropFirst(7).dropLast()), (0..<100).contains(index)
            else { throw MessageCatalog.invalid("unknown keyword \"\(keyword)\"", line: line) }
            return .translation(index)
        }
    }

    /// The text of one quoted string, which must be all that is left on the line.
    private static func unquoted(_ body: Substring, line: Int) throws(CoreError) -> String {
        guard body.count >= 2, body.first == "\"", body.last == "\"" else {
            throw MessageCatalog.invalid("a string must be one quoted string on its line", line: line)
        }
        var text = ""
        var isEscaped = false
        for character in body.dropFirst().dropLast() {
            if isEscaped {
                switch character {
                case "n": text.append("\n")
                case "t": text.append("\t")
                case "r": text.append("\r")
                case "\"", "\\": text.append(character)
                default: throw MessageCatalog.invalid("unsupported escape \\\(character)", line: line)
                }
                isEscaped = false
            } else if character == "\\" {
                isEscaped = true
            } else if character == "\"" {
                throw MessageCatalog.invalid("an unescaped quote inside a string", line: line)
            } else {
                text.append(character)
            }
        }
        guard !isEscaped else { throw MessageCatalog.invalid("a string ends with a lone backslash", line: line) }
        return text
    }
}

extension Substring {
    /// Without the spaces, tabs and carriage returns at either end.
    fileprivate var trimmingBlanks: Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        let start = firstIndex { !isBlank($0) } ?? endIndex
        let end = lastIndex { !isBlank($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
