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
    /// One entry: its next occurrence (microseconds; `Int64.max` for none) and where it is.
    struct Key: Comparable, Sendable {
        var next: Int64
        var schedule: Int32
        var entry: Int32

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.next, lhs.schedule, lhs.entry) < (rhs.next, rhs.schedule, rhs.entry)
        }
    }

    /// Every entry, sorted.
    private(set) var keys: [Key]
    /// The instant the order holds for.
    public private(set) var asOf: Instant

    /// Sorts every entry of `schedules` by its next occurrence at or after `now`.
    ///
    /// - Parameter settled: The instant each entry is settled through, by schedule and entry
    ///   position.
    /// - Complexity: O(*n* log *n*) and a next occurrence for each of *n* entries.
    public init(schedules: [Schedule], settled: [[Instant?]], now: Instant, userZone: ZoneRules) {
        var keys: [Key] = []
        keys.reserveCapacity(schedules.reduce(0) { $0 + $1.entries.count })
        for index in schedules.indices {
            for position in schedules[index].entries.indices {
                keys.append(
                    Self.key(
                        schedules[index].entries[position], schedule: index, entry: position,
                        settledThrough: settled[index][position], now: now, userZone: userZone))
            }
        }
        keys.sort()
        self.keys = keys
        asOf = now
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
        let came = keys[..<low].map { key in
            Self.key(
                schedules[Int(key.schedule)].entries[Int(key.entry)], schedule: Int(key.schedule),
                entry: Int(key.entry), settledThrough: settled[Int(key.schedule)][Int(key.entry)], now: now,
                userZone: userZone)
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
        asOf = now
    }

    private static func key(
        _ entry: ScheduleEntry, schedule: Int, entry position: Int, settledThrough: Instant?, now: Instant,
        userZone: ZoneRules
    ) -> Key {
        let next = ScheduleListing.instants(
            of: entry, settledThrough: settledThrough, now: now, limit: 1, userZone: userZone
        ).first
        return Key(next: next?.microseconds ?? .max, schedule: Int32(schedule), entry: Int32(position))
    }
}
