extension TimerWheel {
    #if DEBUG
        /// Walks every slot list and the free stack, checking that the wheel is consistent.
        ///
        /// It checks that each scheduled entry has exactly one live filing, in the slot its due
        /// time and the clock choose, that the dead filings are as many as counted, that the
        /// bitmaps mark exactly the non-empty slots, that no slot lies behind the clock, that
        /// the current second's bound holds, and that every entry ever used is scheduled,
        /// free once (on the stack or as `latestFreed`), or retired.
        ///
        /// - Complexity: O(*n* + slots), where *n* is the number of entries ever used.
        @inline(never)
        public func _checkInvariants() {
            precondition(used <= capacity, "\(used) entries used with room for \(capacity)")
            precondition(freeCount <= freeCapacity, "\(freeCount) free entries with room for fewer")
            var filed = [Bool](repeating: false, count: used)
            var dead = 0
            for slot in 0..<Self.slotCount {
                let list = slots[slot]
                precondition(list.count <= list.capacity, "Slot \(slot) holds more items than its room")
                precondition(list.capacity == 0 || list.items != nil, "Slot \(slot) has room but no buffer")
                for position in 0..<list.count {
                    let item = list.items.unsafelyUnwrapped[position]
                    let index = Int(item.index)
                    precondition(index < used, "Slot \(slot) files entry \(index), never handed out")
                    precondition(item.generation & 1 == 1, "Slot \(slot) files entry \(index) under an even generation")
                    guard isLive(item) else {
                        dead += 1
                        continue
                    }
                    precondition(!filed[index], "Entry \(index) is filed twice")
                    filed[index] = true
                    let key = Swift.max(Self.second(of: item.due), elapsed)
                    precondition(
                        Self.slot(forKey: key, elapsed: elapsed) == slot,
                        "Entry \(index) due at \(item.due) is in slot \(slot) at clock \(elapsed)")
                    precondition(list.earliest <= item.due, "Slot \(slot)'s earliest due time is above entry \(index)")
                }
                precondition(
                    list.count > 0 || list.earliest == .max, "Slot \(slot) is empty but keeps an earliest due time")
                if slot < Self.overflowSlot {
                    let marked = occupied[slot >> Self.bitsPerLevel] & (1 << UInt64(slot & 63)) != 0
                    precondition(marked == (list.count > 0), "Slot \(slot)'s occupancy bit is wrong")
                }
            }
            for level in 0..<Self.levelCount {
                let clockSlot = Int(truncatingIfNeeded: elapsed >> Int64(level * Self.bitsPerLevel)) & 63
                let behind = occupied[level] & ((1 << UInt64(clockSlot)) - 1)
                precondition(behind == 0, "Level \(level) has occupied slots behind the clock")
            }
            precondition(dead == deadCount, "\(dead) dead filings but the count is \(deadCount)")
            var freed = [Bool](repeating: false, count: used)
            let stacked = (0..<freeCount).map { Int(free[$0]) }
            for index in stacked + (latestFreed == Self.noEntry ? [] : [Int(latestFreed)]) {
                precondition(index < used && !freed[index], "Free entry \(index) is out of range or freed twice")
                freed[index] = true
            }
            var scheduled = 0
            for index in 0..<used {
                let generation = generations[index]
                if generation & 1 == 1 {
                    precondition(filed[index], "Scheduled entry \(index) has no live filing")
                    precondition(!freed[index], "Scheduled entry \(index) is on the free stack")
                    scheduled += 1
                } else {
                    precondition(
                        freed[index] != (generation == Self.retiredGeneration),
                        "Entry \(index) in generation \(generation) is neither free once nor retired")
                }
            }
            precondition(
                scheduled == scheduledCount, "\(scheduled) entries are scheduled but the count is \(scheduledCount)")
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
