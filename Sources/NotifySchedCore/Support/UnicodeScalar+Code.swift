extension Unicode.Scalar {
    /// The scalar's code point in upper-case hex, at least four digits (`202E`), as `\u…`
    /// escapes and `U+…` names write it.
    var code: String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
