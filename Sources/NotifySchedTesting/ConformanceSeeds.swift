import Foundation
import Synchronization

/// What the conformance suites share of their scenarios' seeds.
public enum ConformanceSeeds {
    /// The zones scenarios are drawn from: DST in both hemispheres, a 30-minute DST (Lord
    /// Howe), negative DST (Dublin), 45-minute offsets and none at all.
    public static let zoneNames = [
        "UTC", "Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "Europe/Dublin",
        "Asia/Kolkata", "America/Sao_Paulo", "Asia/Kathmandu", "Pacific/Chatham",
    ]
}

/// A conformance suite's seeded scenarios, in batches its test runs side by side, and the totals
/// of what they checked, printed once the last batch is done. A batch checks its own seeds, or
/// alone the one `NOTIFY_SCHED_CONFORMANCE_SEED` names, to replay a failing scenario with all
/// it did.
///
/// The test suite checks a sample small enough for every run (`default`); set
/// `NOTIFY_SCHED_CONFORMANCE_SCENARIOS` to check more, as before a release: the first ones are
/// the same.
public final class ConformanceBatches<Totals: Sendable>: Sendable {
    /// How many scenarios run: `NOTIFY_SCHED_CONFORMANCE_SCENARIOS`, else the default.
    public let scenarios: Int
    /// How many scenarios a batch checks; the last may check fewer.
    public let size: Int
    /// The first scenario's seed; the others follow.
    private let base: UInt64
    private let summed: Mutex<(scenarios: Int, totals: Totals)>

    /// - Parameters:
    ///   - scenarios: How many scenarios run, unless `NOTIFY_SCHED_CONFORMANCE_SCENARIOS` says.
    ///   - size: How many scenarios a batch checks.
    ///   - base: The first scenario's seed.
    ///   - totals: The totals before any scenario.
    public init(default scenarios: Int, inBatchesOf size: Int, from base: UInt64, totals: Totals) {
        self.scenarios =
            ProcessInfo.processInfo.environment["NOTIFY_SCHED_CONFORMANCE_SCENARIOS"].flatMap { Int($0) }
            .map { max(1, $0) } ?? scenarios
        self.size = size
        self.base = base
        summed = Mutex((0, totals))
    }

    /// How many batches run.
    public var count: Int { (scenarios + size - 1) / size }

    /// Calls `check` with each seed of `batch` (not verbose), or, when a seed is to be replayed,
    /// with that seed in batch 0 alone (verbose); once every batch's scenarios added to the
    /// totals (`add(_:)`), prints `summary` of how many scenarios there were and their totals.
    public func run(
        _ batch: Int, _ check: (_ seed: UInt64, _ verbose: Bool) throws -> Void,
        summary: (_ scenarios: Int, Totals) -> String
    ) rethrows {
        if let replay = ProcessInfo.processInfo.environment["NOTIFY_SCHED_CONFORMANCE_SEED"] {
            if batch == 0, let seed = UInt64(replay) { try check(seed, true) }
            return
        }
        for index in batch * size..<min(scenarios, (batch + 1) * size) { try check(base + UInt64(index), false) }
        let (checked, totals) = summed.withLock { $0 }
        if checked == scenarios { print(summary(checked, totals)) }
    }

    /// Adds what one scenario checked to the totals.
    public func add(_ scenario: (inout Totals) -> Void) {
        summed.withLock {
            $0.scenarios += 1
            scenario(&$0.totals)
        }
    }
}
