/// Strict base64 (RFC 4648 §4) for keys and signatures, which are short single-line texts.
public enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The padded base64 text of `bytes`.
    ///
    /// - Complexity: O(n).
    public static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let first = UInt32(bytes[index])
            let second = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let third = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let quantum = first << 16 | second << 8 | third
            output.append(alphabet[Int(quantum >> 18 & 63)])
            output.append(alphabet[Int(quantum >> 12 & 63)])
            output.append(index + 1 < bytes.count ? alphabet[Int(quantum >> 6 & 63)] : UInt8(ascii: "="))
            output.append(index + 2 < bytes.count ? alphabet[Int(quantum & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes that `text` encodes, or nil when it is not strict base64. Whitespace (such as
    /// the newline that ends a `.sig` file) is ignored.
    ///
    /// - Complexity: O(n).
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        Array(text).withUnsafeBufferPointer { Base64Decoder.decode($0) }
    }

    /// The bytes that `text` encodes, or nil when it is not strict base64.
    public static func decode(_ text: String) -> [UInt8]? { decode(Array(text.utf8)) }
}
