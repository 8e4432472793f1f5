import NotifySchedCore

/// Every entry of a set of schedules, sorted by its next occurrence as of an instant (`asOf`),
/// timed entries first, the others in feed order: what pages of a listing are cut from.
///
/// Sorting 10^6 entries costs a next occurrence each; the daemon keeps the order between `List`
/// calls and brings it forward (`advance(to:schedules:settled:userZone:)`), which recomputes
/// only the entries whose next occurrence has come since: an entry's next occurrence changes
/// only when it comes (a delivery settles nothing later than now), unless the schedules, the
/// zone or the clock change, and then the planner's `revision` says the order is stale.
public struct ListingOrder: Sendable {
    /// One entry: its next occurrence (microseconds; `Int64.max` for none) and its place.
    ///
    /// 12 bytes rather than 16, the next occurrence in two halves: the daemon keeps a key for
    /// each of up to 10^6 entries between calls.
    struct Key: Comparable, Sendable {
        private var nextLow: UInt32
        private var nextHigh: Int32
        /// The entry's place among the entries of all the schedules, in their order
        /// (`ListingOrder.location(of:)`).
        let place: UInt32

        init(next: Int64, place: UInt32) {
            nextLow = UInt32(truncatingIfNeeded: next)
            nextHigh = Int32(truncatingIfNeeded: next >> 32)
            self.place = place
        }

        var next: Int64 { Int64(nextHigh) << 32 | Int64(nextLow) }

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.next, lhs.place) < (rhs.next, rhs.place)
        }
    }

    /// Every entry, sorted.
    private(set) var keys: [Key]
    /// The place of each schedule's first entry.
    private let starts: [Int]
    /// The instant the order holds for.
    public private(set) var asOf: Instant

    /// Sorts every entry of `schedules` by its next occurrence at or after `now`.
    ///
    /// - Parameter settled: The instant each entry is settled through, by schedule and entry
    ///   position.
    /// - Complexity: O(*n* log *n*) and a next occurrence for each of *n* entries.
    public init(schedules: [Schedule], settled: [[Instant?]], now: Instant, userZone: ZoneRules) {
        var starts: [Int] = []
        var keys: [Key] = []
        keys.reserveCapacity(schedules.reduce(0) { $0 + $1.entries.count })
        for index in schedules.indices {
            starts.append(keys.count)
            for position in schedules[index].entries.indices {
                keys.append(
                    Key(
                        next: Self.next(
                            of: schedules[index].entries[position], settledThrough: settled[index][position],
                            now: now, userZone: userZone),
                        place: UInt32(keys.count)))
            }
        }
        keys.sort()
        self.keys = keys
        self.starts = starts
        asOf = now
    }

    /// The schedule and the position in it of the entry `key` stands for.
    func location(of key: Key) -> (schedule: Int, entry: Int) {
        let place = Int(key.place)
        // The last schedule starting at or before the place; few schedules, so a linear search.
        let schedule = starts.lastIndex { $0 <= place } ?? 0
        return (schedule, place - starts[schedule])
    }

    /// Brings the order forward to `now`, which is not before `asOf`, for the same schedules,
    /// zone and clock: the entries whose next occurrence came by `now` are computed again and
    /// sorted back in.
    ///
    /// - Complexity: O(*n*) to merge, plus a next occurrence for each entry that came.
    public mutating func advance(to now: Instant, schedules: [Schedule], settled: [[Instant?]], userZone: ZoneRules) {
        // At `now` itself too: an occurrence shown at `now` is settled, and the next one follows.
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].next <= now.microseconds { low = middle + 1 } else { high = middle }
        }
        asOf = now
        // Calls seconds apart mostly find nothing came: the order stands as it is.
        guard low > 0 else { return }
        let came = keys[..<low].map { key in
            let (schedule, entry) = location(of: key)
            return Key(
                next: Self.next(
                    of: schedules[schedule].entries[entry], settledThrough: settled[schedule][entry], now: now,
                    userZone: userZone),
                place: key.place)
        }.sorted()
        var merged: [Key] = []
        merged.reserveCapacity(keys.count)
        var rest = low
        for key in came {
            while rest < keys.count, keys[rest] < key {
                merged.append(keys[rest])
                rest += 1
            }
            merged.append(key)
        }
        merged.append(contentsOf: keys[rest...])
        keys = merged
    }

    /// When `entry` comes next, in microseconds; `Int64.max` for never.
    private static func next(of entry: ScheduleEntry, settledThrough: Instant?, now: Instant, userZone: ZoneRules)
        -> Int64
    {
        ScheduleListing.instants(of: entry, settledThrough: settledThrough, now: now, limit: 1, userZone: userZone)
            .first?.microseconds ?? .max
    }
}
