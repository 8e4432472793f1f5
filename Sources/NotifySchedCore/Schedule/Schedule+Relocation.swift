// A feed is read on a worker thread, so into that thread's malloc arena, where what its entries
// keep is allocated among the far more bytes the reading allocates and frees: after a start on
// the bench's far feed of 10^5 entries, 57 of the arena's 97 MB were free and yet resident, in
// pages each still holding some entry's string or box, which `malloc_trim` cannot give back.
// Copied on the thread that keeps the schedule, the entries lie side by side in that thread's
// arena, and the reader's arena is free as a whole once the copy read from it is gone.

extension Schedule {
    /// The schedule with each entry's strings, boxes and arrays copied afresh by the calling
    /// thread (`ScheduleEntry.relocated()`): equal to `self`, laid out in memory of its own.
    public func relocated() -> Schedule {
        var copy = self
        copy.entries = entries.map { $0.relocated() }
        return copy
    }
}

extension Trigger {
    /// The trigger with its boxes and arrays made afresh; an event binding and an alarm series,
    /// which few entries have, stay shared.
    var relocated: Trigger {
        switch self {
        case .immediate, .check, .events, .alarm: self
        case .once(let time): .once(time.relocated)
        case .repeating(let first, let interval, let bounds):
            .repeating(first: first.relocated, every: interval, bounds: bounds)
        case .calendar(let expression, let zone, let notBefore, let bounds):
            .calendar(expression.relocated, zone: zone, notBefore: notBefore?.relocated, bounds: bounds)
        }
    }
}

extension FireTime {
    /// The time with a floating time's box made afresh.
    var relocated: FireTime {
        switch kind {
        case .absolute: self
        case .floating(let civil): FireTime(.floating(civil), zone: zone)
        }
    }
}

extension CalendarExpression {
    /// The expression with its fields' arrays copied afresh, or shared where they are one value
    /// (`Component.shared(_:)`).
    var relocated: CalendarExpression {
        func copied(_ components: [Component]?) -> [Component]? {
            components.map { Component.shared($0) ?? $0.withUnsafeBufferPointer(Array.init) }
        }
        var copy = self
        (copy.year, copy.month, copy.day) = (copied(year), copied(month), copied(day))
        (copy.hour, copy.minute, copy.second) = (copied(hour), copied(minute), copied(second))
        copy.localAbbreviation = localAbbreviation?.relocated
        return copy
    }
}

extension String {
    /// The string in a heap object of its own, allocated by the calling thread; one of up to 15
    /// UTF-8 bytes is in line and has none.
    var relocated: String {
        var copy = self
        return copy.withUTF8 { String(decoding: $0, as: UTF8.self) }
    }
}
