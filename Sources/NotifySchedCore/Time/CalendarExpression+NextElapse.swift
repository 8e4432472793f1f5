extension CalendarExpression {
    /// The first instant strictly after `after` that the expression matches, as systemd 252's
    /// `calendar_spec_next_usec` finds it, or nil when it never elapses again (systemd's
    /// "never"; years end at 2199) or when systemd would give up after 1000 search rounds.
    ///
    /// The search runs in UTC for a ` UTC` expression, in the named zone for one that names a
    /// zone, else in `localZone`. It starts like a freshly started `systemd-analyze`, so the
    /// result equals its "Next elapse".
    ///
    /// - Parameters:
    ///   - after: The base instant; the result is later. Instants before 1970 give nil.
    ///   - localZone: The zone of a local-time expression.
    /// - Returns: The next elapse, or nil.
    public func nextElapse(after: Instant, in localZone: ZoneRules) -> Instant? {
        var mktime = GlibcMktime()
        return nextElapse(after: after, in: localZone, mktime: &mktime)
    }

    /// The next `count` elapses after `after`, each found from the one before, exactly as
    /// `systemd-analyze calendar --iterations=count --base-time=…` lists them.
    ///
    /// - Parameters:
    ///   - after: The base instant.
    ///   - count: How many elapses to find.
    ///   - localZone: The zone of a local-time expression.
    /// - Returns: Up to `count` instants in ascending order; fewer when the expression stops
    ///   elapsing.
    public func nextElapses(after: Instant, count: Int, in localZone: ZoneRules) -> [Instant] {
        var mktime = GlibcMktime()
        var results: [Instant] = []
        var base = after
        while results.count < count, let next = nextElapse(after: base, in: localZone, mktime: &mktime) {
            results.append(next)
            base = next
        }
        return results
    }

    /// One step of the search with glibc's `mktime` state made explicit.
    ///
    /// systemd computes an expression with a named zone in a forked child with `TZ` set, so that
    /// child starts from a copy of the caller's state and its changes are lost; other
    /// expressions share the caller's state.
    func nextElapse(after: Instant, in localZone: ZoneRules, mktime: inout GlibcMktime) -> Instant? {
        // systemd refuses bases it cannot format (after 9999-12-30) and has no instants before 1970.
        guard after.microseconds >= 0, after.microseconds <= 253_402_214_399_000_000 else { return nil }
        if let zone {
            var childSearch = ElapseSearch(expression: self, zone: utc ? nil : zone, mktime: mktime)
            return childSearch.next(after: after)
        }
        var search = ElapseSearch(expression: self, zone: utc ? nil : localZone, mktime: mktime)
        defer { mktime = search.mktime }
        return search.next(after: after)
    }
}

/// systemd's `find_next`: walks the fields from the year down, moving to the next candidate
/// of each and letting `mktime` normalize after every step, exactly in systemd's order, because
/// each `mktime` call feeds glibc's offset guess for the next.
private struct ElapseSearch {
    let expression: CalendarExpression
    /// nil for UTC (`timegm`).
    let zone: ZoneRules?
    var mktime: GlibcMktime

    init(expression: CalendarExpression, zone: ZoneRules?, mktime: GlibcMktime) {
        self.expression = expression
        self.zone = zone
        self.mktime = mktime
    }

    /// `mktime_or_timegm`; nil where systemd sees a negative result.
    private mutating func normalize(_ tm: inout BrokenDownTime) -> Int64? {
        guard let zone else { return GlibcMktime.makeUniversalTime(&tm) }
        var copy = tm
        guard let seconds = mktime.makeTime(&copy, in: zone), seconds >= 0 else { return nil }
        tm = copy
        return seconds
    }

    private func brokenDown(_ seconds: Int64) -> BrokenDownTime {
        BrokenDownTime(seconds: seconds, offset: zone?.offset(at: Instant(secondsSinceEpoch: seconds)) ?? .utc)
    }

    mutating func next(after: Instant) -> Instant? {
        let base = after.microseconds + 1
        var tm = brokenDown(base / 1_000_000)
        var microsecond = Int(base % 1_000_000)
        guard find(&tm, &microsecond), let seconds = normalize(&tm) else { return nil }
        return Instant(microseconds: seconds * 1_000_000 + Int64(microsecond))
    }

    /// The day of the month that is `fromEnd` days before the next month starts, or -1.
    private mutating func endOfMonth(_ tm: BrokenDownTime, _ fromEnd: Int) -> Int {
        var probe = tm
        probe.month += 1
        probe.day = 1 - fromEnd
        guard normalize(&probe) != nil, probe.month == tm.month else { return -1 }
        return probe.day
    }

    /// The earliest value at or after `value` that a component allows: 1 if it moved, 0 if
    /// `value` already matches, -1 if no value does.
    private mutating func match(
        _ components: [CalendarExpression.Component]?, _ tm: BrokenDownTime, _ value: inout Int, isDay: Bool = false
    ) -> Int {
        guard let components else { return 0 }
        var best: Int?
        for component in components {
            var start = component.start
            var stop = component.stop
            if expression.endOfMonth && isDay {
                start = endOfMonth(tm, start)
                stop = endOfMonth(tm, stop)
                if stop > 0 { swap(&start, &stop) }
            }
            if start >= value {
                if best.map({ start < $0 }) ?? true { best = start }
            } else if component.repetition > 0 {
                let steps = (value - start + component.repetition - 1) / component.repetition
                let candidate = start + component.repetition * steps
                if (best.map { candidate < $0 } ?? true) && (stop < 0 || candidate <= stop) { best = candidate }
            }
        }
        guard let best else { return -1 }
        defer { value = best }
        return value != best ? 1 : 0
    }

    /// systemd's `tm_within_bounds`: 1 when `tm` is a real local time, 0 when `mktime` moved it
    /// forward (and `tm` now holds the moved time, the next field down reset), negative when it is
    /// past 2199, cannot be converted, or would move backwards.
    private mutating func withinBounds(_ tm: inout BrokenDownTime) -> Int {
        guard tm.year <= 2199 else { return -1 }
        var normalized = tm
        guard normalize(&normalized) != nil else { return -1 }
        // The first field `mktime` moved, from the year down, and the next field down reset
        // (`find` reset the others).
        let fellBehind: Bool
        if normalized.year != tm.year {
            fellBehind = normalized.year < tm.year
            normalized.month = 0
        } else if normalized.month != tm.month {
            fellBehind = normalized.month < tm.month
            normalized.day = 1
        } else if normalized.day != tm.day {
            fellBehind = normalized.day < tm.day
            normalized.hour = 0
        } else if normalized.hour != tm.hour {
            fellBehind = normalized.hour < tm.hour
            normalized.minute = 0
        } else if normalized.minute != tm.minute {
            fellBehind = normalized.minute < tm.minute
            normalized.second = 0
        } else if normalized.second != tm.second {
            fellBehind = normalized.second < tm.second
        } else {
            return 1
        }
        if fellBehind { return -2 }
        tm = normalized
        return 0
    }

    private mutating func matchesWeekday(_ tm: BrokenDownTime) -> Bool {
        guard let weekdays = expression.weekdays else { return true }
        var normalized = tm
        guard normalize(&normalized) != nil else { return false }
        let mondayBased = normalized.weekday == 0 ? 6 : normalized.weekday - 1
        return weekdays & (1 << mondayBased) != 0
    }

    private mutating func find(_ result: inout BrokenDownTime, _ resultMicrosecond: inout Int) -> Bool {
        var c = result
        var microsecond = resultMicrosecond
        func resetBelow(month: Bool = false, day: Bool = false, hour: Bool = false, minute: Bool = false) {
            if month { c.month = 0 }
            if day { c.day = 1 }
            if hour { c.hour = 0 }
            if minute { c.minute = 0 }
            c.second = 0
            microsecond = 0
        }
        // Once a candidate fell behind the start, the DST flag `mktime` chose is kept instead of
        // the expression's (see below).
        var keepsNormalizedDST = false
        // systemd's MAX_CALENDAR_ITERATIONS: it gives up after 1000 rounds (with EDEADLK, where
        // this returns nil) rather than spin.
        for _ in 0..<1000 {
            _ = normalize(&c)
            if !keepsNormalizedDST { c.isDST = expression.daylightFlag }

            var r = match(expression.year, c, &c.year)
            if r > 0 { resetBelow(month: true, day: true, hour: true, minute: true) }
            if r < 0 { return false }
            if withinBounds(&c) <= 0 { return false }

            c.month += 1
            r = match(expression.month, c, &c.month)
            c.month -= 1
            if r > 0 { resetBelow(day: true, hour: true, minute: true) }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.year += 1
                resetBelow(month: true, day: true, hour: true, minute: true)
                continue
            }
            if r == 0 { continue }

            r = match(expression.day, c, &c.day, isDay: true)
            if r > 0 { resetBelow(hour: true, minute: true) }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.month += 1
                resetBelow(day: true, hour: true, minute: true)
                continue
            }
            if r == 0 { continue }

            if !matchesWeekday(c) {
                c.day += 1
                resetBelow(hour: true, minute: true)
                continue
            }

            r = match(expression.hour, c, &c.hour)
            if r > 0 { resetBelow(minute: true) }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.day += 1
                resetBelow(hour: true, minute: true)
                continue
            }
            if r == 0 { continue }

            r = match(expression.minute, c, &c.minute)
            if r > 0 { resetBelow() }
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.hour += 1
                resetBelow(minute: true)
                continue
            }
            if r == 0 { continue }

            var secondInMicroseconds = c.second * 1_000_000 + microsecond
            r = match(expression.second, c, &secondInMicroseconds)
            microsecond = secondInMicroseconds % 1_000_000
            c.second = secondInMicroseconds / 1_000_000
            if r >= 0 { r = withinBounds(&c) }
            if r < 0 {
                c.minute += 1
                resetBelow()
                continue
            }
            if r == 0 { continue }

            // Debian's systemd 252.38 carries upstream's fix for zones whose DST is negative
            // (systemd PR #36897): where `mktime` resolves a skipped hour backwards, the candidate
            // can land before the start and would be found again and again. It moves on an hour
            // and from then on keeps the DST flag `mktime` found, so the gap resolves forwards.
            // `result` still holds the start; like systemd, compare the wall-clock fields.
            let candidate = (c.year, c.month, c.day, c.hour, c.minute, c.second)
            let start = (result.year, result.month, result.day, result.hour, result.minute, result.second)
            if candidate < start || (candidate == start && microsecond < resultMicrosecond) {
                keepsNormalizedDST = true
                c.hour += 1
                continue
            }

            result = c
            resultMicrosecond = microsecond
            return true
        }
        return false
    }
}
