extension TimerWheel {
    /// An entry's two neighbours in its slot's list (or, once free, the next free entry) and
    /// its generation.
    ///
    /// The generation shares the links' column because cancelling reads both: one cache
    /// line per cancel rather than two.
    @usableFromInline
    struct Node {
        /// The next entry, or the slot's marker after the last one.
        @usableFromInline var next: UInt32

        /// The previous entry, or the slot's marker before the first one.
        @usableFromInline var prev: UInt32

        /// Odd while the entry is scheduled, even while it is free.
        @usableFromInline var generation: UInt32

        /// Creates a node.
        ///
        /// - Complexity: O(1)
        @inlinable
        init(next: UInt32, prev: UInt32, generation: UInt32) {
            self.next = next
            self.prev = prev
            self.generation = generation
        }
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

    /// The wheel's memory: the entry columns, the slot ends and the occupancy bitmaps.
    ///
    /// They live in one object, behind unchecked pointers, so that a mutation checks once
    /// whether the storage is shared (and copies it if so) instead of once per array access,
    /// and the innermost code pays no bounds checks; the wheel's invariants keep every index
    /// in bounds, and `_checkInvariants()` verifies them in tests. Every property is a
    /// constant, which spares each access a dynamic exclusivity check; growing replaces the
    /// whole object.
    @usableFromInline
    final class Storage {
        /// The entries the columns have room for.
        @usableFromInline let capacity: Int

        /// Each entry's due time in microseconds since the epoch.
        @usableFromInline let dues: UnsafeMutablePointer<Int64>

        /// Each entry's links and generation.
        @usableFromInline let nodes: UnsafeMutablePointer<Node>

        /// Each entry's element.
        @usableFromInline let elements: UnsafeMutablePointer<Element>

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
            dues = .allocate(capacity: capacity)
            nodes = .allocate(capacity: capacity)
            elements = .allocate(capacity: capacity)
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
            dues = .allocate(capacity: capacity)
            nodes = .allocate(capacity: capacity)
            elements = .allocate(capacity: capacity)
            slots = .allocate(capacity: TimerWheel.slotCount)
            occupied = .allocate(capacity: TimerWheel.levelCount)
            dues.initialize(from: other.dues, count: used)
            nodes.initialize(from: other.nodes, count: used)
            elements.initialize(from: other.elements, count: used)
            slots.initialize(from: other.slots, count: TimerWheel.slotCount)
            occupied.initialize(from: other.occupied, count: TimerWheel.levelCount)
        }

        deinit {
            // Every stored type is bitwise-copyable, so there is nothing to deinitialize.
            dues.deallocate()
            nodes.deallocate()
            elements.deallocate()
            slots.deallocate()
            occupied.deallocate()
        }

        /// The bytes allocated for the columns, the slot table and the bitmaps.
        ///
        /// - Complexity: O(1)
        @inlinable
        var byteCount: Int {
            capacity * (MemoryLayout<Int64>.stride + MemoryLayout<Node>.stride + MemoryLayout<Element>.stride)
                + TimerWheel.slotCount * MemoryLayout<Ends>.stride
                + TimerWheel.levelCount * MemoryLayout<UInt64>.stride
        }
    }

    /// Gives this wheel storage of its own before a mutation, copying it if another value
    /// shares it.
    ///
    /// - Complexity: O(1), or O(*n*) when the storage must be copied.
    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(copying: storage, used: used, capacity: storage.capacity)
        }
    }

    /// Makes room for at least `minimum` entries: exactly that many for a bulk build, and at
    /// least double the room when entries arrive one by one.
    ///
    /// - Complexity: O(1) when there is room, O(*n*) for *n* entries ever used otherwise.
    @inlinable
    mutating func reserve(_ minimum: Int, exactly: Bool) {
        guard minimum > storage.capacity else { return }
        let capacity = exactly ? minimum : Swift.max(minimum, 2 * storage.capacity, 16)
        storage = Storage(copying: storage, used: used, capacity: capacity)
    }
}
