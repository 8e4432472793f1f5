/// A value read from a feed document, before any dialect gives it meaning.
///
/// JSON, XML plists and binary plists all read into this one tree, so the dialect mappers
/// work the same whatever the format. Every node remembers its line where the format has one.
public enum FeedValue: Sendable, Equatable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    /// A plist `<date>`: always an absolute instant.
    case date(Instant)
    /// A plist `<data>`, already decoded from base64.
    case data([UInt8])
    case array([FeedNode])
    case dictionary(FeedDictionary)
    /// JSON `null`.
    case null

    /// The name of this value's type as error messages say it ("a string", "an array").
    public var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .bool: "a boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .dictionary: "a dictionary"
        case .null: "null"
        }
    }
}

/// A value and where it stands in its document.
public struct FeedNode: Sendable, Equatable {
    public var value: FeedValue
    /// The line, or 0 for none. 32 bits keep a node at 24 bytes: a big feed has millions.
    private var storedLine: UInt32

    /// The 1-based line where the value starts; nil for binary plists.
    public var line: Int? {
        get { storedLine == 0 ? nil : Int(storedLine) }
        set { storedLine = newValue.map { UInt32(clamping: $0) } ?? 0 }
    }

    public init(_ value: FeedValue, line: Int? = nil) {
        self.value = value
        self.storedLine = line.map { UInt32(clamping: $0) } ?? 0
    }
}

/// A dictionary that keeps its keys in document order.
///
/// Readers refuse duplicate keys, so each key appears at most once.
public struct FeedDictionary: Sendable, Equatable {
    /// The key/value pairs in document order.
    public var entries: [(key: String, node: FeedNode)]

    public init(_ entries: [(key: String, node: FeedNode)] = []) {
        self.entries = entries
    }

    /// The node stored under `key`, compared exactly.
    ///
    /// - Complexity: O(n); feed dictionaries are small.
    public subscript(key: String) -> FeedNode? {
        index(of: key).map { entries[$0].node }
    }

    /// The position of `key` among `entries`, compared exactly.
    ///
    /// - Complexity: O(n); feed dictionaries are small.
    public func index(of key: String) -> Int? {
        // Lengths first: most keys of the scan differ, and `==` on two different strings
        // takes its Unicode slow path. By position, so that no entry is copied (a copy retains
        // its node's value).
        let length = key.utf8.count
        for index in entries.indices where entries[index].key.utf8.count == length && entries[index].key == key {
            return index
        }
        return nil
    }

    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }

    public static func == (lhs: FeedDictionary, rhs: FeedDictionary) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.node == $1.node }
    }
}
