extension TimerWheel {
    /// One filing of an entry in a slot's list: its exact due time, its entry index, the
    /// generation the entry had when it was filed, and its element. The filing counts only
    /// while that is still the entry's generation; a cancel leaves it behind, dead, until its
    /// slot is processed or the wheel sweeps.
    ///
    /// The element travels with the filing rather than in a column of its own, so that a
    /// schedule writes only memory it has just touched. The due time is kept as two 32-bit
    /// halves so that, with a 4-byte element, an item takes 20 bytes rather than 24.
    @usableFromInline
    struct Item {
        /// The low 32 bits of the due time in microseconds since the epoch.
        @usableFromInline var dueLow: UInt32

        /// The high 32 bits of the due time.
        @usableFromInline var dueHigh: UInt32

        /// The entry's index into `generations`.
        @usableFromInline var index: UInt32

        /// The entry's generation when it was filed: odd.
        @usableFromInline var generation: UInt16

        /// What the entry hands back when it falls due.
        @usableFromInline var element: Element

        /// The filing of entry `index` in `generation`, due at `due` (microseconds).
        ///
        /// - Complexity: O(1)
        @inlinable
        init(due: Int64, index: UInt32, generation: UInt16, element: Element) {
            dueLow = UInt32(truncatingIfNeeded: due)
            dueHigh = UInt32(truncatingIfNeeded: due >> 32)
            self.index = index
            self.generation = generation
            self.element = element
        }

        /// The due time in microseconds since the epoch.
        ///
        /// - Complexity: O(1)
        @inlinable
        var due: Int64 { Int64(bitPattern: UInt64(dueHigh) << 32 | UInt64(dueLow)) }
    }

    /// A slot's list: its items in the order they were filed, in a buffer of its own.
    @usableFromInline
    struct Slot {
        /// The items, or `nil` before the slot's first filing.
        @usableFromInline var items: UnsafeMutablePointer<Item>?

        /// The items filed, live and dead.
        @usableFromInline var count: Int

        /// The items there is room for.
        @usableFromInline var capacity: Int

        /// The earliest due time (microseconds) of the items filed since the slot was last
        /// emptied, live or dead: never later than its earliest live entry; `Int64.max` when
        /// nothing was filed.
        @usableFromInline var earliest: Int64

        /// A slot with no buffer.
        ///
        /// - Complexity: O(1)
        @inlinable
        init() {
            items = nil
            count = 0
            capacity = 0
            earliest = .max
        }

        /// A slot with no buffer.
        @inlinable
        static var empty: Slot { Slot() }
    }

    /// Makes room for at least `minimum` entries: exactly that many for a bulk build, and at
    /// least double the room when entries arrive one by one.
    ///
    /// - Complexity: O(1) when there is room, O(*n*) for *n* entries ever used otherwise.
    @inlinable
    mutating func reserve(_ minimum: Int, exactly: Bool) {
        guard minimum > capacity else { return }
        resizeGenerations(to: exactly ? minimum : Swift.max(minimum, 2 * capacity, 16))
    }

    /// Gives `generations` room for `capacity` entries, keeping the first `used`; out of
    /// line, to keep it out of the hot paths it guards.
    ///
    /// - Complexity: O(`used`)
    @inlinable
    @inline(never)
    mutating func resizeGenerations(to capacity: Int) {
        generations = Self.moved(generations, count: used, to: capacity)
        self.capacity = capacity
    }

    /// Doubles the room of the free stack.
    ///
    /// - Complexity: O(`freeCount`)
    @inlinable
    @inline(never)
    mutating func growFree() {
        freeCapacity = Swift.max(16, 2 * freeCapacity)
        free = Self.moved(free, count: freeCount, to: freeCapacity)
    }

    /// Gives `slot`'s buffer room for at least `minimum` items: exactly that many when
    /// `exactly`, otherwise at least double its room.
    ///
    /// - Complexity: O(*k*) for the *k* items of the slot.
    @inlinable
    @inline(never)
    func reserveItems(_ minimum: Int, inSlot slot: Int, exactly: Bool) {
        let target = slots + slot
        guard minimum > target.pointee.capacity else { return }
        let capacity = exactly ? minimum : Swift.max(minimum, 2 * target.pointee.capacity, 16)
        target.pointee.items = Self.moved(target.pointee.items, count: target.pointee.count, to: capacity)
        target.pointee.capacity = capacity
    }

    /// A buffer of `capacity` holding the first `count` values of `old`, which it frees.
    ///
    /// - Complexity: O(`count`)
    @inlinable
    static func moved<Value>(_ old: UnsafeMutablePointer<Value>?, count: Int, to capacity: Int)
        -> UnsafeMutablePointer<Value>
    {
        let new = UnsafeMutablePointer<Value>.allocate(capacity: capacity)
        if let old {
            new.initialize(from: old, count: count)
            old.deallocate()
        }
        return new
    }
}
