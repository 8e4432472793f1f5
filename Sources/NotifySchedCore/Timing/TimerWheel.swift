/// A hierarchical timing wheel: the pending occurrences of the schedule, ready to say what is
/// due next and to hand over what fell due.
///
/// The wheel is keyed by UTC seconds. It has six levels of 64 slots, each slot of level `L`
/// spanning 64^`L` seconds, so together they reach 2^36 seconds (about 2 177 years) ahead; each
/// level keeps a 64-bit occupancy bitmap, as in tokio's timer and the Linux kernel's timer
/// wheel. An entry is filed at the lowest level whose slot keeps it apart from the wheel's
/// clock, and moves down ("cascades") when the clock reaches its slot, so each entry is
/// touched at most once per level over its life. Each entry keeps its exact due time in
/// microseconds; seconds only decide where it is filed.
///
///     var wheel = TimerWheel<UInt32>(now: now)
///     let reminder = wheel.schedule(7, at: now + .minutes(5))
///     let moved = wheel.reschedule(reminder, 7, to: now + .minutes(10))
///     // The daemon arms its timer at `wheel.nextDeadline`, and when it fires:
///     for (due, element) in wheel.advance(to: now) { deliver(element, due: due) }
///
/// The wheel reads no clock. Its clock is the `now` given to `init(now:)` or to the latest
/// `advance(to:)`; an entry due at or before it is overdue and comes out of the next
/// `advance(to:)`.
///
/// **Beyond the horizon.** The levels cover the aligned block of 2^36 seconds that holds the
/// wheel's clock. Entries due after that block wait in one extra list, which is filed anew
/// into the levels when the clock enters the next block; `nextDeadline` reports the start of
/// that block meanwhile. Every representable `Instant` can be scheduled.
///
/// **Backward steps of the clock.** `advance(to:)` never moves the clock back: given an
/// earlier `now`, it hands over what is due by then and keeps its clock. The wheel stays
/// correct (nothing comes out before it is due) but every entry due before its clock is kept
/// in the current second's slot, which each `advance(to:)` scans. When the daemon sees the
/// wall clock step back (its `timerfd` read fails with `ECANCELED` and the time is earlier
/// than before), it calls `rewind(to:)` with the new time, which files every pending entry
/// afresh; handles stay valid, so the caller keeps its bookkeeping as it is.
///
/// **One owner.** The wheel is noncopyable: whoever holds it (the daemon's loop) changes it in
/// place, and moving it costs nothing. A copyable wheel would have to check, on every
/// schedule and cancel, whether its storage is shared; that check is a call into the Swift
/// runtime, and measured a third of the time of a schedule+cancel pair.
///
/// **Storage.** Each entry has an index and a 16-bit generation; each slot is a buffer of
/// filings (the exact due time, the index, the generation filed under, the element), appended
/// in order. With a `UInt32` element a filing takes 20 bytes, so an entry takes 22. Freed
/// entries are reused, the latest freed first, before new indices are handed out. A cancel
/// writes the entry's generation, which makes its handle and its filing stale, and looks at the
/// end of the list the entry was filed in: a filing still last there (a timeout called off
/// before anything else was filed in its slot) is taken back. Any other list is left alone, so
/// a cancel costs one random memory access wherever the entry sits, and the schedule that
/// usually follows reuses that entry and appends to a list end it has just touched. A dead
/// filing stays in its slot until the slot is cascaded or fired, or until a sweep drops all of
/// them at once, which a cancel starts when dead filings outnumber half the scheduled entries
/// (plus 64); so after a cancel the filings are at most 1.5 times the entries (plus 64). The
/// price is memory under churn (42 bytes an entry after 2 × 10^6 cancels of random entries at
/// 10^6 entries, against 22 when built) and, after a cancel, a deadline that may be early (see
/// `nextDeadline`). An append prefetches its list's buffer a few items ahead: many list ends
/// grow at once, into memory no cache holds yet, and the processor does not follow them on its
/// own among the random accesses of cancels (at 10^6 entries this took a third off a
/// schedule+cancel pair).
/// Elements are `BitwiseCopyable` so that filing and firing move bytes, never reference
/// counts.
///
/// The wheel's memory lives behind unchecked pointers, so that the innermost code pays no
/// bounds checks; the wheel's invariants keep every index in bounds, and `_checkInvariants()`
/// verifies them in tests.
public struct TimerWheel<Element: BitwiseCopyable>: ~Copyable {
    /// Each entry's generation: odd while it is scheduled, even while it is free.
    @usableFromInline var generations: UnsafeMutablePointer<UInt16>

    /// The entries `generations` has room for.
    @usableFromInline var capacity: Int

    /// The free entries, the latest freed on top.
    @usableFromInline var free: UnsafeMutablePointer<UInt32>

    /// The free entries there is room for.
    @usableFromInline var freeCapacity: Int

    /// Each slot's list, `slotCount` of them.
    @usableFromInline let slots: UnsafeMutablePointer<Slot>

    /// One word per level, one bit per slot: set when the slot's list is not empty.
    @usableFromInline let occupied: UnsafeMutablePointer<UInt64>

    /// The entries ever handed out: indices at and above it have never been used.
    @usableFromInline var used: Int

    /// The entries on the free stack, not counting `latestFreed`.
    @usableFromInline var freeCount: Int

    /// The entry freed last, or `noEntry`: the free stack's top, kept in the wheel itself
    /// because a cancel is most often followed by a schedule that takes it straight back.
    @usableFromInline var latestFreed: UInt32

    /// The wheel's clock, in whole seconds since the epoch.
    @usableFromInline var elapsed: Int64

    /// The number of scheduled entries.
    @usableFromInline var scheduledCount: Int

    /// The filings in the slots whose entry was cancelled since.
    @usableFromInline var deadCount: Int

    /// Creates an empty wheel whose clock reads `now`.
    ///
    /// - Parameter now: The current time; entries due at or before it are overdue.
    /// - Complexity: O(slots): the slot table has a fixed size.
    @inlinable
    public init(now: Instant) {
        generations = .allocate(capacity: 0)
        capacity = 0
        free = .allocate(capacity: 0)
        freeCapacity = 0
        slots = .allocate(capacity: Self.slotCount)
        slots.initialize(repeating: .empty, count: Self.slotCount)
        occupied = .allocate(capacity: Self.levelCount)
        occupied.initialize(repeating: 0, count: Self.levelCount)
        used = 0
        freeCount = 0
        latestFreed = Self.noEntry
        elapsed = Self.second(of: now.microseconds)
        scheduledCount = 0
        deadCount = 0
    }

    deinit {
        // Every stored type is bitwise-copyable, so there is nothing to deinitialize.
        for slot in 0..<Self.slotCount { slots[slot].items?.deallocate() }
        generations.deallocate()
        free.deallocate()
        slots.deallocate()
        occupied.deallocate()
    }
}

// A wheel has one owner at a time; moving it to another thread moves its memory with it.
extension TimerWheel: @unchecked Sendable where Element: Sendable {}

extension TimerWheel {
    /// The number of scheduled entries.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var count: Int { scheduledCount }

    /// Whether no entry is scheduled.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var isEmpty: Bool { scheduledCount == 0 }

    /// The bytes the wheel has allocated: its generations and its free stack at their
    /// capacity, its slot lists at theirs, its slot table and its bitmaps.
    ///
    /// - Complexity: O(slots)
    @inlinable
    public var storageByteCount: Int {
        var itemCapacity = 0
        for slot in 0..<Self.slotCount { itemCapacity += slots[slot].capacity }
        return capacity * MemoryLayout<UInt16>.stride + freeCapacity * MemoryLayout<UInt32>.stride
            + itemCapacity * MemoryLayout<Item>.stride + Self.slotCount * MemoryLayout<Slot>.stride
            + Self.levelCount * MemoryLayout<UInt64>.stride
    }

    /// Schedules `element` to fall due at `due`.
    ///
    /// An entry due at or before the wheel's clock is overdue: it comes out of the next
    /// `advance(to:)`, and `nextDeadline` is no later than its due time.
    ///
    /// - Parameters:
    ///   - element: What to hand back when the entry falls due.
    ///   - due: The exact time it falls due.
    /// - Returns: The handle that cancels or reschedules this entry while it is pending.
    /// - Complexity: O(1) amortized: new indices are handed out only when no freed entry is
    ///   left, and a slot's buffer doubles when full.
    @inlinable
    @inline(__always)
    @discardableResult
    public mutating func schedule(_ element: Element, at due: Instant) -> Handle {
        insert(element, at: due.microseconds, inSlot: slot(forDue: due.microseconds))
    }

    /// Schedules many entries at once: the bulk build of a wheel from a schedule.
    ///
    /// The generations and each slot's buffer are sized once for all the entries, so
    /// building a wheel of `n` entries this way allocates each buffer at most once, and
    /// exactly as large as it needs to be. The entries come out exactly as if scheduled one
    /// by one in this order.
    ///
    /// - Parameter entries: Each entry's due time and element.
    /// - Returns: The entries' handles, in the order of `entries`.
    /// - Complexity: O(*n* + slots), where *n* is the number of entries.
    @inlinable
    @discardableResult
    public mutating func schedule<Entries: Collection>(contentsOf entries: Entries) -> [Handle]
    where Entries.Element == (due: Instant, element: Element) {
        let count = entries.count
        precondition(used <= Self.entryLimit - count, "A timer wheel hands out at most 2^32 - 1 entries")
        let freeEntries = freeCount + (latestFreed == Self.noEntry ? 0 : 1)
        reserve(used + Swift.max(0, count - freeEntries), exactly: true)
        // Where each entry goes, counted per slot so that each buffer grows once.
        var slotOfEntry: [UInt16] = []
        slotOfEntry.reserveCapacity(count)
        var filings = [Int](repeating: 0, count: Self.slotCount)
        for entry in entries {
            let slot = slot(forDue: entry.due.microseconds)
            slotOfEntry.append(UInt16(truncatingIfNeeded: slot))
            filings[slot] += 1
        }
        for slot in 0..<Self.slotCount where filings[slot] > 0 {
            reserveItems(slots[slot].count + filings[slot], inSlot: slot, exactly: true)
        }
        return [Handle](unsafeUninitializedCapacity: count) { handles, initialized in
            var next = entries.startIndex
            // Freed entries first, as one-by-one scheduling would take them.
            while initialized < count && (freeCount > 0 || latestFreed != Self.noEntry) {
                let entry = entries[next]
                handles[initialized] = insert(
                    entry.element, at: entry.due.microseconds, inSlot: Int(slotOfEntry[initialized]))
                entries.formIndex(after: &next)
                initialized += 1
            }
            initialized = fileFresh(entries[next...], slotOfEntry[initialized...], into: handles, from: initialized)
        }
    }

    /// Cancels a pending entry.
    ///
    /// A handle whose entry already fell due or was cancelled is stale, and cancelling it
    /// does nothing: the caller need not know whether it won the race with `advance(to:)`.
    ///
    /// - Parameter handle: The handle `schedule` returned.
    /// - Returns: Whether the entry was pending (and is now cancelled); `false` when the
    ///   handle was stale.
    /// - Complexity: O(1) amortized: it writes the entry's generation and, when the entry
    ///   was the last filed in its slot, that list's length; a sweep of *n* filings follows
    ///   at least *n*/3 cancels that left a filing behind.
    @inlinable
    @inline(__always)
    @discardableResult
    public mutating func cancel(_ handle: Handle) -> Bool {
        guard isPending(handle) else { return false }
        release(handle.index)
        if !withdrawIfLast(handle) { leaveDeadFiling() }
        return true
    }

    /// Moves a pending entry to a new due time, under a new handle.
    ///
    /// It is a cancel and a schedule in one call, and the caller passes the element again
    /// (the wheel keeps it with the entry's filing, which a cancel does not look up): the
    /// old handle goes stale, and among entries with the same due time the moved one now
    /// comes out after those scheduled before this call.
    ///
    /// - Parameters:
    ///   - handle: The handle `schedule` (or an earlier `reschedule`) returned.
    ///   - element: The entry's element, or a new one to hand back in its place.
    ///   - due: The new due time.
    /// - Returns: The entry's new handle, or `nil` when `handle` was stale: nothing changed,
    ///   and the caller schedules the element anew if it still wants it.
    /// - Complexity: O(1) amortized.
    @inlinable
    @discardableResult
    public mutating func reschedule(_ handle: Handle, _ element: Element, to due: Instant) -> Handle? {
        guard cancel(handle) else { return nil }
        return schedule(element, at: due)
    }

    /// Whether `handle` names an entry that is still pending.
    ///
    /// - Complexity: O(1)
    @inlinable
    public func contains(_ handle: Handle) -> Bool {
        isPending(handle)
    }

    /// When to call `advance(to:)` next: never later than the earliest due time.
    ///
    /// It is the earliest due time of the slot that holds the earliest entry, whatever its
    /// level: each slot keeps the earliest due time filed in it, and no slot's entries fall due
    /// before those of the slot that expires first. So the daemon wakes once per firing, at the
    /// instant, and the `advance(to:)` then cascades the entry down the levels and hands it over
    /// in one go. A cancel mostly leaves its filing behind, so when it cancelled the entry
    /// that set the deadline, the deadline stays there until `advance(to:)` reaches it (handing
    /// over nothing) or a sweep drops the filings: one early wake-up, never a late one. Beyond
    /// the levels' horizon, it is the start of the next block of 2^36 seconds.
    ///
    /// - Returns: `nil` when nothing is scheduled, whatever cancelled filings are left.
    /// - Complexity: O(levels): one look at each level's bitmap.
    @inlinable
    public var nextDeadline: Instant? {
        guard scheduledCount > 0, let (slot, deadline) = nextExpiration() else { return nil }
        guard slot < Self.overflowSlot else { return Instant(secondsSinceEpoch: deadline) }
        return Instant(microseconds: slots[slot].earliest)
    }

    /// Moves the clock forward to `now` and hands over every entry due by then.
    ///
    /// Entries come out in due-time order, and those with equal due times in the order they
    /// were scheduled. Their handles become stale. Given a `now` earlier than the wheel's
    /// clock, this hands over what is due by that `now` and keeps the clock (see the type's
    /// notes on backward steps).
    ///
    /// - Parameter now: The current time.
    /// - Returns: The entries due at or before `now`, each with its due time.
    /// - Complexity: O(levels + *m* log *m*) for *m* entries handed over, plus the entries of
    ///   the current second still pending, plus cascades: each entry moves down at most once
    ///   per level in its life, so O(levels) amortized per entry.
    @inlinable
    public mutating func advance(to now: Instant) -> [(due: Instant, element: Element)] {
        var fired: [(due: Instant, element: Element)] = []
        let target = Swift.max(Self.second(of: now.microseconds), elapsed)
        while let (slot, deadline) = nextExpiration(), deadline <= target {
            // The clock moves to the slot's start; the slot is emptied, and what is not yet
            // due is filed again, which sets the earliest due times afresh.
            elapsed = deadline
            if slot < Self.slotsPerLevel {
                // Only the slot of `now`'s second can keep entries; once it does, nothing
                // else is due.
                guard fire(slot, upTo: now.microseconds, into: &fired) else { break }
            } else {
                cascade(slot)
            }
        }
        if target > elapsed { elapsed = target }
        return fired
    }

    /// Moves the clock back to `now` after the wall clock stepped backwards, and files every
    /// pending entry afresh from there; handles stay valid.
    ///
    /// Without this, the wheel stays correct but keeps every entry due before its clock in
    /// one slot that each `advance(to:)` scans. A `now` at or after the clock's second
    /// changes nothing: time moves forward through `advance(to:)`.
    ///
    /// - Parameter now: The current time, earlier than the wheel's clock.
    /// - Complexity: O(*n* + slots), where *n* is the number of scheduled entries.
    @inlinable
    public mutating func rewind(to now: Instant) {
        let second = Self.second(of: now.microseconds)
        guard second < elapsed else { return }
        // Entries with the same due second share one list, so taking the lists one after
        // the other keeps their order, and with it the order of ties.
        var pending: [Item] = []
        pending.reserveCapacity(scheduledCount)
        for slot in 0..<Self.slotCount {
            let (items, count) = detach(slot)
            guard let items else { continue }
            for position in 0..<count where isLive(items[position]) { pending.append(items[position]) }
            items.deallocate()
        }
        deadCount = 0
        elapsed = second
        for item in pending { file(item) }
    }
}
