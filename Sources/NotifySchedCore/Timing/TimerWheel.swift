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
///     wheel.reschedule(reminder, to: now + .minutes(10))
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
/// **Storage.** Entries live in one array indexed by a 32-bit entry index, each one record
/// of its due time, two 32-bit links, its generation and its element: 20 bytes plus the
/// element, 24 bytes with a `UInt32` element. Each slot is a doubly linked list through the
/// links; freed entries are reused, the latest freed first, before the array grows. A
/// cancel unlinks its entry (one record) from its two neighbours (two more), and the
/// schedule that follows reuses that entry. The
/// storage is copy-on-write, like an array's. Elements are `BitwiseCopyable` so that
/// cancelling and firing move bytes, never reference counts.
public struct TimerWheel<Element: BitwiseCopyable> {
    /// The entries and the slot table, shared copy-on-write between copies of a wheel.
    @usableFromInline var storage: Storage

    /// The entries ever handed out: indices at and above it have never been used.
    @usableFromInline var used: Int

    /// The first free entry, or `Self.noEntry`.
    @usableFromInline var firstFree: UInt32

    /// The wheel's clock, in whole seconds since the epoch.
    @usableFromInline var elapsed: Int64

    /// No more than the earliest due time in the current second's slot, in microseconds;
    /// exact after an `advance(to:)`, and an earlier bound after a cancel there.
    @usableFromInline var currentMinimum: Int64

    /// The number of scheduled entries.
    @usableFromInline var scheduledCount: Int

    /// Creates an empty wheel whose clock reads `now`.
    ///
    /// - Parameter now: The current time; entries due at or before it are overdue.
    /// - Complexity: O(slots): the slot table has a fixed size.
    @inlinable
    public init(now: Instant) {
        storage = Storage(capacity: 0)
        used = 0
        firstFree = Self.noEntry
        elapsed = Self.second(of: now.microseconds)
        currentMinimum = .max
        scheduledCount = 0
    }
}

// Copies share storage until one of them changes, and a change first makes the storage
// unique, so no two threads ever write to, or read while another writes to, one storage.
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

    /// The bytes the wheel has allocated: its entry array at its capacity, its slot table
    /// and its bitmaps.
    ///
    /// - Complexity: O(1)
    @inlinable
    public var storageByteCount: Int { storage.byteCount }

    /// Schedules `element` to fall due at `due`.
    ///
    /// An entry due at or before the wheel's clock is overdue: it comes out of the next
    /// `advance(to:)`, and `nextDeadline` is no later than its due time.
    ///
    /// - Parameters:
    ///   - element: What to hand back when the entry falls due.
    ///   - due: The exact time it falls due.
    /// - Returns: The handle that cancels or reschedules this entry while it is pending.
    /// - Complexity: O(1) amortized: the entry array grows only when no freed entry is left.
    @inlinable
    @inline(__always)
    @discardableResult
    public mutating func schedule(_ element: Element, at due: Instant) -> Handle {
        makeUnique()
        return insert(element, at: due.microseconds)
    }

    /// Schedules many entries at once: the bulk build of a wheel from a schedule.
    ///
    /// The entry array is sized once for all the entries, so building a wheel of `n` entries
    /// this way allocates at most once.
    ///
    /// - Parameter entries: Each entry's due time and element.
    /// - Returns: The entries' handles, in the order of `entries`.
    /// - Complexity: O(*n*), where *n* is the number of entries.
    @inlinable
    @discardableResult
    public mutating func schedule<Entries: Collection>(contentsOf entries: Entries) -> [Handle]
    where Entries.Element == (due: Instant, element: Element) {
        makeUnique()
        reserve(used + entries.count, exactly: true)
        var handles: [Handle] = []
        handles.reserveCapacity(entries.count)
        for entry in entries {
            handles.append(insert(entry.element, at: entry.due.microseconds))
        }
        return handles
    }

    /// Cancels a pending entry.
    ///
    /// A handle whose entry already fell due or was cancelled is stale, and cancelling it
    /// does nothing: the caller need not know whether it won the race with `advance(to:)`.
    ///
    /// - Parameter handle: The handle `schedule` returned.
    /// - Returns: The entry's element, or `nil` when the handle was stale.
    /// - Complexity: O(1)
    @inlinable
    @inline(__always)
    @discardableResult
    public mutating func cancel(_ handle: Handle) -> Element? {
        guard isPending(handle) else { return nil }
        makeUnique()
        unlink(handle.index)
        release(handle.index)
        return storage.entries[Int(handle.index)].element
    }

    /// Moves a pending entry to a new due time; its handle stays valid.
    ///
    /// The entry counts as scheduled anew: among entries with the same due time, it now
    /// comes out after those scheduled before this call.
    ///
    /// - Parameters:
    ///   - handle: The handle `schedule` returned.
    ///   - due: The new due time.
    /// - Returns: `false` when the handle was stale: nothing changed, and the caller
    ///   schedules the element anew if it still wants it.
    /// - Complexity: O(1)
    @inlinable
    @discardableResult
    public mutating func reschedule(_ handle: Handle, to due: Instant) -> Bool {
        guard isPending(handle) else { return false }
        makeUnique()
        unlink(handle.index)
        storage.entries[Int(handle.index)].due = due.microseconds
        file(handle.index, due: due.microseconds)
        return true
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
    /// It is exactly the earliest due time when that lies in the wheel's current second (or
    /// before it), and otherwise the start of the slot that holds the earliest entry: a whole
    /// second for the next 64 seconds, a coarser boundary further out. Advancing to that
    /// boundary files the slot's entries at a finer level, after which the deadline is closer
    /// to exact; a far entry costs at most one such early wake-up per level. A cancel in the
    /// current second may leave this earlier than needed until the next `advance(to:)`.
    ///
    /// - Returns: `nil` when nothing is scheduled.
    /// - Complexity: O(levels): one look at each level's bitmap.
    @inlinable
    public var nextDeadline: Instant? {
        guard let (slot, deadline) = nextExpiration() else { return nil }
        if slot < Self.slotsPerLevel && deadline == elapsed {
            return Instant(microseconds: currentMinimum)
        }
        return Instant(secondsSinceEpoch: deadline)
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
        makeUnique()
        var fired: [(due: Instant, element: Element)] = []
        let target = Swift.max(Self.second(of: now.microseconds), elapsed)
        while let (slot, deadline) = nextExpiration(), deadline <= target {
            // The clock moves to the slot's start. The current second's slot is empty then,
            // or about to be emptied and refilled with what is not yet due, so its bound
            // starts afresh.
            elapsed = deadline
            currentMinimum = .max
            if slot < Self.slotsPerLevel {
                // Only the slot of `now`'s second can keep entries; once it does, nothing
                // else is due.
                guard fire(slot, upTo: now.microseconds, into: &fired) else { break }
            } else {
                cascade(slot)
            }
        }
        if target > elapsed {
            elapsed = target
            currentMinimum = .max
        }
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
        makeUnique()
        // Entries with the same due second share one list, so taking the lists one after
        // the other keeps their order, and with it the order of ties.
        var pending: [UInt32] = []
        pending.reserveCapacity(scheduledCount)
        for slot in 0..<Self.slotCount {
            var entry = detachChain(of: slot)
            while entry < Self.markerBase {
                pending.append(entry)
                entry = storage.entries[Int(entry)].next
            }
        }
        elapsed = second
        currentMinimum = .max
        for entry in pending { file(entry, due: storage.entries[Int(entry)].due) }
    }
}
