/// Checks that bytes are well-formed UTF-8 (Unicode 15, table 3-7).
///
/// Text feeds are validated once, before parsing, so the readers can turn byte ranges into
/// `String`s without repairing anything and report the line of the first bad byte.
enum UTF8Validator {
    /// The offset of the first byte of the first ill-formed sequence, or nil when all of
    /// `bytes` is well-formed UTF-8. Overlong forms, surrogates and values above U+10FFFF
    /// are ill-formed.
    ///
    /// - Complexity: O(n), eight ASCII bytes per step.
    static func firstInvalidOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index < count {
            if count - index >= 8,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var secondRange: ClosedRange<UInt8> = 0x80...0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default: return index
            }
            guard count - index >= length, secondRange.contains(base[index + 1]) else { return index }
            for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 {
                return index
            }
            index += length
        }
        return nil
    }

    /// Throws `.invalidUTF8`, with the line, when `bytes` are not well-formed UTF-8.
    static func validate(_ cursor: inout ByteCursor) throws(CoreError) {
        guard let offset = firstInvalidOffset(in: cursor.bytes) else { return }
        throw cursor.error(
            .invalidUTF8,
            "the text is not valid UTF-8 "
                + "(byte 0x\(ByteCursor.hex(UInt32(cursor.bytes[offset]), width: 2)) at offset \(offset))",
            at: offset)
    }
}
