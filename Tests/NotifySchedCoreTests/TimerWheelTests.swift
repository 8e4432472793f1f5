import NotifySchedCore
import NotifySchedTesting
import Testing

/// Hands `value` to `#expect` and `#require` as a plain value. Their macros take a member
/// access or a call apart to show its parts, which needs a copyable base; the wheel is not.
private func read<Value>(_ value: Value) -> Value { value }

@Suite struct TimerWheelTests {
    typealias Wheel = TimerWheel<Int>
    typealias Entry = ReferenceTimerQueue.Entry

    // MARK: Against the reference model

    /// Clocks to start from: today, around 2^32 seconds, just before a top-level block
    /// boundary (2^36), before the epoch, and far out.
    static let startSeconds: [Int64] = [
        1_767_225_600, (1 << 32) - 300, (1 << 36) - 5000, -86_400, 1 << 39, 1_700_000_000, -(1 << 37), 12_345,
    ]

    @Test(.computeThreads, arguments: zip(0..<UInt64(startSeconds.count), startSeconds))
    func agreesWithSortedArrayModelOverRandomOperations(seed: UInt64, startSecond: Int64) throws {
        try runRandomOperations(seed: 0x71AE_0000 + seed, startSecond: startSecond, operations: 100_000)
    }

    /// Drives a wheel and the model with the same random operations, comparing every answer.
    private func runRandomOperations(seed: UInt64, startSecond: Int64, operations: Int) throws {
        var random = SplitMix64(seed: seed)
        var now = Instant(secondsSinceEpoch: startSecond) + microseconds(random.next() % 1_000_000)
        var wheel = Wheel(now: now)
        var model = ReferenceTimerQueue()
        var pending = PendingEntries()
        var stale: [Wheel.Handle] = []
        var serial = 0

        func newEntry(element: Int? = nil) -> Entry {
            defer { serial += 1 }
            let due = randomDue(after: now, pending: pending, using: &random)
            return Entry(due: due, serial: serial, element: element ?? serial)
        }
        func retire(_ handle: Wheel.Handle) {
            if stale.count < 64 { stale.append(handle) } else { stale[Int(random.next() % 64)] = handle }
        }

        for step in 0..<operations {
            // Bias towards removal while many entries are pending, so the model stays small.
            let crowded = pending.count > 1500
            switch random.next() % 100 {
            case 0..<36 where !crowded:
                let entry = newEntry()
                let handle = wheel.schedule(entry.element, at: entry.due)
                if random.next() % 4 == 0 {
                    // A timeout called off at once: its filing is still the last of its slot.
                    try #require(read(wheel.cancel(handle)), "a handle cancels the entry just scheduled")
                    retire(handle)
                } else {
                    pending.add(entry, handle)
                    model.schedule(entry)
                }
            case 0..<54 where !pending.isEmpty:
                let (entry, handle) = pending.removeRandom(using: &random)
                try #require(read(wheel.cancel(handle)), "a pending handle cancels its entry")
                model.cancel(entry)
                retire(handle)
            case 54..<58 where !stale.isEmpty:
                let handle = stale[Int(random.next() % UInt64(stale.count))]
                let cancelled = wheel.cancel(handle)
                let rescheduled = wheel.reschedule(handle, -1, to: now)
                try #require(!cancelled, "a stale handle cancels nothing")
                try #require(rescheduled == nil, "a stale handle reschedules nothing")
                try #require(!read(wheel.contains(handle)), "a stale handle is not pending")
            case 58..<68 where !pending.isEmpty:
                // Rescheduling counts as scheduling anew: the entry takes a new serial.
                let (old, handle) = pending.removeRandom(using: &random)
                let entry = newEntry(element: old.element)
                let moved = try #require(read(wheel.reschedule(handle, entry.element, to: entry.due)))
                try #require(!read(wheel.contains(handle)), "the old handle goes stale")
                model.cancel(old)
                model.schedule(entry)
                pending.add(entry, moved)
                retire(handle)
            case 68..<70 where !crowded:
                let batch = (0..<Int(random.next() % 40)).map { _ in newEntry() }
                let handles = wheel.schedule(contentsOf: batch.map { (due: $0.due, element: $0.element) })
                for (entry, handle) in zip(batch, handles) {
                    pending.add(entry, handle)
                    model.schedule(entry)
                }
            case 98..<100:
                now = now - microseconds(random.next() % (1 << 12) * 1_000_000 + random.next() % 1_000_000)
                if random.next() & 1 == 0 { wheel.rewind(to: now) }
            default:
                now = randomAdvance(from: now, model: model, wheel: wheel, using: &random)
                let fired = wheel.advance(to: now)
                let expected = model.advance(to: now)
                try #require(
                    fired.map(\.element) == expected.map(\.element) && fired.map(\.due) == expected.map(\.due),
                    "advance(to: \(now.microseconds)) hands over what the model does")
                for entry in expected { retire(pending.remove(element: entry.element)) }
                if let deadline = wheel.nextDeadline {
                    try #require(deadline > now, "after advancing, the next deadline lies ahead")
                }
            }
            if let earliest = model.earliest {
                let deadline = try #require(read(wheel.nextDeadline), "a non-empty wheel has a deadline")
                try #require(deadline <= earliest.due, "the deadline is never after the earliest due time")
            } else {
                try #require(read(wheel.nextDeadline) == nil, "an empty wheel has no deadline")
            }
            if step % 1000 == 0 {
                wheel._checkInvariants()
                try #require(read(wheel.count) == model.entries.count, "the wheel counts what the model holds")
            }
        }
        wheel._checkInvariants()
        let end = Instant(microseconds: .max)
        let rest = wheel.advance(to: end)
        let expected = model.advance(to: end)
        #expect(rest.map(\.element) == expected.map(\.element), "the far future hands over everything left")
        #expect(read(wheel.isEmpty))
        wheel._checkInvariants()
    }

    /// A due time spread over every level, the horizon and beyond, overdue times and ties.
    private func randomDue(after now: Instant, pending: PendingEntries, using random: inout SplitMix64) -> Instant {
        let fraction = Int64(random.next() % 1_000_000)
        switch random.next() % 20 {
        case 0..<5: return now + microseconds(random.next() % 6_000_000) - .seconds(3)
        case 5..<10: return Instant(secondsSinceEpoch: now.secondsSinceEpoch + Int64(random.next() % 130))
        case 10..<13: return now + .seconds(Int64(random.next() % (1 << 13))) + TimeSpan(microseconds: fraction)
        case 13..<15: return now + .seconds(Int64(random.next() % (1 << 26)))
        case 15:
            // Near a level boundary: the last seconds before and the first after 64^k.
            let span = Int64(1) << (6 * Int64(1 + random.next() % 6))
            let boundary = (now.secondsSinceEpoch | (span - 1)) + 1
            return Instant(secondsSinceEpoch: boundary + Int64(random.next() % 5) - 2)
        case 16: return now + .seconds(Int64(random.next() % (1 << 36)))
        case 17: return now + .seconds(Int64(1 << 36) + Int64(random.next() % (1 << 40)))
        case 18: return pending.randomDue(using: &random) ?? now
        default: return now - .seconds(Int64(random.next() % (1 << 20))) + TimeSpan(microseconds: fraction)
        }
    }

    /// A later `now`: mostly by a second or a minute, sometimes to the next due time, rarely
    /// by days or by more than the horizon.
    private func randomAdvance(
        from now: Instant, model: ReferenceTimerQueue, wheel: borrowing Wheel, using random: inout SplitMix64
    ) -> Instant {
        switch random.next() % 40 {
        case 0..<20: return now + microseconds(random.next() % 1_500_000)
        case 20..<32: return now + microseconds(random.next() % 100_000_000)
        case 32..<35: return max(now, model.earliest?.due ?? now)
        case 35..<38: return max(now, wheel.nextDeadline ?? now)
        case 38: return now + .seconds(Int64(random.next() % (1 << 22)))
        default:
            // Keeps the clock far from the end of `Instant`'s range.
            guard now.secondsSinceEpoch < 1 << 40 else { return now }
            return now + .seconds(Int64(random.next() % (1 << 37)))
        }
    }

    private func microseconds(_ value: UInt64) -> TimeSpan {
        TimeSpan(microseconds: Int64(value))
    }

    // MARK: Edges

    @Test func entriesAtLevelBoundariesFallDueOnTheirSecond() {
        let starts: [Int64] = [0, 1_767_225_600, (1 << 32) - 1, 63, 4095, 262_143]
        for start in starts {
            let now = Instant(secondsSinceEpoch: start)
            var wheel = Wheel(now: now)
            var offsets: [Int64] = []
            for bits in stride(from: Int64(6), through: 36, by: 6) {
                offsets += [(1 << bits) - 1, 1 << bits, (1 << bits) + 1]
            }
            for (serial, offset) in offsets.enumerated() {
                wheel.schedule(serial, at: now + .seconds(offset))
            }
            wheel._checkInvariants()
            let fired = drainByDeadlines(&wheel, from: now)
            #expect(
                fired.map(\.due) == offsets.map { now + .seconds($0) },
                "from \(start), each entry falls due on its second, in order")
            #expect(fired.map(\.element) == Array(offsets.indices))
        }
    }

    @Test func entriesAcross2To32SecondsKeepTheirOrder() {
        let now = Instant(secondsSinceEpoch: (1 << 32) - 70)
        var wheel = Wheel(now: now)
        let dues = [-1, 0, 1, 64, 4096].map { Instant(secondsSinceEpoch: (1 << 32) + $0) }
        for (serial, due) in dues.enumerated().reversed() { wheel.schedule(serial, at: due) }
        let fired = drainByDeadlines(&wheel, from: now)
        #expect(fired.map(\.due) == dues)
        #expect(fired.map(\.element) == [0, 1, 2, 3, 4])
    }

    @Test func entriesPastTheHorizonWaitForTheNextBlockAndStillFallDueOnTime() {
        let horizon: Int64 = 1 << 36
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = Wheel(now: now)
        let lastInBlock = Instant(secondsSinceEpoch: horizon - 1)
        let firstBeyond = Instant(secondsSinceEpoch: horizon)
        let farBeyond = Instant(secondsSinceEpoch: 5 * horizon + 17)
        let end = Instant(microseconds: .max)
        wheel.schedule(3, at: end)
        wheel.schedule(2, at: farBeyond)
        wheel.schedule(1, at: firstBeyond)
        wheel.schedule(0, at: lastInBlock)
        wheel._checkInvariants()
        #expect(read(wheel.advance(to: lastInBlock - .seconds(1))).isEmpty)
        #expect(read(wheel.advance(to: lastInBlock)).map(\.element) == [0])
        #expect(read(wheel.nextDeadline) == firstBeyond, "the next block's start is the deadline of what waits beyond")
        #expect(read(wheel.advance(to: firstBeyond)).map(\.element) == [1])
        wheel._checkInvariants()
        #expect(read(wheel.advance(to: farBeyond - TimeSpan(microseconds: 1))).isEmpty)
        #expect(read(wheel.advance(to: farBeyond)).map(\.element) == [2])
        #expect(read(wheel.advance(to: end)).map(\.due) == [end])
        #expect(read(wheel.isEmpty))
    }

    @Test func aDeadlineFarBeyondTheHorizonIsTheNextBlocksStart() {
        let now = Instant(secondsSinceEpoch: 100)
        var wheel = Wheel(now: now)
        wheel.schedule(0, at: Instant(secondsSinceEpoch: 3 << 36))
        #expect(read(wheel.nextDeadline) == Instant(secondsSinceEpoch: 1 << 36))
        wheel._checkInvariants()
        let fired = drainByDeadlines(&wheel, from: now)
        #expect(fired.map(\.due) == [Instant(secondsSinceEpoch: 3 << 36)])
    }

    @Test func overdueEntriesComeOutOfTheNextAdvanceInDueOrder() {
        let now = Instant(secondsSinceEpoch: 1_000_000)
        var wheel = Wheel(now: now)
        wheel.schedule(0, at: now + .seconds(10))
        wheel.schedule(1, at: now - .days(400))
        wheel.schedule(2, at: now - .seconds(5))
        wheel.schedule(3, at: now)
        #expect(read(wheel.nextDeadline) == now - .days(400), "the earliest overdue time is the deadline")
        wheel._checkInvariants()
        let fired = wheel.advance(to: now)
        #expect(fired.map(\.element) == [1, 2, 3])
        #expect(fired.map(\.due) == [now - .days(400), now - .seconds(5), now])
        #expect(read(wheel.nextDeadline) == now + .seconds(10))
    }

    @Test func entriesWithinOneSecondComeOutByMicrosecondAndTiesByScheduling() {
        let second = Instant(secondsSinceEpoch: 5000)
        var wheel = Wheel(now: Instant(secondsSinceEpoch: 4000))
        let offsets: [Int64] = [900_000, 5, 900_000, 0, 5, 999_999, 0]
        for (serial, offset) in offsets.enumerated() {
            wheel.schedule(serial, at: second + TimeSpan(microseconds: offset))
        }
        let fired = wheel.advance(to: second + .seconds(1))
        #expect(fired.map(\.element) == [3, 6, 1, 4, 0, 2, 5])
    }

    @Test func tiesComeOutInSchedulingOrderEvenWhenScheduledAtDifferentLevels() {
        let due = Instant(secondsSinceEpoch: 1_000_000)
        var wheel = Wheel(now: due - .days(30))
        // The same due time filed from ever closer clocks, so at ever lower levels.
        let leads: [TimeSpan] = [.days(30), .days(3), .hours(6), .minutes(20), .seconds(50), .seconds(1)]
        for (serial, lead) in leads.enumerated() {
            #expect(read(wheel.advance(to: due - lead)).isEmpty)
            wheel.schedule(serial, at: due)
            wheel.schedule(100 + serial, at: due + TimeSpan(microseconds: 1))
        }
        wheel._checkInvariants()
        let fired = wheel.advance(to: due + .seconds(1))
        #expect(fired.map(\.element) == [0, 1, 2, 3, 4, 5, 100, 101, 102, 103, 104, 105])
    }

    @Test func advanceHandsOverEverythingDueInDueOrderAcrossLevels() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = Wheel(now: now)
        var random = SplitMix64(seed: 42)
        var dues: [Instant] = []
        for serial in 0..<5000 {
            let due = now + TimeSpan(microseconds: Int64(random.next() % (90 * 86_400_000_000)))
            dues.append(due)
            wheel.schedule(serial, at: due)
        }
        let cut = now + .days(45)
        let fired = wheel.advance(to: cut)
        #expect(fired.map(\.due) == dues.filter { $0 <= cut }.sorted())
        #expect(read(wheel.count) == dues.filter { $0 > cut }.count)
        wheel._checkInvariants()
    }

    // MARK: Handles

    @Test func cancellingAFiredOrCancelledHandleDoesNothing() {
        let now = Instant(secondsSinceEpoch: 1000)
        var wheel = Wheel(now: now)
        let fired = wheel.schedule(1, at: now + .seconds(1))
        let cancelled = wheel.schedule(2, at: now + .seconds(2))
        let kept = wheel.schedule(3, at: now + .seconds(3))
        #expect(read(wheel.cancel(cancelled)))
        #expect(read(wheel.advance(to: now + .seconds(1))).map(\.element) == [1])
        #expect(!read(wheel.cancel(fired)), "a fired handle is stale")
        #expect(!read(wheel.cancel(cancelled)), "a cancelled handle is stale")
        // The freed entries are reused; the old handles must not reach the new entries.
        let reused = [wheel.schedule(4, at: now + .seconds(4)), wheel.schedule(5, at: now + .seconds(5))]
        #expect(!read(wheel.cancel(fired)) && !read(wheel.cancel(cancelled)))
        #expect(
            read(wheel.reschedule(fired, 1, to: now)) == nil && read(wheel.reschedule(cancelled, 2, to: now)) == nil)
        #expect(read(wheel.count) == 3)
        #expect(reused.allSatisfy { wheel.contains($0) } && read(wheel.contains(kept)))
        wheel._checkInvariants()
        #expect(read(wheel.advance(to: now + .seconds(9))).map(\.element) == [3, 4, 5])
    }

    @Test func rescheduleMovesAnEntryUnderANewHandle() throws {
        let now = Instant(secondsSinceEpoch: 1000)
        var wheel = Wheel(now: now)
        let original = wheel.schedule(0, at: now + .days(300))
        wheel.schedule(1, at: now + .seconds(30))
        let moved = try #require(read(wheel.reschedule(original, 0, to: now + .seconds(10))))
        #expect(
            !read(wheel.contains(original)) && read(wheel.contains(moved)),
            "the old handle goes stale, the new one holds")
        #expect(read(wheel.count) == 2)
        wheel._checkInvariants()
        #expect(read(wheel.advance(to: now + .seconds(10))).map(\.element) == [0])
        #expect(read(wheel.reschedule(moved, 0, to: now)) == nil, "a fired entry cannot be rescheduled")
        let later = wheel.schedule(2, at: now + .seconds(30))
        #expect(read(wheel.reschedule(later, 2, to: now + .seconds(30))) != nil)
        wheel.schedule(3, at: now + .seconds(30))
        #expect(read(wheel.advance(to: now + .seconds(30))).map(\.element) == [1, 2, 3], "a rescheduled tie goes last")
    }

    @Test func reschedulingBackAndForthBetweenSlotsFiresTheEntryOnceAsScheduledLast() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = Wheel(now: now)
        let near = now + .minutes(3)
        let far = now + .days(2)
        var bouncing: Wheel.Handle? = wheel.schedule(0, at: near)
        for serial in 1...3 { wheel.schedule(serial, at: near) }
        for _ in 0..<50 {
            bouncing = bouncing.flatMap { wheel.reschedule($0, 0, to: far) }
            bouncing = bouncing.flatMap { wheel.reschedule($0, 0, to: near) }
            wheel._checkInvariants()
        }
        bouncing = bouncing.flatMap { wheel.reschedule($0, 0, to: near) }
        #expect(bouncing != nil, "rescheduling in place moves it behind its ties")
        #expect(read(wheel.count) == 4)
        #expect(read(wheel.advance(to: far)).map(\.element) == [1, 2, 3, 0])
        #expect(read(wheel.isEmpty))
    }

    @Test func cancellingEveryEntryOfASlotCostsAtMostOneEmptyWakeUp() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = TimerWheel<UInt32>(now: now)
        let handles = (0..<40).map { wheel.schedule(UInt32($0), at: now + .days(20) + .seconds(Int64($0))) }
        let kept = wheel.schedule(100, at: now + .days(200))
        for handle in handles { wheel.cancel(handle) }
        wheel._checkInvariants()
        // The cancelled filings still mark their slot: advancing there hands over nothing
        // and drops them, and the deadline moves on to the entry still pending.
        let early = wheel.nextDeadline!
        #expect(early <= now + .days(20), "the deadline is never late, so it may be early")
        #expect(read(wheel.advance(to: early)).isEmpty)
        #expect(
            read(wheel.nextDeadline)! > now + .days(21), "once reached, the emptied slot no longer sets the deadline")
        wheel._checkInvariants()
        wheel.cancel(kept)
        wheel._checkInvariants()
        #expect(read(wheel.advance(to: now + .days(201))).isEmpty)
        #expect(read(wheel.nextDeadline) == nil)
        wheel._checkInvariants()
    }

    @Test func aTimeoutCalledOffAtOnceLeavesNothingBehind() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = TimerWheel<UInt32>(now: now)
        let kept = wheel.schedule(0, at: now + .days(200))
        let deadline = wheel.nextDeadline
        wheel.cancel(wheel.schedule(1, at: now + .seconds(30)))
        let storage = wheel.storageByteCount
        for serial in 2..<10_000 { wheel.cancel(wheel.schedule(UInt32(serial), at: now + .seconds(30))) }
        wheel._checkInvariants()
        #expect(read(wheel.storageByteCount) == storage, "each cancel took its filing back")
        #expect(read(wheel.nextDeadline) == deadline, "the emptied slot does not set the deadline")
        #expect(read(wheel.cancel(kept)))
        #expect(read(wheel.nextDeadline) == nil)
    }

    @Test func aSlotEmptiedByACancelDoesNotKeepItsEarliestDueTime() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = TimerWheel<UInt32>(now: now)
        // Overdue, so filed in the clock's slot, and called off at once.
        wheel.cancel(wheel.schedule(0, at: now - .days(3)))
        _ = wheel.advance(to: now + .seconds(64 * 5))
        // The same level-0 slot, a later second.
        let due = now + .seconds(64 * 5 + 64) + TimeSpan(microseconds: 250_000)
        wheel.schedule(1, at: due)
        wheel._checkInvariants()
        #expect(read(wheel.nextDeadline) == due, "not the cancelled entry's long-past due time")
        #expect(read(wheel.advance(to: due)).map(\.element) == [1])
    }

    @Test func cancellingAnEntryAfterItMovedDownALevelStillCancelsIt() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = TimerWheel<UInt32>(now: now)
        wheel.schedule(0, at: now + .seconds(100))
        let moving = wheel.schedule(1, at: now + .seconds(101))
        // Reaching their slot's start files both entries one level down, each in a slot of
        // its own: the cancel no longer finds the entry where its handle says it was filed.
        #expect(read(wheel.advance(to: now + .seconds(64))).isEmpty)
        #expect(read(wheel.cancel(moving)))
        wheel._checkInvariants()
        #expect(!read(wheel.contains(moving)))
        #expect(read(wheel.advance(to: now + .days(1))).map(\.element) == [0])
    }

    @Test func aSweepDropsDeadFilingsOnceTheyOutnumberHalfTheEntries() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = TimerWheel<UInt32>(now: now)
        let due = { (serial: Int) in now + .days(20) + .seconds(Int64(serial)) }
        let handles = wheel.schedule(contentsOf: (0..<1000).map { (due: due($0), element: UInt32($0)) })
        let built = wheel.storageByteCount
        // The 377th cancel sweeps: 377 dead filings are more than 623 / 2 + 64.
        for handle in handles.prefix(377) { wheel.cancel(handle) }
        wheel._checkInvariants()
        for serial in 1000..<1377 { wheel.schedule(UInt32(serial), at: due(serial)) }
        wheel._checkInvariants()
        // Without the sweep the slot's buffer of 1000 filings would have doubled.
        #expect(read(wheel.storageByteCount) < built + 10_000, "the new entries fill the room the sweep made")
        let fired = wheel.advance(to: due(2000))
        #expect(fired.map(\.element) == Array(377..<1377).map(UInt32.init), "the survivors keep their order")
    }

    @Test func anEntryIsRetiredBeforeItsGenerationComesRound() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = TimerWheel<UInt32>(now: now)
        let first = wheel.schedule(0, at: now + .hours(1))
        var handle = first
        // Each schedule and cancel of entry 0 takes two of its 65 534 usable generations.
        for _ in 0..<32_766 {
            wheel.cancel(handle)
            handle = wheel.schedule(0, at: now + .hours(1))
        }
        wheel.cancel(handle)
        let fresh = wheel.schedule(1, at: now + .hours(1))
        #expect(
            fresh != first && !read(wheel.contains(first)) && !read(wheel.contains(handle)), "no old handle comes back")
        #expect(read(wheel.count) == 1)
        wheel._checkInvariants()
        #expect(read(wheel.advance(to: now + .hours(1))).map(\.element) == [1])
    }

    @Test func cancelAndScheduleChurnKeepsStorageBoundedAndEntriesInOrder() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        let count = 20_000
        var random = SplitMix64(seed: 11)
        func randomDue() -> Instant { now + TimeSpan(microseconds: Int64(random.next() % (30 * 86_400_000_000))) }
        var wheel = TimerWheel<UInt32>(now: now)
        var dues = (0..<count).map { _ in randomDue() }
        var handles = wheel.schedule(contentsOf: dues.enumerated().map { (due: $1, element: UInt32($0)) })
        let built = wheel.storageByteCount
        for step in 0..<(5 * count) {
            let victim = Int(random.next() % UInt64(count))
            #expect(read(wheel.cancel(handles[victim])))
            dues[victim] = randomDue()
            handles[victim] = wheel.schedule(UInt32(victim), at: dues[victim])
            if step % 25_000 == 0 { wheel._checkInvariants() }
        }
        // Live and dead filings together stay under 1.5 times the entries, plus the slack of
        // buffers that doubled.
        #expect(
            read(wheel.storageByteCount) <= 3 * built, "\(wheel.storageByteCount) bytes after the churn, \(built) built"
        )
        wheel._checkInvariants()
        let fired = wheel.advance(to: now + .days(31))
        #expect(fired.map(\.due) == dues.sorted(), "every entry falls due once, in order")
    }

    // MARK: Deadlines

    @Test func aFarEntryWakesTheWheelOnceAtItsDueTime() {
        let now = Instant(secondsSinceEpoch: 1000) + TimeSpan(microseconds: 200_000)
        var wheel = Wheel(now: now)
        #expect(read(wheel.nextDeadline) == nil)
        wheel.schedule(0, at: now + TimeSpan(microseconds: 500_000))
        #expect(read(wheel.nextDeadline) == now + TimeSpan(microseconds: 500_000))
        for far in [now + .seconds(90) + TimeSpan(microseconds: 1), now + .days(3) + .seconds(7), now + .days(900)] {
            var distant = Wheel(now: now)
            distant.schedule(0, at: far)
            #expect(read(distant.nextDeadline) == far, "the deadline is the due time, not a slot boundary")
            #expect(read(distant.advance(to: far)).map(\.due) == [far], "one wake-up cascades and hands it over")
        }
    }

    /// With no cancel (nothing left behind to wake for), the deadline is always exactly the
    /// earliest due time, at every level and after every advance: one wake-up per firing.
    @Test(.computeThreads, arguments: zip(0..<UInt64(startSeconds.count), startSeconds))
    func nextDeadlineIsTheEarliestDueTimeWhenNothingWasCancelled(seed: UInt64, startSecond: Int64) throws {
        var random = SplitMix64(seed: 0xDEAD_0000 + seed)
        var now = Instant(secondsSinceEpoch: startSecond) + microseconds(random.next() % 1_000_000)
        var wheel = Wheel(now: now)
        var model = ReferenceTimerQueue()
        var serial = 0
        for _ in 0..<50_000 {
            if random.next() % 3 != 0 || model.entries.isEmpty {
                // Spread over every level: up to 2^(6..36) seconds ahead, any microsecond.
                let bits = 6 * (1 + random.next() % 6)
                let due = now + microseconds(random.next() % ((1 << bits) * 1_000_000))
                wheel.schedule(serial, at: due)
                model.schedule(Entry(due: due, serial: serial, element: serial))
                serial += 1
            } else {
                now =
                    random.next() % 2 == 0
                    ? max(now, wheel.nextDeadline ?? now) : now + microseconds(random.next() % 90_000_000)
                let fired = wheel.advance(to: now)
                try #require(
                    fired.map(\.element) == model.advance(to: now).map(\.element), "seed \(seed): fires as the model")
            }
            guard let earliest = model.earliest?.due else { continue }
            // Beyond the levels' horizon the deadline is the next block's start.
            let horizon = Instant(secondsSinceEpoch: (now.secondsSinceEpoch | ((1 << 36) - 1)) + 1)
            try #require(
                read(wheel.nextDeadline) == min(earliest, horizon),
                "seed \(seed): the deadline is the earliest due time \(earliest.microseconds)")
        }
        wheel._checkInvariants()
    }

    // MARK: Bulk build and storage

    @Test func bulkBuildMatchesSchedulingOneByOne() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var random = SplitMix64(seed: 7)
        let entries = (0..<20_000).map { serial in
            (due: now + TimeSpan(microseconds: Int64(random.next() % (1 << 45))) - .hours(1), element: serial)
        }
        var built = Wheel(now: now)
        let handles = built.schedule(contentsOf: entries)
        var oneByOne = Wheel(now: now)
        for entry in entries { oneByOne.schedule(entry.element, at: entry.due) }
        built._checkInvariants()
        #expect(read(built.count) == entries.count)
        #expect(handles.count == entries.count && handles.allSatisfy { built.contains($0) })
        for handle in handles.prefix(100) { built.cancel(handle) }
        for entry in entries.prefix(100) { oneByOne.cancel(handles[entry.element]) }
        let end = now + .days(400)
        #expect(read(built.advance(to: end)).map(\.element) == read(oneByOne.advance(to: end)).map(\.element))
        built._checkInvariants()
    }

    @Test func storageIs22BytesPerEntryWithA4ByteElementPlusAFixedTable() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        let count = 100_000
        var wheel = TimerWheel<UInt32>(now: now)
        wheel.schedule(contentsOf: (0..<count).map { (due: now + .seconds(Int64($0)), element: UInt32($0)) })
        // The fixed part: the slot table (9 KB) and the bitmaps.
        let fixed = 16 * 1024
        #expect(
            read(wheel.storageByteCount) <= 22 * count + fixed, "\(wheel.storageByteCount) bytes for \(count) entries")
    }

    // MARK: Backward steps of the clock

    @Test func aBackwardStepFiresNothingEarlyWithOrWithoutRewind() {
        let start = Instant(secondsSinceEpoch: 1_767_225_600)
        let stepped = start - .hours(2)
        var plain = Wheel(now: start)
        var rewound = Wheel(now: start)
        plain.schedule(0, at: start + .seconds(30))
        rewound.schedule(0, at: start + .seconds(30))
        #expect(read(plain.advance(to: start + .minutes(1))).map(\.element) == [0])
        #expect(read(rewound.advance(to: start + .minutes(1))).map(\.element) == [0])
        rewound.rewind(to: stepped)
        rewound._checkInvariants()
        // Scheduled after the step: due between the new time and the wheel's old clock.
        for serial in 1...3 {
            plain.schedule(serial, at: stepped + .minutes(Int64(serial * 20)))
            rewound.schedule(serial, at: stepped + .minutes(Int64(serial * 20)))
        }
        #expect(read(plain.advance(to: stepped + .minutes(30))).map(\.element) == [1])
        #expect(read(rewound.advance(to: stepped + .minutes(30))).map(\.element) == [1])
        #expect(read(rewound.nextDeadline) == stepped + .minutes(40), "after a rewind the deadline is exact again")
        #expect((read(plain.nextDeadline) ?? start) <= stepped + .minutes(40), "without it the deadline is never late")
        plain._checkInvariants()
        rewound._checkInvariants()
        #expect(read(plain.advance(to: start)).map(\.element) == [2, 3])
        #expect(read(rewound.advance(to: start)).map(\.element) == [2, 3])
    }

    @Test func rewindKeepsHandlesAndTheOrderOfTies() {
        let now = Instant(secondsSinceEpoch: 1_767_225_600)
        var wheel = Wheel(now: now)
        let due = now + .days(20)
        let handles = (0..<5).map { wheel.schedule($0, at: due) }
        #expect(read(wheel.advance(to: due - .seconds(3))).isEmpty)
        wheel.rewind(to: now - .days(1))
        wheel._checkInvariants()
        #expect(read(wheel.cancel(handles[1])), "handles outlive a rewind")
        #expect(read(wheel.advance(to: due)).map(\.element) == [0, 2, 3, 4])
    }

    /// Advances from deadline to deadline until the wheel is empty, as the daemon does.
    private func drainByDeadlines(_ wheel: inout Wheel, from now: Instant) -> [(due: Instant, element: Int)] {
        var fired: [(due: Instant, element: Int)] = []
        var clock = now
        while let deadline = wheel.nextDeadline {
            precondition(deadline >= clock, "deadlines never move back")
            clock = deadline
            let batch = wheel.advance(to: deadline)
            #expect(batch.allSatisfy { $0.due <= deadline }, "nothing falls due early")
            fired += batch
            wheel._checkInvariants()
        }
        return fired
    }
}

/// The test's bookkeeping of pending entries: each one's model entry and wheel handle, with
/// removal of a random one in O(1).
private struct PendingEntries {
    private var entries: [(entry: ReferenceTimerQueue.Entry, handle: TimerWheel<Int>.Handle)] = []
    private var positionOfElement: [Int: Int] = [:]

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    mutating func add(_ entry: ReferenceTimerQueue.Entry, _ handle: TimerWheel<Int>.Handle) {
        positionOfElement[entry.element] = entries.count
        entries.append((entry, handle))
    }

    func randomDue(using random: inout SplitMix64) -> Instant? {
        entries.isEmpty ? nil : entries[Int(random.next() % UInt64(entries.count))].entry.due
    }

    mutating func removeRandom(
        using random: inout SplitMix64
    ) -> (entry: ReferenceTimerQueue.Entry, handle: TimerWheel<Int>.Handle) {
        let removed = entries[Int(random.next() % UInt64(entries.count))]
        _ = remove(element: removed.entry.element)
        return removed
    }

    mutating func remove(element: Int) -> TimerWheel<Int>.Handle {
        let position = positionOfElement.removeValue(forKey: element)!
        let removed = entries[position]
        let last = entries.removeLast()
        if position < entries.count {
            entries[position] = last
            positionOfElement[last.entry.element] = position
        }
        return removed.handle
    }
}
