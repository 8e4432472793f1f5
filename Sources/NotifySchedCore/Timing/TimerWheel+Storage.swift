extension TimerWheel {
    /// One entry: its exact due time, its two neighbours in its slot's list (or, once free,
    /// the next free entry), its generation and its element.
    ///
    /// They sit side by side because a cancel reads and writes all but the due time, and the
    /// schedule that follows reuses the entry it freed and writes the rest: one record, so
    /// the pair's own entry costs one cache miss rather than one per column.
    @usableFromInline
    struct Entry {
        /// The due time in microseconds since the epoch.
        @usableFromInline var due: Int64

        /// The next entry, or the slot's marker after the last one.
        @usableFromInline var next: UInt32

        /// The previous entry, or the slot's marker before the first one.
        @usableFromInline var prev: UInt32

        /// Odd while the entry is scheduled, even while it is free.
        @usableFromInline var generation: UInt32

        /// What the entry hands back when it falls due or is cancelled.
        @usableFromInline var element: Element
    }

    /// A slot's two ends: the first and the last entry of its list, or its own marker twice
    /// when it is empty.
    @usableFromInline
    struct Ends {
        /// The first entry, or the slot's marker.
        @usableFromInline var first: UInt32

        /// The last entry, or the slot's marker.
        @usableFromInline var last: UInt32

        /// Both ends at `value`: an empty slot's, when `value` is its marker.
        ///
        /// - Complexity: O(1)
        @inlinable
        init(bothAt value: UInt32) {
            first = value
            last = value
        }
    }

    /// The wheel's memory: the entries, the slot ends and the occupancy bitmaps.
    ///
    /// They live in one object, behind unchecked pointers, so that a mutation checks once
    /// whether the storage is shared (and copies it if so) instead of once per array access,
    /// and the innermost code pays no bounds checks; the wheel's invariants keep every index
    /// in bounds, and `_checkInvariants()` verifies them in tests. Every property is a
    /// constant, which spares each access a dynamic exclusivity check; growing replaces the
    /// whole object.
    @usableFromInline
    final class Storage {
        /// The entries there is room for.
        @usableFromInline let capacity: Int

        /// The entries.
        @usableFromInline let entries: UnsafeMutablePointer<Entry>

        /// Each slot's ends, `slotCount` of them.
        @usableFromInline let slots: UnsafeMutablePointer<Ends>

        /// One word per level, one bit per slot: set when the slot's list is not empty.
        @usableFromInline let occupied: UnsafeMutablePointer<UInt64>

        /// Empty storage with room for `capacity` entries.
        ///
        /// - Complexity: O(slots)
        @inlinable
        init(capacity: Int) {
            self.capacity = capacity
            entries = .allocate(capacity: capacity)
            slots = .allocate(capacity: TimerWheel.slotCount)
            occupied = .allocate(capacity: TimerWheel.levelCount)
            for slot in 0..<TimerWheel.slotCount {
                (slots + slot).initialize(to: Ends(bothAt: TimerWheel.marker(ofSlot: slot)))
            }
            occupied.initialize(repeating: 0, count: TimerWheel.levelCount)
        }

        /// A copy of the first `used` entries of `other` and of its slot table, with room
        /// for `capacity` entries: for a wheel about to change while another value shares
        /// its storage, or that needs more room.
        ///
        /// - Complexity: O(`used` + slots)
        @inlinable
        init(copying other: Storage, used: Int, capacity: Int) {
            self.capacity = capacity
            entries = .allocate(capacity: capacity)
            slots = .allocate(capacity: TimerWheel.slotCount)
            occupied = .allocate(capacity: TimerWheel.levelCount)
            entries.initialize(from: other.entries, count: used)
            slots.initialize(from: other.slots, count: TimerWheel.slotCount)
            occupied.initialize(from: other.occupied, count: TimerWheel.levelCount)
        }

        deinit {
            // Every stored type is bitwise-copyable, so there is nothing to deinitialize.
            entries.deallocate()
            slots.deallocate()
            occupied.deallocate()
        }

        /// The bytes allocated for the entries, the slot table and the bitmaps.
        ///
        /// - Complexity: O(1)
        @inlinable
        var byteCount: Int {
            capacity * MemoryLayout<Entry>.stride + TimerWheel.slotCount * MemoryLayout<Ends>.stride
                + TimerWheel.levelCount * MemoryLayout<UInt64>.stride
        }
    }

    /// Gives this wheel storage of its own before a mutation, copying it if another value
    /// shares it.
    ///
    /// - Complexity: O(1), or O(*n*) when the storage must be copied.
    @inlinable
    @inline(__always)
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { copyStorage(capacity: storage.capacity) }
    }

    /// Makes room for at least `minimum` entries: exactly that many for a bulk build, and at
    /// least double the room when entries arrive one by one.
    ///
    /// - Complexity: O(1) when there is room, O(*n*) for *n* entries ever used otherwise.
    @inlinable
    mutating func reserve(_ minimum: Int, exactly: Bool) {
        guard minimum > storage.capacity else { return }
        copyStorage(capacity: exactly ? minimum : Swift.max(minimum, 2 * storage.capacity, 16))
    }

    /// Replaces the storage with a copy that has room for `capacity` entries; out of line,
    /// to keep it out of the hot paths it guards.
    ///
    /// - Complexity: O(*n* + slots), for *n* entries ever used.
    @inlinable
    @inline(never)
    mutating func copyStorage(capacity: Int) {
        storage = Storage(copying: storage, used: used, capacity: capacity)
    }
}
