import Foundation
import NotifySchedCore
import Testing

@Suite struct TZifHostileInputTests {
    static let berlin: [UInt8] =
        (try? Array(Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin")))) ?? []

    @Test func everyTruncationThrowsInvalidZoneData() throws {
        try #require(Self.berlin.count > 100, "the system tz database has Europe/Berlin")
        for length in 0..<(Self.berlin.count - 1) {
            let error = #expect(throws: CoreError.self, "prefix of \(length) bytes") {
                try ZoneRules(identifier: "x", tzif: Array(Self.berlin[0..<length]))
            }
            #expect(error?.code == .invalidZoneData)
        }
    }

    @Test func hugeCountsThrowRatherThanAllocate() {
        var bytes = Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15)
        bytes += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1, 0, 0, 0, 1]
        #expect(throws: CoreError.self) { try ZoneRules(identifier: "x", tzif: bytes) }
    }

    @Test func bytesThatAreNotTZifThrow() {
        #expect(throws: CoreError.self) {
            try ZoneRules(identifier: "x", tzif: Array("not a zone file at all, no".utf8))
        }
        #expect(throws: CoreError.self) { try ZoneRules(identifier: "x", tzif: []) }
    }

    @Test func randomCorruptionNeverTraps() throws {
        try #require(!Self.berlin.isEmpty)
        var generator = SplitMix64(seed: 0x5EED)
        var accepted = 0
        for _ in 0..<3000 {
            var bytes = Self.berlin
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(bytes.count))
                bytes[position] = UInt8(truncatingIfNeeded: generator.next())
            }
            if let zone = try? ZoneRules(identifier: "x", tzif: bytes) {
                accepted += 1
                _ = zone.offset(at: Instant(secondsSinceEpoch: 1_800_000_000))
                _ = zone.resolve(CivilDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30))
            }
        }
        #expect(accepted < 3000, "some corruptions are detected")
    }
}
