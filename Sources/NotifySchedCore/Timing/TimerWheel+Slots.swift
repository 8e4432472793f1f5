/// The slot lists of the wheel and the moves between them. Callers have made the storage
/// unique before any of the mutating ones.
///
/// A list is threaded through the entries' links. Its two ends point at the slot's marker,
/// `markerBase | slot`, a value no entry index reaches, so an entry can be unlinked without
/// knowing which slot holds it.
extension TimerWheel {
    /// The number of levels.
    @inlinable static var levelCount: Int { 6 }

    /// The slots of one level, and the bits of its occupancy word.
    @inlinable static var slotsPerLevel: Int { 64 }

    /// log2 of `slotsPerLevel`: each level's slots span 64 times those of the level below.
    @inlinable static var bitsPerLevel: Int { 6 }

    /// The slot of the entries due after the block of 2^36 seconds the levels cover.
    @inlinable static var overflowSlot: Int { levelCount * slotsPerLevel }

    /// The levels' slots and the overflow slot.
    @inlinable static var slotCount: Int { overflowSlot + 1 }

    /// The first marker value; entry indices stay below it.
    @inlinable static var markerBase: UInt32 { 1 << 31 }

    /// The most entries a wheel holds.
    @inlinable static var entryLimit: Int { Int(markerBase) }

    /// The end of the free list.
    @inlinable static var noEntry: UInt32 { .max }

    /// The marker that stands for `slot` at the ends of its list.
    ///
    /// - Complexity: O(1)
    @inlinable
    static func marker(ofSlot slot: Int) -> UInt32 {
        markerBase | UInt32(truncatingIfNeeded: slot)
    }

    /// The whole second that holds `microseconds`.
    ///
    /// Division truncates towards zero; a negative time with a remainder lies one second
    /// further down. One multiplication and no branch: every schedule and cancel runs it.
    ///
    /// - Complexity: O(1)
    @inlinable
    static func second(of microseconds: Int64) -> Int64 {
        let truncated = microseconds / 1_000_000
        return truncated - (truncated * 1_000_000 > microseconds ? 1 : 0)
    }

    /// The slot that files an entry due in second `key`, which is not before `elapsed`.
    ///
    /// The level is the highest group of six bits in which `key` and `elapsed` differ, so an
    /// entry never shares a slot with the clock above level 0.
    ///
    /// - Complexity: O(1)
    @inlinable
    static func slot(forKey key: Int64, elapsed: Int64) -> Int {
        let difference = UInt64(bitPattern: key ^ elapsed)
        if difference >> UInt64(levelCount * bitsPerLevel) != 0 { return overflowSlot }
        let level = (63 - (difference | 63).leadingZeroBitCount) / bitsPerLevel
        let index = Int(truncatingIfNeeded: UInt64(bitPattern: key) >> UInt64(level * bitsPerLevel)) & 63
        return level << bitsPerLevel | index
    }

    /// Takes a free entry (or a new one) for `element` due at `due` (microseconds), and files
    /// it.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    @inline(__always)
    mutating func insert(_ element: Element, at due: Int64) -> Handle {
        let index: UInt32
        let generation: UInt32
        if firstFree != Self.noEntry {
            index = firstFree
            firstFree = storage.entries[Int(index)].next
            generation = storage.entries[Int(index)].generation &+ 1
        } else {
            precondition(used < Self.entryLimit, "A timer wheel holds at most 2^31 entries")
            reserve(used + 1, exactly: false)
            index = UInt32(truncatingIfNeeded: used)
            used += 1
            generation = 1
        }
        storage.entries[Int(index)].generation = generation
        storage.entries[Int(index)].due = due
        storage.entries[Int(index)].element = element
        file(index, due: due)
        scheduledCount &+= 1
        return Handle(index: index, generation: generation)
    }

    /// Files a detached entry due at `due` (microseconds) in the slot its due second and the
    /// clock choose; an overdue entry goes in the current second's slot.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    mutating func file(_ entry: UInt32, due: Int64) {
        let key = Swift.max(Self.second(of: due), elapsed)
        append(entry, toSlot: Self.slot(forKey: key, elapsed: elapsed))
        if key == elapsed { currentMinimum = Swift.min(currentMinimum, due) }
    }

    /// Appends a detached entry at the end of `slot`'s list.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    mutating func append(_ entry: UInt32, toSlot slot: Int) {
        let entries = storage.entries
        let ends = storage.slots + slot
        let marker = Self.marker(ofSlot: slot)
        let last = ends.pointee.last
        entries[Int(entry)].next = marker
        entries[Int(entry)].prev = last
        if last == marker {
            ends.pointee.first = entry
            if slot < Self.overflowSlot { storage.occupied[slot >> Self.bitsPerLevel] |= 1 << UInt64(slot & 63) }
        } else {
            entries[Int(last)].next = entry
        }
        ends.pointee.last = entry
    }

    /// Takes a filed entry out of its slot's list.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    mutating func unlink(_ entry: UInt32) {
        let entries = storage.entries
        let next = entries[Int(entry)].next
        let prev = entries[Int(entry)].prev
        if prev >= Self.markerBase {
            storage.slots[Int(prev & ~Self.markerBase)].first = next
        } else {
            entries[Int(prev)].next = next
        }
        if next >= Self.markerBase {
            let slot = Int(next & ~Self.markerBase)
            storage.slots[slot].last = prev
            if prev >= Self.markerBase && slot < Self.overflowSlot {
                storage.occupied[slot >> Self.bitsPerLevel] &= ~(1 << UInt64(slot & 63))
            }
        } else {
            entries[Int(next)].prev = prev
        }
    }

    /// Frees an unlinked entry for reuse; its handles become stale.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    mutating func release(_ entry: UInt32) {
        storage.entries[Int(entry)].generation &+= 1
        storage.entries[Int(entry)].next = firstFree
        firstFree = entry
        scheduledCount &-= 1
    }

    /// Empties `slot` and returns the first entry of the chain it held; the chain still ends
    /// at the slot's marker.
    ///
    /// - Complexity: O(1)
    @inlinable
    mutating func detachChain(of slot: Int) -> UInt32 {
        let first = storage.slots[slot].first
        storage.slots[slot] = Ends(bothAt: Self.marker(ofSlot: slot))
        if slot < Self.overflowSlot { storage.occupied[slot >> Self.bitsPerLevel] &= ~(1 << UInt64(slot & 63)) }
        return first
    }

    /// The earliest occupied slot and the second it starts at, or `nil` when the wheel is
    /// empty.
    ///
    /// Lower levels come first: every entry of a level falls due before any of the level
    /// above, and within a level no slot lies behind the clock's.
    ///
    /// - Complexity: O(levels)
    @inlinable
    func nextExpiration() -> (slot: Int, deadline: Int64)? {
        for level in 0..<Self.levelCount {
            let shift = level * Self.bitsPerLevel
            let clockSlot = Int(truncatingIfNeeded: elapsed >> Int64(shift)) & 63
            let ahead = storage.occupied[level] >> UInt64(clockSlot)
            if ahead != 0 {
                let index = clockSlot + ahead.trailingZeroBitCount
                let levelStart = elapsed & ~((1 << Int64(shift + Self.bitsPerLevel)) - 1)
                return (level << Self.bitsPerLevel | index, levelStart + Int64(index) << Int64(shift))
            }
        }
        if storage.slots[Self.overflowSlot].first < Self.markerBase {
            let horizonMask: Int64 = (1 << Int64(Self.levelCount * Self.bitsPerLevel)) - 1
            return (Self.overflowSlot, (elapsed | horizonMask) + 1)
        }
        return nil
    }

    /// Files the entries of a slot above level 0 (or of the overflow slot) from the clock,
    /// which has just reached the slot's start.
    ///
    /// - Complexity: O(*k*) for the *k* entries of the slot.
    @inlinable
    mutating func cascade(_ slot: Int) {
        var entry = detachChain(of: slot)
        while entry < Self.markerBase {
            let next = storage.entries[Int(entry)].next
            file(entry, due: storage.entries[Int(entry)].due)
            entry = next
        }
    }

    /// Hands over the entries of a level-0 slot due by `now` (microseconds), in due-time
    /// order with ties in list order, and files the others back.
    ///
    /// - Returns: Whether every entry of the slot was handed over.
    /// - Complexity: O(*k* log *k*) for the *k* entries of the slot.
    @inlinable
    mutating func fire(_ slot: Int, upTo now: Int64, into fired: inout [(due: Instant, element: Element)]) -> Bool {
        var due: [(due: Int64, order: Int, entry: UInt32)] = []
        var kept = false
        var sorted = true
        var entry = detachChain(of: slot)
        while entry < Self.markerBase {
            let next = storage.entries[Int(entry)].next
            let time = storage.entries[Int(entry)].due
            if time <= now {
                if let last = due.last, last.due > time { sorted = false }
                due.append((time, due.count, entry))
            } else {
                file(entry, due: time)
                kept = true
            }
            entry = next
        }
        // A second's entries are mostly due on the second itself, and so already in order.
        if !sorted {
            due.sort { ($0.due, $0.order) < ($1.due, $1.order) }
        }
        for (time, _, entry) in due {
            fired.append((Instant(microseconds: time), storage.entries[Int(entry)].element))
            release(entry)
        }
        return !kept
    }
}
