import ArgumentParser
import NotifySchedCore

/// The schedule+cancel workload every structure runs: `entries` pending entries due within 30
/// days, then `pairs` times one of two pairs, so the pending count stays at `entries`:
/// - `.timeout`: schedule an entry due at a random time within 30 days and cancel it: a timeout
///   that is called off before it fires, the pair timer structures are built for;
/// - `.randomVictim`: cancel the pending entry at a random position and schedule a new one in
///   its place: a feed change touching entries anywhere, which makes every structure fetch a
///   random entry from memory.
///
/// Everything random is drawn beforehand, so the measured loops do the same work and none of
/// them pays for the generator.
struct WheelWorkload {
    /// Which entry a pair cancels.
    enum Pair: String, CaseIterable, ExpressibleByArgument {
        case timeout
        case randomVictim = "random-victim"
    }

    /// The time the structures start at.
    let now = Instant(secondsSinceEpoch: 1_767_225_600)

    /// The due times of the entries pending before the pairs, in microseconds.
    let initialDues: [Int64]

    /// For each pair, the position (in `0..<entries`) of the pending entry to cancel.
    let victims: [UInt32]

    /// For each pair, the due time of the entry scheduled in the victim's place.
    let dues: [Int64]

    init(entries: Int, pairs: Int, seed: UInt64 = 0x0057_EE17) {
        var random = SplitMix64(seed: seed)
        let start = now.microseconds
        let span: UInt64 = 30 * 86_400 * 1_000_000
        initialDues = (0..<entries).map { _ in start + Int64(random.next() % span) }
        victims = (0..<pairs).map { _ in UInt32(random.next() % UInt64(entries)) }
        dues = (0..<pairs).map { _ in start + Int64(random.next() % span) }
    }
}
