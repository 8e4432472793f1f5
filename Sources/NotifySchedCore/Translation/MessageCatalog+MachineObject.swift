extension MessageCatalog {
    /// The largest catalog file read: notify-sched's own are a few kilobytes.
    public static let maxBytes = 1 << 20

    /// Reads a compiled gettext catalog (a `.mo` file, as `msgfmt` writes it).
    ///
    /// Either byte order; the hash table is not used. A message with plural forms is kept under
    /// its singular msgid with its first form, as `gettext()` without a count returns it, and an
    /// entry with an empty translation is left out. Every offset is checked before it is read, so
    /// a truncated or corrupt file is an error, never a crash.
    ///
    /// - Parameter bytes: The whole file.
    /// - Throws: `CoreError` with code `.invalidCatalog` when the file is larger than `maxBytes`,
    ///   is not a `.mo` file, is truncated or corrupt, declares a charset other than UTF-8, or
    ///   holds a string that is not UTF-8.
    /// - Complexity: O(n) in the size of the file.
    public init(machineObject bytes: [UInt8]) throws(CoreError) {
        guard bytes.count <= Self.maxBytes else {
            throw Self.invalid("\(bytes.count) bytes is larger than the catalog size cap of \(Self.maxBytes) bytes")
        }
        let reader = MachineObjectReader(bytes: bytes)
        let magic = try reader.word(at: 0, bigEndian: false)
        let bigEndian: Bool
        switch magic {
        case 0x9504_12de: bigEndian = false
        case 0xde12_0495: bigEndian = true
        default: throw Self.invalid("not a compiled gettext catalog (no .mo magic number)")
        }
        let revision = try reader.word(at: 4, bigEndian: bigEndian)
        guard revision >> 16 <= 1 else {
            throw Self.invalid("file format revision \(revision >> 16) is not one this reader knows (0 or 1)")
        }
        let count = try reader.word(at: 8, bigEndian: bigEndian)
        let originals = try reader.word(at: 12, bigEndian: bigEndian)
        let translations = try reader.word(at: 16, bigEndian: bigEndian)
        // Both tables must fit before any of their 8-byte entries is read.
        for table in [originals, translations] where table + count * 8 > bytes.count {
            throw Self.invalid("the string table at byte \(table) with \(count) entries runs past the end of the file")
        }
        var catalog: [String: String] = [:]
        for index in 0..<count {
            let original = try reader.string(describedAt: originals + index * 8, bigEndian: bigEndian)
            let translation = try reader.string(describedAt: translations + index * 8, bigEndian: bigEndian)
            // Plural forms follow the first one after a NUL.
            let key = original.prefix { $0 != "\0" }
            let text = translation.prefix { $0 != "\0" }
            if key.isEmpty {
                try Self.checkCharset(ofHeader: translation)
            } else if !text.isEmpty, catalog[String(key)] == nil {
                catalog[String(key)] = String(text)
            }
        }
        self.init(translations: catalog)
    }

    /// Refuses a catalog whose header (the translation of the empty msgid) names a charset other than UTF-8.
    static func checkCharset(ofHeader header: String, line: Int? = nil) throws(CoreError) {
        for field in header.lowercased().split(separator: "\n") where field.hasPrefix("content-type:") {
            guard let range = field.firstRange(of: "charset=") else { continue }
            let charset = field[range.upperBound...].prefix { !$0.isWhitespace && $0 != ";" }
            guard charset == "utf-8" || charset == "utf8" else {
                throw Self.invalid("the catalog's charset is \(charset), not UTF-8", line: line)
            }
        }
    }

    static func invalid(_ message: String, line: Int? = nil) -> CoreError {
        CoreError(.invalidCatalog, message, at: FeedLocation(line: line))
    }
}

/// Bounds-checked reads of a `.mo` file's words and strings.
private struct MachineObjectReader {
    let bytes: [UInt8]

    /// The 32-bit word at `offset`.
    func word(at offset: Int, bigEndian: Bool) throws(CoreError) -> Int {
        guard offset >= 0, offset + 4 <= bytes.count else {
            throw MessageCatalog.invalid("truncated: the file ends before byte \(offset + 4)")
        }
        let value = (0..<4).reduce(0) { word, index in
            word | Int(bytes[offset + index]) << (bigEndian ? 24 - 8 * index : 8 * index)
        }
        return value
    }

    /// The string a table entry at `offset` describes (its length, then its offset), which must
    /// end in a NUL inside the file.
    func string(describedAt offset: Int, bigEndian: Bool) throws(CoreError) -> String {
        let length = try word(at: offset, bigEndian: bigEndian)
        let start = try word(at: offset + 4, bigEndian: bigEndian)
        guard start + length < bytes.count, bytes[start + length] == 0 else {
            throw MessageCatalog.invalid(
                "the string of \(length) bytes at byte \(start) runs past the end of the file or lacks its NUL")
        }
        guard let text = String(validating: bytes[start..<start + length], as: UTF8.self) else {
            throw MessageCatalog.invalid("the string at byte \(start) is not UTF-8")
        }
        return text
    }
}
