/// The 64-bit FNV-1a hash: stable across runs and machines (unlike `Hasher`), for identities
/// that are stored or shown. Not cryptographic.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
    }

    mutating func add(_ number: UInt64) {
        withUnsafeBytes(of: number.littleEndian) { add($0) }
    }

    mutating func add(_ text: String) {
        add(UInt64(text.utf8.count))
        add(text.utf8)
    }

    /// The hash as 16 lower-case hex digits.
    var hexDigest: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
