extension Trigger {
    /// The next instants the trigger fires at or after `now`, ascending.
    ///
    /// Event-driven and check-driven triggers have no clock time and return none; an immediate
    /// trigger fires at `now`.
    ///
    /// - Parameters:
    ///   - now: The current time; nothing earlier is returned.
    ///   - limit: At most this many instants.
    ///   - userZone: The user's current zone, for floating times without a zone of their own.
    /// - Complexity: O(`limit`) for `repeating`; `limit` `nextElapse` searches for `calendar`,
    ///   but one with a `count` walks its elapses from the first (at most
    ///   `RecurrenceBounds.maximumCalendarCount` searches).
    public func occurrences(onOrAfter now: Instant, limit: Int, userZone: ZoneRules) -> [Instant] {
        var memo = ElapseMemo(keeping: 0)
        return occurrences(onOrAfter: now, limit: limit, userZone: userZone, memo: &memo)
    }

    /// `occurrences(onOrAfter:limit:userZone:)`, asking `memo` first for the calendar elapses
    /// it needs: when many entries are planned at one instant, the searches others made.
    public func occurrences(onOrAfter now: Instant, limit: Int, userZone: ZoneRules, memo: inout ElapseMemo)
        -> [Instant]
    {
        var result: [Instant] = []
        guard limit > 0 else { return result }
        forEachOccurrence(onOrAfter: now, userZone: userZone, memo: &memo) { instant in
            result.append(instant)
            return result.count < limit
        }
        return result
    }

    /// The instants the trigger fires at in `range`, ascending, at most `limit` of them.
    public func occurrences(in range: Range<Instant>, limit: Int, userZone: ZoneRules) -> [Instant] {
        var memo = ElapseMemo(keeping: 0)
        var result: [Instant] = []
        guard limit > 0 else { return result }
        forEachOccurrence(onOrAfter: range.lowerBound, userZone: userZone, memo: &memo) { instant in
            guard instant < range.upperBound else { return false }
            result.append(instant)
            return result.count < limit
        }
        return result
    }

    /// The first instant the trigger fires at or after `now`; nil when it fires no more.
    /// Builds no array: a daemon's start asks it of every entry.
    func nextOccurrence(onOrAfter now: Instant, userZone: ZoneRules, memo: inout ElapseMemo) -> Instant? {
        var next: Instant?
        forEachOccurrence(onOrAfter: now, userZone: userZone, memo: &memo) { instant in
            next = instant
            return false
        }
        return next
    }

    /// Calls `body` with each instant the trigger fires at or after `now`, ascending, until
    /// `body` returns false or the trigger fires no more.
    private func forEachOccurrence(
        onOrAfter now: Instant, userZone: ZoneRules, memo: inout ElapseMemo, _ body: (Instant) -> Bool
    ) {
        switch self {
        case .immediate:
            _ = body(now)
        case .once(let time):
            let instant = time.instant(userZone: userZone)
            if instant >= now { _ = body(instant) }
        case .repeating(let first, let interval, let bounds):
            let series = RepeatSeries(first: first, interval: interval, userZone: userZone)
            var index = series.firstIndex(onOrAfter: now)
            while bounds.admits(index: index) {
                let instant = series.occurrence(index)
                guard bounds.admits(instant), body(instant) else { return }
                index += 1
            }
        case .calendar(let expression, let zone, let notBefore, let bounds):
            let walk = CalendarWalk(
                expression, zone: zone ?? userZone, notBefore: notBefore?.instant(userZone: userZone), bounds: bounds)
            walk.forEachElapse(from: now, memo: &memo) { _, instant in instant < now || body(instant) }
        case .alarm(let series):
            series.forEachAlarm(onOrAfter: now, userZone: userZone, body)
        case .events, .check:
            return
        }
    }

    /// The last instant the trigger fired before `now`, if any: what a daemon that was not
    /// running would catch up. A calendar expression is looked back 31 days, or to `since`
    /// when that is earlier (a catch-up after a longer downtime).
    public func lastOccurrence(before now: Instant, since: Instant? = nil, userZone: ZoneRules) -> Instant? {
        switch self {
        case .immediate, .events, .check:
            return nil
        case .once(let time):
            let instant = time.instant(userZone: userZone)
            return instant < now ? instant : nil
        case .repeating(let first, let interval, let bounds):
            let series = RepeatSeries(first: first, interval: interval, userZone: userZone)
            var index = series.firstIndex(onOrAfter: now) - 1
            if let count = bounds.count { index = min(index, count - 1) }
            if let until = bounds.until {
                index = min(index, series.firstIndex(onOrAfter: until.nextMicrosecond) - 1)
            }
            return index >= 0 ? series.occurrence(index) : nil
        case .calendar(let expression, let zone, let notBefore, let bounds):
            let walk = CalendarWalk(
                expression, zone: zone ?? userZone, notBefore: notBefore?.instant(userZone: userZone), bounds: bounds)
            return walk.lastElapse(before: now, lookBack: max(.days(31), since.map { now - $0 } ?? .zero))
        case .alarm(let series):
            return series.lastAlarm(
                before: now, lookBack: max(.days(31), since.map { now - $0 } ?? .zero), userZone: userZone)
        }
    }
}

extension Trigger {
    /// What a plan at `now` needs of the occurrences after `settled`: the latest one due (to
    /// deliver or record as missed), whether earlier ones fold into it, and the next one to come.
    ///
    /// Cheap where it matters most: when at most one occurrence is owed (a timer that fired on
    /// time), two steps forward from `settled` answer all three, whatever the expression; only
    /// a catch-up of several looks back from `now` (`lastOccurrence(before:userZone:)`).
    ///
    /// - Parameters:
    ///   - now: The instant planned at; an occurrence at `now` is due.
    ///   - settled: What is settled through; nil when nothing is (every occurrence is owed).
    ///   - userZone: The user's current zone, for floating times without a zone of their own.
    ///   - memo: Calendar elapses other entries planned at `now` already found.
    public func owedOccurrences(
        atOrBefore now: Instant, after settled: Instant?, userZone: ZoneRules, memo: inout ElapseMemo
    ) -> OwedOccurrences {
        let afterNow = now.nextMicrosecond
        guard let settled else {
            return OwedOccurrences(
                latest: lastOccurrence(before: afterNow, userZone: userZone), foldsEarlier: false,
                next: nextOccurrence(onOrAfter: afterNow, userZone: userZone, memo: &memo))
        }
        // Settled through now or later (a first plan of a recurring entry, followed from now):
        // nothing after it is due yet, and one step forward answers.
        guard settled < now else {
            return OwedOccurrences(
                next: nextOccurrence(onOrAfter: settled.nextMicrosecond, userZone: userZone, memo: &memo))
        }
        var first: Instant?
        var second: Instant?
        forEachOccurrence(onOrAfter: settled.nextMicrosecond, userZone: userZone, memo: &memo) { instant in
            if first == nil {
                first = instant
                return true
            }
            second = instant
            return false
        }
        guard let first, first <= now else { return OwedOccurrences(next: first) }
        guard let second, second <= now else { return OwedOccurrences(latest: first, next: second) }
        return OwedOccurrences(
            latest: lastOccurrence(before: afterNow, since: settled, userZone: userZone) ?? second, foldsEarlier: true,
            next: nextOccurrence(onOrAfter: afterNow, userZone: userZone, memo: &memo))
    }
}

/// The occurrences of a trigger after what is settled, as of one instant
/// (`Trigger.owedOccurrences(atOrBefore:after:userZone:)`).
public struct OwedOccurrences: Sendable, Equatable {
    /// The latest occurrence due and not settled.
    public var latest: Instant?
    /// Whether earlier occurrences, due and not settled, fold into `latest`.
    public var foldsEarlier: Bool
    /// The first occurrence after the instant and after what is settled.
    public var next: Instant?

    public init(latest: Instant? = nil, foldsEarlier: Bool = false, next: Instant? = nil) {
        self.latest = latest
        self.foldsEarlier = foldsEarlier
        self.next = next
    }
}

extension RecurrenceBounds {
    func admits(index: Int) -> Bool {
        count.map { index < $0 } ?? true
    }

    func admits(_ instant: Instant) -> Bool {
        until.map { instant <= $0 } ?? true
    }
}

/// The occurrences of a `repeatInterval` entry, indexed from 0 (the first fire time).
///
/// Minutes and hours are fixed lengths of time from the first instant, so an hourly repeat
/// keeps its spacing across a DST change (as Foundation's `Calendar` adds hours). Days, weeks,
/// months and years step the wall clock in the entry's zone: a daily 09:00 stays 09:00 across
/// DST. Each occurrence is computed from the first, not from the previous one, and a day that
/// does not exist in the target month clamps to the month's last day: a monthly entry on
/// 31 January fires on 28 (or 29) February and again on 31 March.
struct RepeatSeries {
    private let firstInstant: Instant
    private let firstCivil: CivilDateTime
    private let interval: RepeatInterval
    private let zone: ZoneRules

    init(first: FireTime, interval: RepeatInterval, userZone: ZoneRules) {
        zone = first.zone ?? userZone
        firstInstant = first.instant(userZone: userZone)
        switch first.kind {
        case .floating(let civil): firstCivil = civil
        case .absolute(let instant): firstCivil = zone.civil(at: instant)
        }
        self.interval = interval
    }

    /// The `index`-th occurrence.
    func occurrence(_ index: Int) -> Instant {
        let step = Int64(index)
        var civil = firstCivil
        switch interval {
        case .minute: return firstInstant + .minutes(step)
        case .hour: return firstInstant + .hours(step)
        case .day, .week:
            civil = civil.addingDays(index * (interval == .day ? 1 : 7))
        case .month:
            let monthIndex = Int64(civil.month - 1) + step
            civil.year += Int(monthIndex.floorDivided(by: 12))
            civil.month = Int(monthIndex.floorModulo(12)) + 1
            civil.day = min(firstCivil.day, CivilDateTime.daysInMonth(year: civil.year, month: civil.month))
        case .year:
            civil.year += index
            civil.day = min(firstCivil.day, CivilDateTime.daysInMonth(year: civil.year, month: civil.month))
        }
        return zone.instant(forFloating: civil)
    }

    /// The smallest index whose occurrence is at or after `now` (0 when the first is).
    func firstIndex(onOrAfter now: Instant) -> Int {
        guard now > firstInstant else { return 0 }
        let nominal: Int64 =
            switch interval {
            case .minute: 60
            case .hour: 3600
            case .day: 86_400
            case .week: 604_800
            case .month: 2_629_746
            case .year: 31_556_952
            }
        // Start a little below the estimate: DST and month lengths move occurrences by less
        // than two nominal units, and the loop below walks forward from there.
        let elapsed = (now - firstInstant).seconds
        var index = max(0, Int(clamping: elapsed / nominal) - 2)
        while occurrence(index) < now { index += 1 }
        return index
    }
}

/// Walks a calendar expression's elapses, counting from `notBefore` when a `count` needs it.
struct CalendarWalk {
    private let expression: CalendarExpression
    private let zone: ZoneRules
    private let notBefore: Instant?
    private let bounds: RecurrenceBounds

    init(_ expression: CalendarExpression, zone: ZoneRules, notBefore: Instant?, bounds: RecurrenceBounds) {
        self.expression = expression
        self.zone = zone
        self.notBefore = notBefore
        self.bounds = bounds
    }

    /// Every admitted elapse from the start (or from just before `from` when uncounted),
    /// in order, with its index; stops when `body` returns false or the bounds end.
    func forEachElapse(from: Instant, memo: inout ElapseMemo, _ body: (Int, Instant) -> Bool) {
        // A count counts from the start, wherever the walk is wanted from.
        var cursor = (bounds.count == nil ? from : notBefore ?? from).previousMicrosecond
        var index = 0
        while bounds.admits(index: index), let next = firstAdmittedElapse(after: cursor, memo: &memo) {
            guard body(index, next) else { return }
            cursor = next
            index += 1
        }
    }

    /// The last admitted elapse before `now`, looking back at most `lookBack` when uncounted.
    ///
    /// - Complexity: Uncounted, logarithmic in `lookBack` whatever the expression: up to
    ///   1 + log4(`lookBack` / 1 min) `nextElapse` searches to find any elapse in windows that
    ///   grow fourfold from a minute, then 2 per halving of the span between that elapse and
    ///   `now` in microseconds: at most 95 for 31 days, 121 for a century. A counted walk must
    ///   count from the start, and does once: at most `RecurrenceBounds.maximumCalendarCount`
    ///   searches.
    func lastElapse(before now: Instant, lookBack: TimeSpan) -> Instant? {
        var memo = ElapseMemo(keeping: 0)
        guard bounds.count == nil else {
            var last: Instant?
            forEachElapse(from: now - lookBack, memo: &memo) { _, instant in
                guard instant < now else { return false }
                last = instant
                return true
            }
            return last
        }
        var window = min(TimeSpan.minutes(1), lookBack)
        var found = firstAdmittedElapse(after: (now - window).previousMicrosecond, memo: &memo)
        while found.map({ $0 >= now }) ?? true, window < lookBack {
            window = min(window * 4, lookBack)
            found = firstAdmittedElapse(after: (now - window).previousMicrosecond, memo: &memo)
        }
        guard var last = found, last < now else { return nil }
        // Bisect: the answer is at or after `last` and before `upper`; each round moves `last`
        // on and halves the span.
        var upper = now
        // `nextElapse` answers after its base; the loop relies on it to end, and checks it.
        while let next = firstAdmittedElapse(after: last, memo: &memo), next > last, next < upper {
            last = next
            let middle = last + TimeSpan(microseconds: (upper - last).microseconds / 2)
            if let probe = firstAdmittedElapse(after: middle, memo: &memo), probe > middle, probe < upper {
                last = probe
            } else {
                upper = middle.nextMicrosecond
            }
        }
        return last
    }

    /// The first elapse after `instant`, and not before `notBefore`, that `until` admits; a
    /// `count` is the caller's to keep.
    private func firstAdmittedElapse(after instant: Instant, memo: inout ElapseMemo) -> Instant? {
        var base = instant
        if let notBefore, base < notBefore { base = notBefore.previousMicrosecond }
        guard let next = memo.nextElapse(of: expression, after: base, in: zone), bounds.admits(next) else {
            return nil
        }
        return next
    }
}
