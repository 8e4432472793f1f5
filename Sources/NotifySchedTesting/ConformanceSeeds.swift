import Foundation

/// The seeds a batch of a conformance suite checks: its own, or alone the one that
/// `NOTIFY_SCHED_CONFORMANCE_SEED` names, to replay a failing scenario with all it did.
public enum ConformanceSeeds {
    /// The zones scenarios are drawn from: DST in both hemispheres, a 30-minute DST (Lord
    /// Howe), negative DST (Dublin), 45-minute offsets and none at all.
    public static let zoneNames = [
        "UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "Europe/Dublin",
        "Asia/Kolkata", "America/Sao_Paulo", "Asia/Kathmandu", "Pacific/Chatham",
    ]

    /// How many batches a suite runs: `NOTIFY_SCHED_CONFORMANCE_BATCHES`, else `count`.
    public static func batches(default count: Int) -> Int {
        ProcessInfo.processInfo.environment["NOTIFY_SCHED_CONFORMANCE_BATCHES"].flatMap { Int($0) } ?? count
    }

    /// Calls `check` with each seed of `batch` (not verbose), or, when a seed is to be replayed,
    /// with that seed in batch 0 alone (verbose).
    ///
    /// - Returns: Whether a seed was replayed: the batch's totals then mean nothing.
    public static func check(
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
