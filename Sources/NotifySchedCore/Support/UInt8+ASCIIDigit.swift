extension UInt8 {
    /// Whether the byte is "0" to "9". Numbers are read as bytes, not characters: a digit with
    /// a combining mark is one character, which sorts between "0" and "9".
    var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
}

extension Character {
    /// Whether the character is "0" to "9" alone (not another script's digit, nor one with a
    /// combining mark).
    var isASCIIDigit: Bool { asciiValue?.isASCIIDigit ?? false }
}

extension Unicode.Scalar {
    /// Whether the scalar is "0" to "9".
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
