/// Collects a dictionary's entries in document order and finds repeated keys.
///
/// Keys compare as `String`s do (canonical equivalence), the same way
/// `FeedDictionary.subscript` looks them up, so no lookup can ever be ambiguous.
struct FeedDictionaryBuilder {
    /// Up to this many entries a linear scan beats hashing.
    private static let linearLimit = 16

    // Keys and nodes apart, not as the dictionary's (key, node) pairs: copying and destroying
    // pairs goes through the runtime's generic tuple functions, a fifth of reading an object.
    private var keys: [String] = []
    private var nodes: [FeedNode] = []
    private var positions: [String: Int] = [:]

    var isEmpty: Bool { keys.isEmpty }

    /// The node already stored under `key`, if any.
    ///
    /// - Complexity: O(1) amortized; O(n) for n ≤ 16.
    func existing(_ key: String) -> FeedNode? {
        if keys.count <= FeedDictionaryBuilder.linearLimit {
            return keys.firstIndex(of: key).map { nodes[$0] }
        }
        return positions[key].map { nodes[$0] }
    }

    /// Appends an entry whose key `existing(_:)` has not found.
    ///
    /// - Complexity: O(1) amortized.
    mutating func append(_ key: String, _ node: FeedNode) {
        keys.append(key)
        nodes.append(node)
        if keys.count == FeedDictionaryBuilder.linearLimit + 1 {
            for (position, key) in keys.enumerated() {
                positions[key] = position
            }
        } else if keys.count > FeedDictionaryBuilder.linearLimit {
            positions[key] = keys.count - 1
        }
    }

    /// The dictionary, holding no more room than its entries take.
    var dictionary: FeedDictionary {
        FeedDictionary(keys.indices.map { (key: keys[$0], node: nodes[$0]) })
    }

    /// Empties the builder for the next dictionary, keeping its room: a reader that reuses one
    /// builder per depth allocates once per dictionary, not once per key.
    mutating func reset() {
        keys.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
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
