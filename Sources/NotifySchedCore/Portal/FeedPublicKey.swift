/// A portal's Ed25519 public key (DESIGN §6): the raw 32 bytes, written as base64.
public struct FeedPublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The raw 32-byte key.
    public let bytes: [UInt8]

    /// Reads a key from its base64 text, as `--public-key` and the configuration give it.
    ///
    /// - Throws: `CoreError` `.invalidKey` when the text is not base64 of exactly 32 bytes.
    public init(base64 text: String) throws(CoreError) {
        let trimmed = text.trimmingWhitespace
        guard let bytes = Base64.decode(trimmed) else {
            throw CoreError(.invalidKey, "public key \"\(trimmed)\" is not base64")
        }
        guard bytes.count == 32 else {
            throw CoreError(
                .invalidKey,
                "public key \"\(trimmed)\" is \(bytes.count) bytes; an Ed25519 public key is the raw 32 bytes in base64"
            )
        }
        self.bytes = bytes
    }

    /// The key as base64, the form users copy.
    public var base64: String { Base64.encode(bytes) }

    public var description: String { base64 }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line breaks.
    var trimmingWhitespace: String {
        let bytes = Array(utf8)
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = bytes.lastIndex(where: { !isSpace($0) })!
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
