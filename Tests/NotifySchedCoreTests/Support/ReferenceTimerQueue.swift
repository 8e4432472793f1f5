import NotifySchedCore

/// The simplest possible timer queue, for checking `TimerWheel` against: a sorted array of
/// entries ordered by due time, then by the serial that counts schedulings.
struct ReferenceTimerQueue {
    /// One pending entry: its due time, when it was scheduled, and what it stands for.
    struct Entry: Equatable, Comparable, CustomStringConvertible {
        var due: Instant
        var serial: Int
        var element: Int

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.due, lhs.serial) < (rhs.due, rhs.serial)
        }

        var description: String { "\(element)@\(due.microseconds)" }
    }

    private(set) var entries: [Entry] = []

    var earliest: Entry? { entries.first }

    mutating func schedule(_ entry: Entry) {
        entries.insert(entry, at: insertionPoint(of: entry))
    }

    mutating func cancel(_ entry: Entry) {
        let index = insertionPoint(of: entry)
        precondition(index < entries.count && entries[index] == entry, "\(entry) is not pending in the model")
        entries.remove(at: index)
    }

    mutating func advance(to now: Instant) -> [Entry] {
        let end = entries.firstIndex { $0.due > now } ?? entries.count
        defer { entries.removeFirst(end) }
        return Array(entries[..<end])
    }

    private func insertionPoint(of entry: Entry) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle] < entry { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
