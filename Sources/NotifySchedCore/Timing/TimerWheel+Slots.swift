/// The slot lists of the wheel and the moves between them.
///
/// A list is threaded through the entries' `links`. Its two ends point at the slot's marker,
/// `markerBase | slot`, a value no entry index reaches, so an entry can be unlinked without
/// knowing which slot holds it.
extension TimerWheel {
    /// An entry's two neighbours, or a slot's two ends.
    @usableFromInline
    struct Link: Sendable {
        /// The next entry, or the slot's marker after the last one.
        @usableFromInline var next: UInt32

        /// The previous entry, or the slot's marker before the first one.
        @usableFromInline var prev: UInt32

        /// A link whose two ends are `value`: an empty slot's, when `value` is its marker.
        ///
        /// - Complexity: O(1)
        @inlinable
        init(bothEnds value: UInt32) {
            next = value
            prev = value
        }

        /// A link from `prev` to `next`.
        ///
        /// - Complexity: O(1)
        @inlinable
        init(next: UInt32, prev: UInt32) {
            self.next = next
            self.prev = prev
        }
    }

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
    /// - Complexity: O(1)
    @inlinable
    static func second(of microseconds: Int64) -> Int64 {
        microseconds.floorDivided(by: 1_000_000)
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

    /// Files a detached entry due at `due` (microseconds) in the slot its due second and the
    /// clock choose; an overdue entry goes in the current second's slot.
    ///
    /// - Complexity: O(1)
    @inlinable
    mutating func file(_ entry: UInt32, due: Int64) {
        let key = Swift.max(Self.second(of: due), elapsed)
        append(entry, toSlot: Self.slot(forKey: key, elapsed: elapsed))
        if key == elapsed { currentMinimum = Swift.min(currentMinimum, due) }
    }

    /// Appends a detached entry at the end of `slot`'s list.
    ///
    /// - Complexity: O(1)
    @inlinable
    mutating func append(_ entry: UInt32, toSlot slot: Int) {
        let marker = Self.marker(ofSlot: slot)
        let last = slots[slot].prev
        links[Int(entry)] = Link(next: marker, prev: last)
        if last == marker {
            slots[slot].next = entry
            if slot < Self.overflowSlot { occupied[slot >> Self.bitsPerLevel] |= 1 << UInt64(slot & 63) }
        } else {
            links[Int(last)].next = entry
        }
        slots[slot].prev = entry
    }

    /// Takes a filed entry out of its slot's list.
    ///
    /// - Complexity: O(1)
    @inlinable
    mutating func unlink(_ entry: UInt32) {
        let link = links[Int(entry)]
        if link.prev >= Self.markerBase {
            slots[Int(link.prev & ~Self.markerBase)].next = link.next
        } else {
            links[Int(link.prev)].next = link.next
        }
        if link.next >= Self.markerBase {
            slots[Int(link.next & ~Self.markerBase)].prev = link.prev
            if link.prev >= Self.markerBase {
                let slot = Int(link.next & ~Self.markerBase)
                if slot < Self.overflowSlot { occupied[slot >> Self.bitsPerLevel] &= ~(1 << UInt64(slot & 63)) }
            }
        } else {
            links[Int(link.next)].prev = link.prev
        }
    }

    /// Frees an unlinked entry for reuse; its handles become stale.
    ///
    /// - Complexity: O(1)
    @inlinable
    mutating func release(_ entry: UInt32) {
        generations[Int(entry)] &+= 1
        links[Int(entry)].next = firstFree
        firstFree = entry
        scheduledCount -= 1
    }

    /// Empties `slot` and returns the first entry of the chain it held; the chain still ends
    /// at the slot's marker.
    ///
    /// - Complexity: O(1)
    @inlinable
    mutating func detachChain(of slot: Int) -> UInt32 {
        let first = slots[slot].next
        slots[slot] = Link(bothEnds: Self.marker(ofSlot: slot))
        if slot < Self.overflowSlot { occupied[slot >> Self.bitsPerLevel] &= ~(1 << UInt64(slot & 63)) }
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
            let ahead = occupied[level] >> UInt64(clockSlot)
            if ahead != 0 {
                let index = clockSlot + ahead.trailingZeroBitCount
                let levelStart = elapsed & ~((1 << Int64(shift + Self.bitsPerLevel)) - 1)
                return (level << Self.bitsPerLevel | index, levelStart + Int64(index) << Int64(shift))
            }
        }
        if slots[Self.overflowSlot].next < Self.markerBase {
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
            let next = links[Int(entry)].next
            file(entry, due: dues[Int(entry)])
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
            let next = links[Int(entry)].next
            let time = dues[Int(entry)]
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
            fired.append((Instant(microseconds: time), elements[Int(entry)]))
            release(entry)
        }
        return !kept
    }
}
