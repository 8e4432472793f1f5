/// Collects a dictionary's entries in document order and finds repeated keys.
///
/// Keys compare as `String`s do (canonical equivalence), the same way
/// `FeedDictionary.subscript` looks them up, so no lookup can ever be ambiguous.
struct FeedDictionaryBuilder {
    /// Up to this many entries a linear scan beats hashing.
    private static let linearLimit = 16

    private(set) var entries: [(key: String, node: FeedNode)] = []
    private var positions: [String: Int] = [:]

    /// The node already stored under `key`, if any.
    ///
    /// - Complexity: O(1) amortized; O(n) for n ≤ 16.
    func existing(_ key: String) -> FeedNode? {
        if entries.count <= FeedDictionaryBuilder.linearLimit {
            return entries.first { $0.key == key }?.node
        }
        return positions[key].map { entries[$0].node }
    }

    /// Appends an entry whose key `existing(_:)` has not found.
    ///
    /// - Complexity: O(1) amortized.
    mutating func append(_ key: String, _ node: FeedNode) {
        entries.append((key, node))
        if entries.count == FeedDictionaryBuilder.linearLimit + 1 {
            for (position, entry) in entries.enumerated() {
                positions[entry.key] = position
            }
        } else if entries.count > FeedDictionaryBuilder.linearLimit {
            positions[key] = entries.count - 1
        }
    }

    /// The dictionary, holding no more room than its entries take.
    var dictionary: FeedDictionary {
        var exact: [(key: String, node: FeedNode)] = []
        exact.reserveCapacity(entries.count)
        exact += entries
        return FeedDictionary(exact)
    }

    /// Empties the builder for the next dictionary, keeping its room: a reader that reuses one
    /// builder per depth allocates once per dictionary, not once per key.
    mutating func reset() {
        entries.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
    }

    /// The `.duplicateKey` error for `key`, whose first value is `first`.
    static func duplicateKeyError(_ key: String, first: FeedNode, line: Int?) -> CoreError {
        let earlier = first.line.map { " (first defined at line \($0))" } ?? ""
        return CoreError(
            .duplicateKey, "the key \(FeedKeyPath.quoted(key)) appears twice in one dictionary\(earlier)",
            at: FeedLocation(keyPath: FeedKeyPath.component(key: key), line: line))
    }
}
