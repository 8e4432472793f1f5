import NotifySchedCore

/// Plays three UTC days of a fleet of desktops sending receipts to one collector, each
/// desktop's uploads decided by the daemon's own `ReceiptUploads` (once a day, at its own moment,
/// with its first check after it) and `ReceiptRetry` (after a refusal), its checks hourly at a
/// random phase; the collector may be down (`503 Retry-After: 120`) for a span of the second
/// day. Counts the posts the collector sees by second.
///
/// Pure and seeded; each desktop is played whole before the next, so a run of 10^6 desktops
/// needs only its counts (`notify-sched-bench fleet --receipts`).
public struct ReceiptFleetSimulation: Sendable {
    /// How many desktops send receipts.
    public var desktops: Int
    /// How often each desktop checks its source: an upload rides on a check.
    public var checkPeriod: TimeSpan
    public var seed: UInt64

    /// The run's start: 00:00 UTC on a Sunday.
    public static let start = Instant(secondsSinceEpoch: 1_795_910_400)
    /// The collector's outage in the scenario that has one: six hours of the second day.
    public static let outage = (start + .days(1) + .hours(6))..<(start + .days(1) + .hours(12))
    /// What the collector answers during it.
    public static let retryAfter = RetryAfter.delay(.seconds(120))

    public init(desktops: Int, checkPeriod: TimeSpan = .hours(1), seed: UInt64 = 17) {
        self.desktops = max(1, desktops)
        self.checkPeriod = checkPeriod
        self.seed = seed
    }

    /// The counting window, in seconds: one that holds `FleetSimulation.requestsPerWindow`
    /// posts on average.
    public var windowSeconds: Int64 {
        max(1, Int64((FleetSimulation.requestsPerWindow * 86_400 / Double(desktops)).rounded(.up)))
    }

    /// Runs the three days, with the collector down during `outage` when given.
    public func run(outage: Range<Instant>? = nil) -> ReceiptFleetResult {
        let days = 3
        var posts = [Int32](repeating: 0, count: days * 86_400)
        var generator = SplitMix64(seed: seed)
        var refused = 0
        var mostTakenInADay = 0
        let end = Self.start + .days(Int64(days))
        for _ in 0..<desktops {
            var uploads = ReceiptUploads(on: [true], seed: generator.next())
            var taken = [Int](repeating: 0, count: days)
            var check =
                Self.start
                + TimeSpan(
                    microseconds: Int64.random(in: 0..<checkPeriod.microseconds, using: &generator))
            while check < end {
                if uploads.start(0, at: check) {
                    let second = Int((check - Self.start).microseconds / 1_000_000)
                    posts[second] += 1
                    if outage?.contains(check) == true {
                        refused += 1
                        uploads.refused(0, retryAfter: Self.retryAfter, at: check)
                    } else {
                        uploads.taken(0)
                        taken[second / 86_400] += 1
                    }
                }
                check = check + checkPeriod
            }
            mostTakenInADay = max(mostTakenInADay, taken.max() ?? 0)
        }
        return result(posts: posts, refused: refused, mostTakenInADay: mostTakenInADay, outage: outage)
    }

    private func result(posts: [Int32], refused: Int, mostTakenInADay: Int, outage: Range<Instant>?)
        -> ReceiptFleetResult
    {
        let window = Int(windowSeconds)
        let peak = { (from: Int, to: Int) -> Double in
            var best: Int64 = 0
            var start = from
            while start + window <= to {
                best = max(best, posts[start..<start + window].reduce(Int64(0)) { $0 + Int64($1) })
                start += window
            }
            return Double(best) / Double(window)
        }
        // The first day is the fleet settling; the peaks are the second and third days'.
        let mean = Double(desktops) / 86_400
        let afterOutage = outage.map { Int(($0.upperBound - Self.start).microseconds / 1_000_000) } ?? 86_400
        return ReceiptFleetResult(
            scenario: outage == nil ? "steady" : "collector down 6 h", desktops: desktops,
            windowSeconds: Int64(window), meanPerSecond: mean, peakPerSecond: peak(86_400, posts.count),
            peakRatio: peak(86_400, posts.count) / mean, afterOutagePeakRatio: peak(afterOutage, posts.count) / mean,
            posts: posts.reduce(0) { $0 + Int($1) }, refused: refused, mostTakenInADay: mostTakenInADay)
    }
}

/// What one run of `ReceiptFleetSimulation` measured at the collector.
public struct ReceiptFleetResult: Sendable, Equatable, Codable {
    public var scenario: String
    public var desktops: Int
    /// The window posts are counted in, in seconds.
    public var windowSeconds: Int64
    /// One upload per desktop per day: desktops / 86 400.
    public var meanPerSecond: Double
    /// The busiest window of the second and third days, in posts per second, and over the mean.
    public var peakPerSecond: Double
    public var peakRatio: Double
    /// The busiest window from the outage's end, over the mean.
    public var afterOutagePeakRatio: Double
    /// Every post, and those the collector refused.
    public var posts: Int
    public var refused: Int
    /// The most bodies a desktop's collector took within one UTC day.
    public var mostTakenInADay: Int
}
