/// A recurring entry the planner begins to follow (`PlannerEffect.follow`): its id, and its
/// position in its schedule, which lets a restart on the same feed find it without looking its
/// id up (`StoredSettledInstants`).
public struct FollowedEntry: Sendable, Equatable {
    public var id: String
    /// nil when it is not known: the entry was followed by a version that did not keep it.
    public var position: Int?

    public init(id: String, position: Int?) {
        self.id = id
        self.position = position
    }

    /// Stands for a position not known in the encoded form.
    static let unknownPosition = UInt32.max

    /// `entries` in the form the state database keeps them, one after the other: for each, its
    /// position as a little-endian UInt32 (`UInt32.max` when not known, or beyond), its id's
    /// length in bytes as a little-endian UInt32, and the id in UTF-8.
    ///
    /// One value for a whole batch: a row per entry made a first start at 10^6 entries write
    /// and index 10^6 rows, and a restart read them back one by one.
    public static func encoded(_ entries: [FollowedEntry]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(entries.reduce(0) { $0 + 8 + $1.id.utf8.count })
        for entry in entries {
            let position = entry.position.flatMap { UInt32(exactly: $0) } ?? unknownPosition
            append(position, to: &bytes)
            append(UInt32(entry.id.utf8.count), to: &bytes)
            bytes.append(contentsOf: entry.id.utf8)
        }
        return bytes
    }

    /// Calls `body` with each entry of `bytes` (`encoded(_:)`): its position, nil when not
    /// known, and the range of its id's bytes. A record cut short ends the walk: a damaged
    /// value gives the entries before the damage.
    static func forEachEncoded(in bytes: [UInt8], _ body: (_ position: Int?, _ id: Range<Int>) -> Void) {
        var offset = 0
        while offset + 8 <= bytes.count {
            let position = read(bytes, at: offset)
            let length = Int(read(bytes, at: offset + 4))
            let idStart = offset + 8
            guard length <= bytes.count - idStart else { return }
            body(position == unknownPosition ? nil : Int(position), idStart..<idStart + length)
            offset = idStart + length
        }
    }

    private static func append(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << ($1 * 8) }
    }
}
