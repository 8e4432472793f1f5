import Foundation
import NotifySchedCore
import NotifySchedTesting

/// The repository's `po/` folder and `.mo` files made by hand, for the catalog tests.
enum TranslationFixtures {
    static let repository = Repository.root

    static let languages = ["fr", "de", "it", "es", "ja"]

    /// The bytes of `po/<language>.po`.
    static func portableObject(_ language: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: repository.appendingPathComponent("po/\(language).po")))
    }

    /// Runs `scripts/<name> arguments…` from the repository.
    static func script(_ name: String, _ arguments: [String]) throws -> ExternalCommand.Output {
        try ExternalCommand.run(repository.appendingPathComponent("scripts/\(name)").path, arguments)
    }

    /// A `.mo` file holding `entries` (original, translation) in the order given: the header,
    /// both string tables, no hash table, then the strings, each followed by a NUL.
    static func machineObject(_ entries: [(String, String)], bigEndian: Bool = false, revision: UInt32 = 0) -> [UInt8] {
        var header: [UInt32] = [0x9504_12de, revision, UInt32(entries.count), 28, 28 + 8 * UInt32(entries.count), 0, 0]
        var strings: [UInt8] = []
        var tables: [[UInt32]] = [[], []]
        let stringsStart = 28 + 16 * entries.count
        for (original, translation) in entries {
            for (table, text) in [original, translation].enumerated() {
                tables[table] += [UInt32(text.utf8.count), UInt32(stringsStart + strings.count)]
                strings += Array(text.utf8) + [0]
            }
        }
        header += tables[0] + tables[1]
        var bytes: [UInt8] = []
        for word in header {
            let value = bigEndian ? word.bigEndian : word.littleEndian
            withUnsafeBytes(of: value) { bytes += $0 }
        }
        return bytes + strings
    }

    /// Writes a little-endian 32-bit `value` at `offset`.
    static func patch(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) {
            for (index, byte) in $0.enumerated() { bytes[offset + index] = byte }
        }
    }
}
