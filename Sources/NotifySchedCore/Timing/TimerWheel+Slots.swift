/// The slot lists of the wheel and the moves between them.
///
/// A list is a buffer of items that grows and shrinks only at its end, so it keeps the order
/// in which its entries were filed. A cancel takes the entry's filing back when it is still
/// the last of its list, and otherwise touches nothing but the entry's generation: the
/// filing it leaves behind is dead, skipped and dropped when its slot is cascaded or fired,
/// or by a sweep once dead filings outnumber half the scheduled entries.
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

    /// The most entries a wheel holds at once, and the most entry indices it ever hands out.
    @inlinable static var entryLimit: Int { Int(UInt32.max) }

    /// The generation an entry is freed into for the last time: an even one, so no handle or
    /// filing matches it, and never reused, so no generation ever comes round again.
    @inlinable static var retiredGeneration: UInt16 { .max - 1 }

    /// No entry: `latestFreed` when the free stack's top is in `free` itself.
    @inlinable static var noEntry: UInt32 { .max }

    /// Dead filings the wheel keeps, beyond half its scheduled entries, before it sweeps.
    @inlinable static var deadAllowance: Int { 64 }

    /// How many items past a list's end an append prefetches: a few cache lines ahead, which
    /// the list reaches only after several more appends to it.
    @inlinable static var prefetchDistance: Int { 8 }

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

    /// The slot that files an entry due at `due` (microseconds) from the wheel's clock: an
    /// overdue entry goes in the current second's slot.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    func slot(forDue due: Int64) -> Int {
        Self.slot(forKey: Swift.max(Self.second(of: due), elapsed), elapsed: elapsed)
    }

    /// Takes a free entry (or a new one) for `element` due at `due` (microseconds), and files
    /// it in `slot`, which `slot(forDue:)` chose.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    @inline(__always)
    mutating func insert(_ element: Element, at due: Int64, inSlot slot: Int) -> Handle {
        let index: UInt32
        if latestFreed != Self.noEntry {
            index = latestFreed
            latestFreed = Self.noEntry
        } else if freeCount > 0 {
            freeCount &-= 1
            index = free[freeCount]
        } else {
            precondition(used < Self.entryLimit, "A timer wheel hands out at most 2^32 - 1 entries")
            reserve(used + 1, exactly: false)
            index = UInt32(truncatingIfNeeded: used)
            used += 1
            (generations + Int(index)).initialize(to: 0)
        }
        let generation = generations[Int(index)] &+ 1
        generations[Int(index)] = generation
        file(Item(due: due, index: index, generation: generation, element: element), inSlot: slot)
        scheduledCount &+= 1
        return Handle(index: index, generation: generation, slot: slot)
    }

    /// Schedules `entries` under new consecutive indices, filing each in its slot from
    /// `slots` (chosen by `slot(forDue:)`), whose buffers already have room, and writes their
    /// handles into `handles` from `start` on: the bulk build's inner loop, with no free
    /// entry to look at and no room to check.
    ///
    /// - Returns: `start` plus the number of entries.
    /// - Complexity: O(*n* + slots) for *n* entries.
    @inlinable
    mutating func fileFresh<Entries: Collection, Slots: Collection>(
        _ entries: Entries, _ slots: Slots, into handles: UnsafeMutableBufferPointer<Handle>, from start: Int
    ) -> Int where Entries.Element == (due: Instant, element: Element), Slots.Element == UInt16 {
        let first = used
        (generations + first).initialize(repeating: 1, count: entries.count)
        used += entries.count
        scheduledCount += entries.count
        // Each slot's next free position, by pointer: no uniqueness check per entry.
        let ends = UnsafeMutablePointer<Int>.allocate(capacity: Self.slotCount)
        defer { ends.deallocate() }
        for slot in 0..<Self.slotCount { (ends + slot).initialize(to: self.slots[slot].count) }
        var position = start
        for (entry, slot) in zip(entries, slots) {
            let slot = Int(slot)
            let index = UInt32(truncatingIfNeeded: first + position - start)
            let due = entry.due.microseconds
            let items = self.slots[slot].items.unsafelyUnwrapped
            prefetchListEnd(of: items, at: ends[slot], capacity: self.slots[slot].capacity)
            items[ends[slot]] = Item(due: due, index: index, generation: 1, element: entry.element)
            ends[slot] += 1
            self.slots[slot].earliest = Swift.min(self.slots[slot].earliest, due)
            handles[position] = Handle(index: index, generation: 1, slot: slot)
            position += 1
        }
        for slot in 0..<Self.slotCount where ends[slot] > self.slots[slot].count {
            self.slots[slot].count = ends[slot]
            markOccupied(slot)
        }
        return position
    }

    /// Files `item` in the slot its due time and the clock choose.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    @inline(__always)
    mutating func file(_ item: Item) {
        file(item, inSlot: slot(forDue: item.due))
    }

    /// Files `item` at the end of `slot`'s list, which `slot(forDue:)` chose, keeping the
    /// slot's earliest due time.
    ///
    /// - Complexity: O(1) amortized: the slot's buffer doubles when full.
    @inlinable
    @inline(__always)
    mutating func file(_ item: Item, inSlot slot: Int) {
        let target = slots + slot
        let count = target.pointee.count
        if count == target.pointee.capacity { reserveItems(count + 1, inSlot: slot, exactly: false) }
        let items = target.pointee.items.unsafelyUnwrapped
        prefetchListEnd(of: items, at: count, capacity: target.pointee.capacity)
        items[count] = item
        target.pointee.count = count &+ 1
        target.pointee.earliest = Swift.min(target.pointee.earliest, item.due)
        if count == 0 { markOccupied(slot) }
    }

    /// Prefetches the part of a list's buffer that appends reach a few items after `end`,
    /// when it lies inside the buffer of `capacity` items.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    func prefetchListEnd(of items: UnsafeMutablePointer<Item>, at end: Int, capacity: Int) {
        let ahead = end &+ Self.prefetchDistance
        if ahead < capacity { prefetchForWriting(items + ahead) }
    }

    /// Whether `item` is the filing of a scheduled entry rather than one a cancel left behind.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    func isLive(_ item: Item) -> Bool {
        generations[Int(item.index)] == item.generation
    }

    /// Frees a scheduled entry: its handles and its filing go stale, and the entry is reused
    /// next, unless it has reached its last generation.
    ///
    /// - Complexity: O(1) amortized.
    @inlinable
    @inline(__always)
    mutating func release(_ index: UInt32) {
        let generation = generations[Int(index)] &+ 1
        generations[Int(index)] = generation
        scheduledCount &-= 1
        guard generation != Self.retiredGeneration else { return }
        if latestFreed != Self.noEntry {
            if freeCount == freeCapacity { growFree() }
            free[freeCount] = latestFreed
            freeCount &+= 1
        }
        latestFreed = index
    }

    /// Takes back the filing of the entry `handle` names, which a cancel has just freed, when
    /// it is still the last of the slot it was filed in: then the cancel leaves nothing
    /// behind. This is the usual fate of a timeout called off before anything else was filed
    /// in its slot, and it costs one look at a list end that is most likely in cache.
    ///
    /// The filing's index and generation identify it: no other filing, live or dead, has
    /// both, so a slot the entry has left since (by a cascade or a rewind) never matches.
    ///
    /// - Returns: Whether the filing was taken back.
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    mutating func withdrawIfLast(_ handle: Handle) -> Bool {
        let slot = Int(handle.slot)
        let target = slots + slot
        let count = target.pointee.count
        guard count > 0 else { return false }
        let last = target.pointee.items.unsafelyUnwrapped[count &- 1]
        guard last.index == handle.index && last.generation == handle.generation else { return false }
        target.pointee.count = count &- 1
        if count == 1 {
            // An empty slot's earliest due time starts afresh: the slot may next be filed for
            // a later second, and a stale bound there would be a deadline nothing answers.
            target.pointee.earliest = .max
            markEmpty(slot)
        }
        return true
    }

    /// Counts the filing a cancel left behind, and sweeps once dead filings outnumber half the
    /// scheduled entries (plus a small allowance).
    ///
    /// - Complexity: O(1) amortized: a sweep of *n* filings follows at least *n*/3 cancels.
    @inlinable
    @inline(__always)
    mutating func leaveDeadFiling() {
        deadCount &+= 1
        if deadCount > scheduledCount >> 1 &+ Self.deadAllowance { sweep() }
    }

    /// Drops every dead filing, keeping the order of the live ones; a slot left empty gives
    /// its buffer back, and one left under a quarter full halves it or more.
    ///
    /// - Complexity: O(*n* + slots) for *n* filings.
    @inlinable
    @inline(never)
    mutating func sweep() {
        for slot in 0..<Self.slotCount {
            let target = slots + slot
            guard let items = target.pointee.items else { continue }
            var kept = 0
            // Branch-free: whether a filing is live is a coin toss the predictor cannot learn.
            for position in 0..<target.pointee.count {
                let item = items[position]
                items[kept] = item
                kept &+= isLive(item) ? 1 : 0
            }
            target.pointee.count = kept
            target.pointee.earliest = (0..<kept).reduce(Int64.max) { Swift.min($0, items[$1].due) }
            if kept == 0 {
                items.deallocate()
                target.pointee = .empty
                markEmpty(slot)
            } else if kept < target.pointee.capacity / 4 {
                target.pointee.items = Self.moved(items, count: kept, to: 2 * kept)
                target.pointee.capacity = 2 * kept
            }
        }
        deadCount = 0
    }

    /// Empties `slot` and hands over its buffer and the number of items in it; the caller
    /// frees the buffer.
    ///
    /// - Complexity: O(1)
    @inlinable
    mutating func detach(_ slot: Int) -> (items: UnsafeMutablePointer<Item>?, count: Int) {
        let detached = slots[slot]
        slots[slot] = .empty
        markEmpty(slot)
        return (detached.items, detached.count)
    }

    /// Sets `slot`'s occupancy bit; the overflow slot has none.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    func markOccupied(_ slot: Int) {
        if slot < Self.overflowSlot { occupied[slot >> Self.bitsPerLevel] |= 1 << UInt64(slot & 63) }
    }

    /// Clears `slot`'s occupancy bit; the overflow slot has none.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    func markEmpty(_ slot: Int) {
        if slot < Self.overflowSlot { occupied[slot >> Self.bitsPerLevel] &= ~(1 << UInt64(slot & 63)) }
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
        if slots[Self.overflowSlot].count > 0 {
            let horizonMask: Int64 = (1 << Int64(Self.levelCount * Self.bitsPerLevel)) - 1
            return (Self.overflowSlot, (elapsed | horizonMask) + 1)
        }
        return nil
    }

    /// Files the entries of a slot above level 0 (or of the overflow slot) from the clock,
    /// which has just reached the slot's start, and drops its dead filings.
    ///
    /// - Complexity: O(*k*) for the *k* filings of the slot.
    @inlinable
    mutating func cascade(_ slot: Int) {
        let (items, count) = detach(slot)
        guard let items else { return }
        for position in 0..<count {
            let item = items[position]
            if isLive(item) { file(item) } else { deadCount &-= 1 }
        }
        items.deallocate()
    }

    /// Hands over the entries of a level-0 slot due by `now` (microseconds), in due-time
    /// order with ties in filing order, files the others back and drops the dead filings.
    ///
    /// - Returns: Whether every entry of the slot was handed over.
    /// - Complexity: O(*k* log *k*) for the *k* filings of the slot.
    @inlinable
    mutating func fire(_ slot: Int, upTo now: Int64, into fired: inout [(due: Instant, element: Element)]) -> Bool {
        let (items, count) = detach(slot)
        guard let items else { return true }
        var due: [(due: Int64, order: Int, index: UInt32, element: Element)] = []
        var kept = false
        var sorted = true
        for position in 0..<count {
            let item = items[position]
            guard isLive(item) else {
                deadCount &-= 1
                continue
            }
            let time = item.due
            if time <= now {
                if let last = due.last, last.due > time { sorted = false }
                due.append((time, due.count, item.index, item.element))
            } else {
                file(item)
                kept = true
            }
        }
        items.deallocate()
        // A second's entries are mostly due on the second itself, and so already in order.
        if !sorted {
            due.sort { ($0.due, $0.order) < ($1.due, $1.order) }
        }
        for (time, _, index, element) in due {
            fired.append((Instant(microseconds: time), element))
            release(index)
        }
        return !kept
    }
}
