import NotifySchedCore
import Testing

/// Entries planned at one instant share the calendar elapses found for them (`ElapseMemo`);
/// what each is told must be what a search of its own finds.
@Suite struct ElapseMemoTests {
    static let seed: UInt64 = 0xE1A5

    /// Many triggers, some asking the same question (expression, zone, base), more questions
    /// than the memo keeps: each answer equals a fresh search's.
    @Test func aSharedMemoAnswersAsAFreshSearchDoes() throws {
        var random = SplitMix64(seed: Self.seed)
        let expressions = BoundedOccurrenceSearchTests.expressions.map(\.0)
        let bases = (0..<25).map { _ in
            Instant(secondsSinceEpoch: 1_790_000_000 + Int64.random(in: 0...40_000_000, using: &random))
        }
        var memo = ElapseMemo()
        for index in 0..<3000 {
            let text = expressions.randomElement(using: &random)!
            let zoneName = BoundedOccurrenceSearchTests.zones.randomElement(using: &random)!
            let rules = zone(zoneName)
            let expression = try CalendarExpression.parse(text, zones: systemZones, localZone: rules)
            // Half name their zone; the others are read in the user's.
            let ownZone = Bool.random(using: &random)
            let trigger = Trigger.calendar(expression, zone: ownZone ? rules : nil, notBefore: nil, bounds: .unbounded)
            let base = bases.randomElement(using: &random)!
            let shared = trigger.occurrences(onOrAfter: base, limit: 2, userZone: rules, memo: &memo)
            let fresh = trigger.occurrences(onOrAfter: base, limit: 2, userZone: rules)
            #expect(shared == fresh, "seed \(Self.seed) case \(index): \(text) in \(zoneName) from \(base)")
        }
    }
}
