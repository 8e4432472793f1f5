/// Reads typed fields from one feed dictionary, reporting each problem with its key path.
///
/// Every key read is remembered; `reportUnknownKeys` warns about the rest, which are kept in
/// the document for forward compatibility but have no effect.
struct FieldReader {
    let dictionary: FeedDictionary
    /// Where `dictionary` stands in its feed.
    let place: FeedPlace
    let line: Int?
    let mapping: FeedMapping
    /// Read as iSmartNews reads: keys match case-insensitively, and a number or boolean of
    /// another type is passed over (iSmartNews tests `isKindOfClass:[NSNumber class]`), with a
    /// warning, rather than being an error.
    private let readsAsISmartNews: Bool
    /// Which of `dictionary.entries` were read, by index.
    private var readFlags: ReadFlags

    init(
        _ dictionary: FeedDictionary, at place: FeedPlace, line: Int?, mapping: FeedMapping,
        readsAsISmartNews: Bool = false
    ) {
        self.dictionary = dictionary
        self.place = place
        self.line = line
        self.mapping = mapping
        self.readsAsISmartNews = readsAsISmartNews
        self.readFlags = ReadFlags(count: dictionary.count)
    }

    /// The key path of the dictionary itself.
    var path: String { place.path }

    /// The location of the dictionary itself.
    var location: FeedLocation { FeedLocation(keyPath: path, line: line) }

    func location(of key: String, _ node: FeedNode? = nil) -> FeedLocation {
        FeedLocation(keyPath: KeyPath.child(path, key: key), line: node?.line ?? line)
    }

    /// The node under `key` (case-insensitively for iSmartNews), marking the key as read.
    mutating func node(_ key: String) -> (key: String, node: FeedNode)? {
        let index: Int?
        if readsAsISmartNews {
            let lowered = key.lowercased()
            index = dictionary.entries.firstIndex { $0.key.lowercased() == lowered }
        } else {
            index = dictionary.index(of: key)
        }
        guard let index else { return nil }
        readFlags.mark(index)
        let match = dictionary.entries[index]
        if case .null = match.node.value { return nil }
        return (match.key, match.node)
    }

    /// The first present of the localized variants of `key` (`text_fr_fr`, `text_fr`, `text`).
    mutating func localizedNode(_ key: String) -> (key: String, node: FeedNode)? {
        for candidate in mapping.language.localizedKeys(for: key) {
            if let found = node(candidate) { return found }
        }
        return nil
    }

    /// Marks keys as known without reading them (keys a dialect defines but notify-sched does not act on).
    mutating func accept(_ keys: some Sequence<String>) {
        let wanted = Set(keys.map { readsAsISmartNews ? $0.lowercased() : $0 })
        for (index, entry) in dictionary.entries.enumerated()
        where wanted.contains(readsAsISmartNews ? entry.key.lowercased() : entry.key) {
            readFlags.mark(index)
        }
    }

    /// Marks every key whose name starts with one of `prefixes` followed by `_` as known.
    mutating func acceptSuffixed(_ bases: some Sequence<String>) {
        let lowered = bases.map { $0.lowercased() + "_" }
        for (index, entry) in dictionary.entries.enumerated()
        where lowered.contains(where: { entry.key.lowercased().hasPrefix($0) }) {
            readFlags.mark(index)
        }
    }

    mutating func string(_ key: String, localized: Bool = false) -> String? {
        guard let (name, node) = localized ? localizedNode(key) : self.node(key) else { return nil }
        guard case .string(let text) = node.value else {
            wrongType(name, node, expected: "a string")
            return nil
        }
        return text
    }

    /// A string that is not empty after trimming spaces; an empty one is reported.
    mutating func nonEmptyString(_ key: String) -> String? {
        guard let text = string(key) else { return nil }
        if text.utf8.allSatisfy({ $0 == 0x20 || (0x09...0x0D).contains($0) }) {
            mapping.error(.invalidValue, "`\(key)` is empty", at: location(of: key))
            return nil
        }
        return text
    }

    /// An integer; with `acceptingStrings`, also a string of decimal digits (ZBiM's columns).
    mutating func integer(_ key: String, acceptingStrings: Bool = false, localized: Bool = false) -> Int64? {
        guard let (name, node) = localized ? localizedNode(key) : self.node(key) else { return nil }
        switch node.value {
        case .integer(let value):
            return value
        case .real(let value) where abs(value) < 9.0e15 && Double(Int64(value)) == value:
            return Int64(value)
        case .string(let text) where acceptingStrings:
            if let value = Int64(text.trimmingSpaces) { return value }
            mapping.error(
                .invalidValue, "`\(name)` is not a whole number: \(QuotedInput.quoted(text))",
                at: location(of: name, node))
            return nil
        default:
            scalarOfWrongType(name, node, expected: acceptingStrings ? "a whole number" : "an integer")
            return nil
        }
    }

    /// A non-negative integer that fits `Int`.
    mutating func count(_ key: String, acceptingStrings: Bool = false) -> Int? {
        guard let value = integer(key, acceptingStrings: acceptingStrings) else { return nil }
        guard value >= 0, value <= Int64(Int32.max) else {
            mapping.error(
                .invalidValue, "`\(key)` must be between 0 and \(Int32.max), not \(value)", at: location(of: key))
            return nil
        }
        return Int(value)
    }

    /// A boolean: `true`/`false`, or the numbers 0 and 1 as older plists write them; in an
    /// iSmartNews feed any number (non-zero is true), as `boolValue` reads an `NSNumber`.
    mutating func bool(_ key: String, localized: Bool = false) -> Bool? {
        guard let (name, node) = localized ? localizedNode(key) : self.node(key) else { return nil }
        switch node.value {
        case .bool(let value): return value
        case .integer(let value) where value == 0 || value == 1: return value == 1
        case .integer(let value) where readsAsISmartNews: return value != 0
        case .real(let value) where readsAsISmartNews: return value != 0
        default:
            scalarOfWrongType(name, node, expected: "a boolean")
            return nil
        }
    }

    /// A number or boolean of the wrong type: an error, or in an iSmartNews feed a warning,
    /// since iSmartNews passes it over as if it were absent.
    private func scalarOfWrongType(_ key: String, _ node: FeedNode, expected: String) {
        guard readsAsISmartNews else { return wrongType(key, node, expected: expected) }
        mapping.warning(
            .wrongType,
            "`\(key)` must be \(expected), not \(node.value.typeName); iSmartNews passes it over, and so does notify-sched",
            at: location(of: key, node))
    }

    /// A date-time: a plist `<date>` or an RFC 3339 string, absolute or floating.
    mutating func timestamp(_ key: String, localized: Bool = false) -> Timestamp? {
        guard let (name, node) = localized ? localizedNode(key) : self.node(key) else { return nil }
        switch node.value {
        case .date(let instant):
            return .absolute(instant)
        case .string(let text):
            if let timestamp = Timestamp.parse(text) { return timestamp }
            mapping.error(
                .invalidDate,
                "`\(name)` is not a date and time (RFC 3339, e.g. 2026-03-29T09:00:00Z): \(QuotedInput.quoted(text))",
                at: location(of: name, node))
            return nil
        default:
            wrongType(name, node, expected: "a date")
            return nil
        }
    }

    /// An absolute instant: a plist `<date>` or a string with `Z` or an offset.
    mutating func instant(_ key: String, localized: Bool = false) -> Instant? {
        switch timestamp(key, localized: localized) {
        case .absolute(let instant)?:
            return instant
        case .floating?:
            mapping.error(
                .invalidDate, "`\(key)` must be an absolute time: add `Z` or an offset such as +02:00",
                at: location(of: key))
            return nil
        case nil:
            return nil
        }
    }

    /// The seconds a span given as a number must stay below, some 285 000 years: beyond it, its
    /// microseconds added to an instant would not fit.
    static let spanSecondsLimit: Int64 = 9_000_000_000_000

    /// A span: a number of seconds, or a systemd-style string (`90min`, `1h 30min`, `2d`).
    mutating func span(_ key: String) -> TimeSpan? {
        guard let (name, node) = self.node(key) else { return nil }
        switch node.value {
        case .integer(let seconds) where seconds >= 0 && seconds < Self.spanSecondsLimit:
            return .seconds(seconds)
        case .real(let seconds) where seconds >= 0 && seconds < Double(Self.spanSecondsLimit):
            return TimeSpan(microseconds: Int64(seconds * 1_000_000))
        case .string(let text):
            if let span = TimeSpan.parse(text) { return span }
            mapping.error(
                .invalidValue,
                "`\(name)` is not a duration (e.g. 90, \"15min\", \"1h 30min\", \"2d\"): \(QuotedInput.quoted(text))",
                at: location(of: name, node))
            return nil
        case .integer(let seconds) where seconds < 0:
            mapping.error(.invalidValue, "`\(name)` must not be negative", at: location(of: name, node))
            return nil
        case .real(let seconds) where seconds < 0:
            mapping.error(.invalidValue, "`\(name)` must not be negative", at: location(of: name, node))
            return nil
        case .integer, .real:
            // Beyond what a time can hold, or NaN.
            mapping.error(
                .invalidValue, "`\(name)` must be a number of seconds below \(Self.spanSecondsLimit)",
                at: location(of: name, node))
            return nil
        default:
            wrongType(name, node, expected: "a duration")
            return nil
        }
    }

    mutating func dictionary(_ key: String) -> (dictionary: FeedDictionary, node: FeedNode)? {
        guard let (name, node) = self.node(key) else { return nil }
        guard case .dictionary(let dictionary) = node.value else {
            wrongType(name, node, expected: "a dictionary")
            return nil
        }
        return (dictionary, node)
    }

    mutating func array(_ key: String) -> [FeedNode]? {
        guard let (name, node) = self.node(key) else { return nil }
        guard case .array(let elements) = node.value else {
            wrongType(name, node, expected: "an array")
            return nil
        }
        return elements
    }

    /// A URL checked against the allowed schemes.
    mutating func actionURL(_ key: String, localized: Bool = false) -> ActionURL? {
        guard let text = string(key, localized: localized) else { return nil }
        do {
            return try ActionURL(text, policy: mapping.urlPolicy)
        } catch {
            mapping.error(.disallowedURL, "`\(key)`: \(error.message)", at: location(of: key))
            return nil
        }
    }

    /// Warns about each of `keys` present, with why it has no effect on the desktop: a key of
    /// a seed dialect is never accepted silently without effect.
    mutating func ignore(_ keys: [(key: String, why: String)]) {
        for (key, why) in keys {
            guard let (name, node) = self.node(key) else { continue }
            mapping.warning(.unsupportedKey, "`\(name)` is ignored: \(why)", at: location(of: name, node))
        }
    }

    /// Reports a required key that is absent.
    func missing(_ key: String, _ why: String = "") {
        mapping.error(.missingKey, "`\(key)` is required\(why)", at: location(of: key))
    }

    func wrongType(_ key: String, _ node: FeedNode, expected: String) {
        mapping.error(
            .wrongType, "`\(key)` must be \(expected), not \(node.value.typeName)", at: location(of: key, node))
    }

    /// Warns about every key that was neither read nor accepted.
    func reportUnknownKeys() {
        for (index, entry) in dictionary.entries.enumerated() where !readFlags.isMarked(index) {
            mapping.warning(
                .unknownKey, "unknown key `\(entry.key)` is ignored", at: location(of: entry.key, entry.node))
        }
    }
}

extension String {
    /// Without the whitespace at either end; the string itself when its first and last bytes
    /// are visible ASCII, as nearly every value is.
    var trimmingSpaces: String {
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return self
        }
        return String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

/// A set of small indices: a bit mask for the first 64 (feed dictionaries rarely have more),
/// an array beyond, so that reading an entry allocates nothing for bookkeeping.
private struct ReadFlags {
    private var low: UInt64 = 0
    private var high: [Bool]

    init(count: Int) {
        high = count > 64 ? Array(repeating: false, count: count - 64) : []
    }

    mutating func mark(_ index: Int) {
        if index < 64 { low |= 1 << UInt64(index) } else { high[index - 64] = true }
    }

    func isMarked(_ index: Int) -> Bool {
        index < 64 ? low & (1 << UInt64(index)) != 0 : high[index - 64]
    }
}
