extension FeedValue {
    /// A stable 64-bit FNV-1a hash of the value, as 16 hex digits.
    ///
    /// Dictionary keys are lower-cased and sorted first, so the hash does not depend on key
    /// order or case (iSmartNews reads keys case-insensitively); every other byte counts,
    /// so editing any field gives a new hash.
    public var contentHash: String {
        var hasher = FNV1a()
        hasher.combine(self)
        return hasher.hexDigest
    }
}

extension FNV1a {
    mutating func combine(_ value: FeedValue) {
        switch value {
        case .string(let text):
            add([1]); add(text)
        case .integer(let number):
            add([2]); add(UInt64(bitPattern: number))
        case .real(let number):
            add([3]); add(number.bitPattern)
        case .bool(let flag):
            add([4, flag ? 1 : 0])
        case .date(let instant):
            add([5]); add(UInt64(bitPattern: instant.microseconds))
        case .data(let bytes):
            add([6]); add(UInt64(bytes.count)); add(bytes)
        case .array(let nodes):
            add([7]); add(UInt64(nodes.count))
            for node in nodes { combine(node.value) }
        case .dictionary(let dictionary):
            add([8]); add(UInt64(dictionary.count))
            for (key, node) in dictionary.entries.map({ ($0.key.lowercased(), $0.node) }).sorted(by: { $0.0 < $1.0 }) {
                add(key)
                combine(node.value)
            }
        case .null:
            add([9])
        }
    }
}
