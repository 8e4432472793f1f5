extension TimerWheel {
    /// Names one scheduled entry of the wheel that returned it.
    ///
    /// A handle is an entry index and the generation the entry had when it was scheduled.
    /// The wheel reuses the index once the entry falls due or is cancelled, with a new
    /// generation, so an old handle is recognised as stale rather than reaching the new
    /// entry. An index is retired after 32 767 uses instead of letting its generation come
    /// round, so no handle is ever mistaken for a later one. A handle also names the slot
    /// the entry was first filed in, where a cancel looks for its filing at the list's end.
    /// A handle belongs to the wheel that issued it.
    public struct Handle: Hashable, Sendable {
        /// The entry's index in the wheel's arrays.
        @usableFromInline let index: UInt32

        /// The entry's generation when it was scheduled: always odd.
        @usableFromInline let generation: UInt16

        /// The slot the entry was filed in when it was scheduled; it may have moved since.
        @usableFromInline let slot: UInt16

        /// A handle that names no entry, since no entry has generation 0: where a handle is
        /// kept for each of many things, 8 bytes a place, where an optional handle takes 12.
        @inlinable
        public static var nothing: Handle { Handle(index: 0, generation: 0, slot: 0) }

        /// Creates the handle of the entry at `index` in `generation`, filed in `slot`.
        ///
        /// - Complexity: O(1)
        @inlinable
        init(index: UInt32, generation: UInt16, slot: Int) {
            self.index = index
            self.generation = generation
            self.slot = UInt16(truncatingIfNeeded: slot)
        }
    }

    /// Whether `handle` names an entry that is still scheduled.
    ///
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    func isPending(_ handle: Handle) -> Bool {
        let index = Int(handle.index)
        // Handles carry odd generations only, so a match means the entry is scheduled.
        return index < used && generations[index] == handle.generation
    }
}
