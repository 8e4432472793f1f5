import Foundation

/// The seeds a batch of a conformance suite checks: its own, or alone the one that
/// `NOTIFY_SCHED_CONFORMANCE_SEED` names, to replay a failing scenario with all it did.
enum ConformanceSeeds {
    /// Calls `check` with each seed of `batch` (not verbose), or, when a seed is to be replayed,
    /// with that seed in batch 0 alone (verbose).
    ///
    /// - Returns: Whether a seed was replayed: the batch's totals then mean nothing.
    static func check(
        batch: Int, of size: Int, from base: UInt64, _ check: (_ seed: UInt64, _ verbose: Bool) throws -> Void
    ) rethrows -> Bool {
        if let replay = ProcessInfo.processInfo.environment["NOTIFY_SCHED_CONFORMANCE_SEED"] {
            if batch == 0, let seed = UInt64(replay) { try check(seed, true) }
            return true
        }
        for index in 0..<size { try check(base + UInt64(batch * size + index), false) }
        return false
    }
}
