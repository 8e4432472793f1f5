import ArgumentParser
import NotifySchedCore

/// The schedule+cancel workload every structure runs: `entries` pending entries due within 30
/// days, then `pairs` times one of two pairs, so the pending count stays at `entries`:
/// - `.timeout`: schedule an entry due at a random time within 30 days and cancel it: a timeout
///   that is called off before it fires, the pair timer structures are built for;
/// - `.replace`: cancel a pending entry and schedule a new one in its place, taking the
///   entries in turn like a feed reload does, in an order unrelated to where each one lives in
///   the structure's memory or when it falls due: every structure fetches a random entry of
///   its own from memory.
///
/// The benchmark keeps each pending entry's handle at the entry's position, as the daemon
/// keeps them by feed entry, and the pairs take the positions in order, so that reading a
/// handle costs every structure the same small price; what differs is what the structure
/// does with it. The positions are scheduled in a random order, so that no structure's
/// memory follows them.
///
/// Everything random is drawn beforehand, so the measured loops do the same work and none of
/// them pays for the generator.
struct WheelWorkload {
    /// Which entry a pair cancels.
    enum Pair: String, CaseIterable, ExpressibleByArgument {
        case timeout
        case replace
    }

    /// The time the structures start at.
    let now = Instant(secondsSinceEpoch: 1_767_225_600)

    /// The due times of the entries pending before the pairs, in microseconds, by position.
    let initialDues: [Int64]

    /// The positions in the order they are first scheduled: a random permutation.
    let schedulingOrder: [Int]

    /// For each pair, the due time of the entry scheduled (in `.replace`, in place of the
    /// entry at position `pair % entries`).
    let dues: [Int64]

    init(entries: Int, pairs: Int, seed: UInt64 = 0x0057_EE17) {
        var random = SplitMix64(seed: seed)
        let start = now.microseconds
        let span: UInt64 = 30 * 86_400 * 1_000_000
        initialDues = (0..<entries).map { _ in start + Int64(random.next() % span) }
        schedulingOrder = Array(0..<entries).shuffled(using: &random)
        dues = (0..<pairs).map { _ in start + Int64(random.next() % span) }
    }

    /// The earliest due time pending after the pairs of `pair`, worked out without any
    /// structure.
    func earliestAfterPairs(_ pair: Pair) -> Int64 {
        var pending = initialDues
        if pair == .replace {
            for (index, due) in dues.enumerated() { pending[index % pending.count] = due }
        }
        return pending.min()!
    }
}
