/// Decodes strict base64 (RFC 4648 §4), as a plist `<data>` element holds it.
///
/// XML whitespace may appear anywhere; anything else outside the alphabet, missing or
/// misplaced padding, and nonzero padding bits make the text invalid instead of being
/// skipped (PropertyListSerialization turns such text into empty data without a word).
enum Base64Decoder {
    /// The sextet of each byte; 0xFF marks bytes outside the alphabet.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        return table
    }()

    /// The bytes `text` encodes, or nil when it is not strict base64.
    ///
    /// - Complexity: O(n).
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var quantum: UInt32 = 0
        var filled = 0
        var padding = 0
        for byte in text {
            if ByteCursor.isWhitespace(byte) { continue }
            if byte == UInt8(ascii: "=") {
                // Padding stands only for the third or fourth character of the last quantum.
                guard filled + padding >= 2 else { return nil }
                padding += 1
                guard filled + padding <= 4 else { return nil }
                continue
            }
            let sextet = sextets[Int(byte)]
            guard sextet != 0xFF, padding == 0 else { return nil }
            quantum = quantum << 6 | UInt32(sextet)
            filled += 1
            if filled == 4 {
                output.append(UInt8(truncatingIfNeeded: quantum >> 16))
                output.append(UInt8(truncatingIfNeeded: quantum >> 8))
                output.append(UInt8(truncatingIfNeeded: quantum))
                quantum = 0
                filled = 0
            }
        }
        switch (filled, padding) {
        case (0, 0):
            return output
        case (2, 2):
            guard quantum & 0xF == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: quantum >> 4))
            return output
        case (3, 1):
            guard quantum & 0x3 == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: quantum >> 10))
            output.append(UInt8(truncatingIfNeeded: quantum >> 2))
            return output
        default:
            return nil
        }
    }
}
