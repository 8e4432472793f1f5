extension TimerWheel {
    #if DEBUG
        /// Walks every slot list and the free list, checking that the wheel is consistent.
        ///
        /// It checks that each list's links agree in both directions, that each scheduled entry
        /// sits in the slot its due time and the clock choose, that the bitmaps mark exactly the
        /// non-empty slots, that no slot lies behind the clock, that the current second's bound
        /// holds, and that every entry ever used is either scheduled once or free once.
        ///
        /// - Complexity: O(*n* + slots), where *n* is the number of entries ever used.
        @inline(never)
        public func _checkInvariants() {
            precondition(used <= storage.capacity, "\(used) entries used with room for \(storage.capacity)")
            let entries = storage.entries
            var seen = [Bool](repeating: false, count: used)
            var scheduled = 0
            for slot in 0..<Self.slotCount {
                let marker = Self.marker(ofSlot: slot)
                var previous = marker
                var entry = storage.slots[slot].first
                while entry != marker {
                    precondition(entry < Self.markerBase && Int(entry) < used, "Slot \(slot) links to \(entry)")
                    precondition(!seen[Int(entry)], "Entry \(entry) is reached twice")
                    seen[Int(entry)] = true
                    precondition(entries[Int(entry)].prev == previous, "Entry \(entry) has the wrong previous link")
                    precondition(
                        entries[Int(entry)].generation & 1 == 1, "Scheduled entry \(entry) has an even generation")
                    let due = entries[Int(entry)].due
                    let key = Swift.max(Self.second(of: due), elapsed)
                    precondition(
                        Self.slot(forKey: key, elapsed: elapsed) == slot,
                        "Entry \(entry) due at \(due) is in slot \(slot) at clock \(elapsed)")
                    if key == elapsed {
                        precondition(currentMinimum <= due, "The current second's bound is above entry \(entry)")
                    }
                    scheduled += 1
                    previous = entry
                    entry = entries[Int(entry)].next
                }
                precondition(storage.slots[slot].last == previous, "Slot \(slot) has the wrong last entry")
                if slot < Self.overflowSlot {
                    let marked = storage.occupied[slot >> Self.bitsPerLevel] & (1 << UInt64(slot & 63)) != 0
                    precondition(marked == (previous != marker), "Slot \(slot)'s occupancy bit is wrong")
                }
            }
            for level in 0..<Self.levelCount {
                let clockSlot = Int(truncatingIfNeeded: elapsed >> Int64(level * Self.bitsPerLevel)) & 63
                let behind = storage.occupied[level] & ((1 << UInt64(clockSlot)) - 1)
                precondition(behind == 0, "Level \(level) has occupied slots behind the clock")
            }
            precondition(
                scheduled == scheduledCount, "\(scheduled) entries are filed but the count is \(scheduledCount)")
            var free = firstFree
            while free != Self.noEntry {
                precondition(Int(free) < used && !seen[Int(free)], "Free entry \(free) is filed or freed twice")
                seen[Int(free)] = true
                precondition(entries[Int(free)].generation & 1 == 0, "Free entry \(free) has an odd generation")
                free = entries[Int(free)].next
            }
            precondition(!seen.contains(false), "An entry is neither scheduled nor free")
        }
    #else
        /// Does nothing in release builds; debug builds check the wheel's consistency.
        ///
        /// - Complexity: O(1)
        @inlinable
        @inline(__always)
        public func _checkInvariants() {}
    #endif
}
