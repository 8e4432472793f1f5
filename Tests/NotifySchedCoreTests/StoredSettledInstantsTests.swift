import NotifySchedCore
import Testing

@Suite struct StoredSettledInstantsTests {
    /// Ids of every kind an entry may have: short and long (kept out of line by `String`),
    /// empty, beyond ASCII, and two spellings of one id that compare equal as strings.
    private static let ids =
        (0..<24).map { "e\($0)" } + (0..<6).map { "a-long-identifier-of-entry-number-\($0)" } + [
            "", "née", "日本 🎉", "caf\u{E9}", "tab\there",
        ]
    /// The other spelling of "café": a combining acute accent after the "e".
    private static let otherSpelling = ["caf\u{E9}": "cafe\u{301}"]

    private static func entry(_ id: String) -> ScheduleEntry {
        ScheduleEntry(
            id: id, dialect: .native, content: NotificationContent(title: id, body: ""), trigger: .immediate)
    }

    /// Whatever moved in the feed since the entries were followed (kept, moved, withdrawn,
    /// spelled otherwise, followed more than once, at a position beyond the schedule, or with
    /// no position at all), each entry is settled through what the entries followed and the
    /// ledger's records say of its id: the earliest instant it was followed from, or the
    /// latest occurrence recorded, whichever is later. The oracle looks every id up by string.
    @Test func eachEntryIsSettledAsItsIdsFollowingAndRecordsSayWhereverItIsNow() {
        let seed: UInt64 = 0x5E7_71ED
        var random = SplitMix64(seed: seed)
        for round in 0..<300 {
            let place = "seed \(seed) round \(round)"
            // The schedule the entries were followed in, and the one loaded now.
            let before = Self.ids.shuffled(using: &random).filter { _ in Int.random(in: 0..<4, using: &random) > 0 }
            let now = Self.ids.shuffled(using: &random).prefix(Int.random(in: 0...Self.ids.count, using: &random))
                .map { Bool.random(using: &random) ? Self.otherSpelling[$0] ?? $0 : $0 }
            let moved = round % 3 == 0
            var stored = StoredSettledInstants()
            var followedSince: [String: Instant] = [:]
            var recorded: [String: Instant] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let since = Instant(secondsSinceEpoch: Int64.random(in: 0...1_000, using: &random))
                let batch = before.indices.filter { _ in Bool.random(using: &random) }.map { position in
                    let kept = moved ? [nil, position, position + 1, 10_000].randomElement(using: &random)! : position
                    return FollowedEntry(id: before[position], position: kept)
                }
                stored.addFollowed(batch, since: since)
                for entry in batch { followedSince[entry.id] = min(followedSince[entry.id] ?? since, since) }
            }
            for id in Self.ids where Int.random(in: 0..<4, using: &random) == 0 {
                let occurrence = Instant(secondsSinceEpoch: Int64.random(in: 0...1_000, using: &random))
                stored.addRecorded(id: id, occurrence: occurrence)
                recorded[id] = max(recorded[id] ?? occurrence, occurrence)
            }
            let expected = now.map { id -> Instant? in
                let candidates = [followedSince[id], recorded[id]].compactMap { $0 }
                return candidates.max()
            }
            #expect(stored.settledThrough(now.map(Self.entry)) == expected, "\(place)")
            #expect(
                stored.instantsByID == followedSince.merging(recorded) { max($0, $1) },
                "\(place): every id, wherever it is")
        }
    }

    /// The stored form of entries followed together gives them back, and one cut short or
    /// overwritten gives those before the damage and nothing else: no crash, no entry made up
    /// from a length that runs past the end.
    @Test func aDamagedBatchGivesTheEntriesBeforeTheDamage() {
        let entries = (0..<50).map { FollowedEntry(id: Self.ids[$0 % Self.ids.count] + "\($0)", position: $0) }
        let encoded = FollowedEntry.encoded(entries)
        let since = Instant(secondsSinceEpoch: 100)
        let schedule = entries.map { Self.entry($0.id) }
        var whole = StoredSettledInstants()
        whole.addFollowed(encoded: encoded, since: since)
        #expect(whole.settledThrough(schedule) == Array(repeating: since, count: schedule.count))

        let seed: UInt64 = 0xDA_3A6E
        var random = SplitMix64(seed: seed)
        for round in 0..<500 {
            var damaged = Array(encoded.prefix(Int.random(in: 0...encoded.count, using: &random)))
            if !damaged.isEmpty, Bool.random(using: &random) {
                damaged[Int.random(in: damaged.indices, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            var stored = StoredSettledInstants()
            stored.addFollowed(encoded: damaged, since: since)
            let settled = stored.settledThrough(schedule)
            // Entries up to the first one the damage touched are whole.
            var end = 0
            var intact = 0
            for entry in entries {
                end += 8 + entry.id.utf8.count
                guard end <= damaged.count, damaged[..<end] == encoded[..<end] else { break }
                intact += 1
            }
            #expect(settled.prefix(intact).allSatisfy { $0 == since }, "seed \(seed) round \(round)")
            #expect(
                stored.instantsByID.count <= damaged.count / 8, "seed \(seed) round \(round): no entry of no bytes")
        }
    }
}
