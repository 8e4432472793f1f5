/// The wall-clock times a `RecurrenceRule` gives from a start, in order.
///
/// The rule is read as RFC 5545 §3.3.10 and python-dateutil read it (the oracle the tests
/// compare with): a part the rule leaves out takes the start's value (`FREQ=YEARLY` alone
/// recurs on the start's month and day, `FREQ=WEEKLY` on its weekday, every frequency coarser
/// than its field on its hour, minute and second); the days of each period (a year, a month, a
/// week from `WKST`, a day, or the day of an hour, minute or second) that every day-level part
/// admits, at the times the time parts give, make up the period's set, which `BYSETPOS` then
/// picks from. A date that does not exist (30 February, 29 February in a common year) is
/// skipped. Times before the start are not given. Arithmetic is on the wall clock: an hourly
/// rule steps local hours, as the oracle does; resolving a time in a zone is the series' work.
struct RecurrenceExpansion: Sendable, Hashable {
    let rule: RecurrenceRule
    let start: CivilDateTime
    private let months: [Int]
    private let monthDays: [Int]
    private let weekdays: [Int]
    private let numberedWeekdays: [RecurrenceRule.WeekdayNumber]
    private let hours: [Int]
    private let minutes: [Int]
    private let seconds: [Int]
    /// Whether the day-level parts are only months and days of the month: the days of a period
    /// are then made directly rather than filtered from every day.
    private let directDays: Bool

    /// The most periods in a row that give no time before the walk gives up (a rule such as
    /// 30 February never recurs); 29 February on a Monday is a few hundred periods apart at most.
    static let emptyPeriodLimit = 20_000
    /// How many periods in a row cover the Gregorian calendar's 400-year cycle, after which the
    /// periods repeat exactly (146 097 days, a whole number of weeks), or a week when only
    /// weekdays pick the days of periods no longer than a week: a rule that gives no time in
    /// that many never gives one again.
    let cyclePeriods: Int64
    /// Whether the day-level parts admit no day at all: days of the month that no month they
    /// are combined with has (30 February, 31 April).
    let admitsNoDay: Bool

    init(_ rule: RecurrenceRule, start: CivilDateTime) {
        self.rule = rule
        var start = start
        start.microsecond = 0
        self.start = start
        var months = rule.byMonth
        var monthDays = rule.byMonthDay
        var weekdays = rule.byDay.filter { $0.ordinal == 0 || rule.frequency < .monthly }.map(\.weekday)
        let numbered = rule.byDay.filter { $0.ordinal != 0 && rule.frequency >= .monthly }
        if rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty, monthDays.isEmpty, rule.byDay.isEmpty {
            switch rule.frequency {
            case .yearly:
                if months.isEmpty { months = [start.month] }
                monthDays = [start.day]
            case .monthly:
                monthDays = [start.day]
            case .weekly:
                weekdays = [start.weekday]
            default:
                break
            }
        }
        self.months = months
        self.monthDays = monthDays
        self.weekdays = Array(Set(weekdays)).sorted()
        numberedWeekdays = numbered
        hours = rule.byHour.isEmpty && rule.frequency > .hourly ? [start.hour] : rule.byHour
        minutes = rule.byMinute.isEmpty && rule.frequency > .minutely ? [start.minute] : rule.byMinute
        seconds = rule.bySecond.isEmpty && rule.frequency > .secondly ? [start.second] : rule.bySecond
        directDays =
            rule.frequency >= .monthly && self.weekdays.isEmpty && numbered.isEmpty && rule.byYearDay.isEmpty
            && rule.byWeekNo.isEmpty && monthDays.allSatisfy { $0 > 0 }
        // 2000 is a leap year: each month at its longest.
        let longestMonth =
            (months.isEmpty ? Array(1...12) : months).map { CivilDateTime.daysInMonth(year: 2000, month: $0) }.max()
            ?? 31
        admitsNoDay = !monthDays.isEmpty && monthDays.allSatisfy { $0 > longestMonth || $0 < -longestMonth }
        // Periods of a week or less whose days only weekdays pick repeat every week.
        let weekdaysOnly =
            months.isEmpty && monthDays.isEmpty && numbered.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNo.isEmpty
        let cycleDays: Int64 = rule.frequency <= .weekly && weekdaysOnly ? 7 : 146_097
        let cycleUnits: Int64
        switch rule.frequency {
        case .yearly: cycleUnits = 400
        case .monthly: cycleUnits = 4_800
        case .weekly: cycleUnits = cycleDays / 7
        case .daily: cycleUnits = cycleDays
        case .hourly: cycleUnits = cycleDays * 24
        case .minutely: cycleUnits = cycleDays * 1_440
        case .secondly: cycleUnits = cycleDays * 86_400
        }
        cyclePeriods = cycleUnits / Self.greatestCommonDivisor(cycleUnits, Int64(rule.interval))
    }

    private static func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
        b == 0 ? a : greatestCommonDivisor(b, a % b)
    }

    /// Calls `body` with each time from the period that holds `from` (or from the start),
    /// ascending, until it returns false or the times end (`Cursor`).
    func forEach(from: CivilDateTime? = nil, _ body: (CivilDateTime) -> Bool) {
        var cursor = Cursor(self, from: from)
        while let time = cursor.next(), body(time) {}
    }

    /// The times from the period that holds a time (or from the start), ascending, one at a
    /// time; they end past year 9999, when the periods of a whole calendar cycle
    /// (`cyclePeriods`) give none, or when `emptyPeriodLimit` periods in a row give none.
    struct Cursor {
        private let expansion: RecurrenceExpansion
        private var period: Int?
        private var times: [CivilDateTime] = []
        private var position = 0
        /// The work of the periods that gave no time, in days looked at (`periodWork`).
        private(set) var fruitlessWork = 0

        init(_ expansion: RecurrenceExpansion, from: CivilDateTime?) {
            self.expansion = expansion
            period = expansion.admitsNoDay ? nil : from.map(expansion.firstPeriod(atOrBefore:)) ?? 0
        }

        /// Whether every time has been given.
        var isExhausted: Bool { period == nil && position >= times.count }

        /// The next time; nil when the times have ended, or when the next period to look at
        /// begins at or after `limit` (the cursor then stays where it is).
        mutating func next(before limit: CivilDateTime? = nil) -> CivilDateTime? {
            var empty = 0
            var emptyFrom: Int?
            while true {
                while position < times.count {
                    let time = times[position]
                    position += 1
                    if time >= expansion.start { return time }
                }
                guard let current = period, empty < RecurrenceExpansion.emptyPeriodLimit else {
                    period = nil
                    return nil
                }
                if let limit, expansion.beginning(ofPeriod: current) >= limit { return nil }
                times.removeAll(keepingCapacity: true)
                position = 0
                period = expansion.timesOfPeriod(current, into: &times)
                guard times.isEmpty else {
                    (empty, emptyFrom) = (0, nil)
                    continue
                }
                empty += 1
                fruitlessWork += expansion.periodWork
                let from = emptyFrom ?? current
                emptyFrom = from
                if let next = period, Int64(next - from) >= expansion.cyclePeriods { period = nil }
            }
        }
    }

    /// Whether the rule gives a time after the start (a rule that does not adds nothing to its
    /// start, however far it is walked), and the work of the periods without a time it took to
    /// tell (`periodWork`).
    func probe() -> (recursAfterStart: Bool, fruitlessWork: Int) {
        var cursor = Cursor(self, from: nil)
        while let time = cursor.next() {
            if time > start { return (true, cursor.fruitlessWork) }
        }
        return (false, cursor.fruitlessWork)
    }

    /// About what looking at one period costs, counted in days checked against the day-level
    /// parts, a step to the next period counting as a few.
    var periodWork: Int {
        let step = 6
        switch rule.frequency {
        case .yearly: return step + (directDays ? months.count : (months.isEmpty ? 366 : months.count * 31))
        case .monthly: return step + (directDays ? 1 : 31)
        case .weekly: return step + 7
        default: return step + 1
        }
    }

    /// The time of the `count`-th instance without walking to it, when every period of the rule
    /// gives exactly one (a daily or finer rule with no `BYxxx` part); nil otherwise.
    func instance(numbered count: Int) -> CivilDateTime? {
        let parts: [[Int]] = [
            rule.bySecond, rule.byMinute, rule.byHour, rule.byMonthDay, rule.byYearDay, rule.byWeekNo, rule.byMonth,
            rule.bySetPos,
        ]
        guard rule.frequency <= .daily, rule.byDay.isEmpty, parts.allSatisfy(\.isEmpty), count >= 1 else { return nil }
        let steps = Int64(count - 1) * Int64(rule.interval)
        return rule.frequency == .daily
            ? start.addingDays(Int(steps)) : start.addingWallSeconds(steps * unitSeconds)
    }

    // MARK: Periods

    /// The period (0 is the start's) that holds `time`, or the start's when `time` is earlier.
    private func firstPeriod(atOrBefore time: CivilDateTime) -> Int {
        guard time > start else { return 0 }
        let units: Int64
        switch rule.frequency {
        case .yearly: units = Int64(time.year - start.year)
        case .monthly: units = Int64((time.year - start.year) * 12 + time.month - start.month)
        case .weekly: units = (weekStartDay(of: time) - weekStartDay(of: start)) / 7
        case .daily: units = time.daysSinceEpoch - start.daysSinceEpoch
        case .hourly, .minutely, .secondly:
            units = time.wallSeconds(since: periodStart(0)).floorDivided(by: unitSeconds)
        }
        return Int(clamping: max(0, units.floorDivided(by: Int64(rule.interval))))
    }

    private var unitSeconds: Int64 {
        switch rule.frequency {
        case .hourly: 3600
        case .minutely: 60
        default: 1
        }
    }

    /// The first wall-clock second of the period that holds `time` (of the first period when
    /// `time` is earlier): where a `Cursor` from `time` begins.
    func beginning(ofPeriodHolding time: CivilDateTime) -> CivilDateTime {
        beginning(ofPeriod: firstPeriod(atOrBefore: time))
    }

    /// The first wall-clock second of period `period`: no time of the period is earlier.
    func beginning(ofPeriod period: Int) -> CivilDateTime {
        let step = Int64(period) * Int64(rule.interval)
        switch rule.frequency {
        case .yearly:
            return CivilDateTime(year: start.year + Int(clamping: step), month: 1, day: 1)
        case .monthly:
            let index = Int64(start.month - 1) + step
            return CivilDateTime(
                year: start.year + Int(index.floorDivided(by: 12)), month: Int(index.floorModulo(12)) + 1, day: 1)
        case .weekly:
            return CivilDateTime(midnightOfDay: weekStartDay(of: start) + step * 7)
        case .daily:
            return CivilDateTime(midnightOfDay: start.daysSinceEpoch + step)
        case .hourly, .minutely, .secondly:
            return periodStart(period)
        }
    }

    /// The first wall-clock second of sub-daily period `period`.
    private func periodStart(_ period: Int) -> CivilDateTime {
        var base = start
        base.second = rule.frequency == .secondly ? base.second : 0
        if rule.frequency == .hourly { base.minute = 0 }
        return base.addingWallSeconds(Int64(period) * Int64(rule.interval) * unitSeconds)
    }

    /// Days since the epoch of the first day of the week (from `WKST`) that holds `time`.
    private func weekStartDay(of time: CivilDateTime) -> Int64 {
        let day = time.daysSinceEpoch
        return day - Int64((time.weekday - rule.weekStart + 7) % 7)
    }

    /// Appends period `period`'s times to `times`, sorted; returns the next period to look at,
    /// or nil past year 9999.
    private func timesOfPeriod(_ period: Int, into times: inout [CivilDateTime]) -> Int? {
        let step = Int64(period) * Int64(rule.interval)
        var days: [CivilDateTime] = []
        switch rule.frequency {
        case .yearly:
            guard step <= 9999, start.year + Int(step) <= 9999 else { return nil }
            days = daysOfYear(start.year + Int(step))
        case .monthly:
            let first = beginning(ofPeriod: period)
            guard first.year <= 9999 else { return nil }
            days = daysOfMonth(year: first.year, month: first.month)
        case .weekly:
            let first = weekStartDay(of: start) + step * 7
            guard first < Self.lastDay else { return nil }
            days = (first..<first + 7).compactMap { dayIfAdmitted($0) }
        case .daily:
            let day = start.daysSinceEpoch + step
            guard day <= Self.lastDay else { return nil }
            guard let admitted = dayIfAdmitted(day) else {
                // A month `BYMONTH` leaves out is skipped whole.
                guard let next = firstDayOfNextAdmittedMonth(after: day) else { return period + 1 }
                let interval = Int64(rule.interval)
                return max(period + 1, Int(clamping: (next - start.daysSinceEpoch + interval - 1) / interval))
            }
            days = [admitted]
        case .hourly, .minutely, .secondly:
            return subDailyTimes(period, into: &times)
        }
        var all: [CivilDateTime] = []
        all.reserveCapacity(days.count * hours.count * minutes.count * seconds.count)
        for day in days {
            for hour in hours {
                for minute in minutes {
                    for second in seconds {
                        var time = day
                        (time.hour, time.minute, time.second) = (hour, minute, second)
                        all.append(time)
                    }
                }
            }
        }
        pick(all, into: &times)
        return period + 1
    }

    /// Days since the epoch of 31 December 9999.
    private static let lastDay = CivilDateTime.daysSinceEpoch(year: 9999, month: 12, day: 31)

    /// `BYSETPOS` applied to a period's sorted times.
    private func pick(_ all: [CivilDateTime], into times: inout [CivilDateTime]) {
        guard !rule.bySetPos.isEmpty else {
            times += all
            return
        }
        var picked = Set<Int>()
        for position in rule.bySetPos {
            let index = position > 0 ? position - 1 : all.count + position
            if all.indices.contains(index) { picked.insert(index) }
        }
        times += picked.sorted().map { all[$0] }
    }

    /// A sub-daily period's times; skips to the next day, hour or minute that can match when a
    /// coarser part rules the period out.
    private func subDailyTimes(_ period: Int, into times: inout [CivilDateTime]) -> Int? {
        let base = periodStart(period)
        guard base.year <= 9999 else { return nil }
        func skip(to boundary: CivilDateTime) -> Int {
            let wanted = boundary.wallSeconds(since: periodStart(0))
            let span = Int64(rule.interval) * unitSeconds
            return max(period + 1, Int(clamping: (wanted + span - 1).floorDivided(by: span)))
        }
        guard dayIfAdmitted(base.daysSinceEpoch) != nil else {
            var midnight = base.addingDays(1)
            if let next = firstDayOfNextAdmittedMonth(after: base.daysSinceEpoch) {
                midnight = CivilDateTime(midnightOfDay: next)
            }
            (midnight.hour, midnight.minute, midnight.second) = (0, 0, 0)
            return skip(to: midnight)
        }
        guard rule.byHour.isEmpty || rule.byHour.contains(base.hour) else {
            var next = base.addingWallSeconds(3600)
            (next.minute, next.second) = (0, 0)
            return skip(to: next)
        }
        var all: [CivilDateTime] = []
        switch rule.frequency {
        case .hourly:
            for minute in minutes {
                for second in seconds {
                    var time = base
                    (time.minute, time.second) = (minute, second)
                    all.append(time)
                }
            }
        case .minutely:
            guard rule.byMinute.isEmpty || rule.byMinute.contains(base.minute) else {
                var next = base.addingWallSeconds(60)
                next.second = 0
                return skip(to: next)
            }
            for second in seconds {
                var time = base
                time.second = second
                all.append(time)
            }
        default:
            if (rule.byMinute.isEmpty || rule.byMinute.contains(base.minute))
                && (rule.bySecond.isEmpty || rule.bySecond.contains(base.second))
            {
                all.append(base)
            }
        }
        pick(all, into: &times)
        return period + 1
    }

    // MARK: Days

    /// When `BYMONTH` leaves out the month of `day` (days since the epoch): the first day of
    /// the next month it admits; nil when it admits that month, or there is no `BYMONTH`.
    private func firstDayOfNextAdmittedMonth(after day: Int64) -> Int64? {
        guard !rule.byMonth.isEmpty else { return nil }
        let (year, month, _) = CivilDateTime.civil(fromDaysSinceEpoch: day)
        guard !rule.byMonth.contains(Int(month)) else { return nil }
        let next = rule.byMonth.first { $0 > Int(month) }
        return CivilDateTime.daysSinceEpoch(
            year: next == nil ? year + 1 : year, month: Int64(next ?? rule.byMonth[0]), day: 1)
    }

    /// The admitted days of `year`, ascending.
    private func daysOfYear(_ year: Int) -> [CivilDateTime] {
        let inMonths = months.isEmpty ? Array(1...12) : months
        if directDays { return inMonths.flatMap { directDaysOfMonth(year: year, month: $0) } }
        return inMonths.flatMap { admittedDays(year: year, month: $0) }
    }

    /// The admitted days of a month, ascending.
    private func daysOfMonth(year: Int, month: Int) -> [CivilDateTime] {
        guard months.isEmpty || months.contains(month) else { return [] }
        return directDays ? directDaysOfMonth(year: year, month: month) : admittedDays(year: year, month: month)
    }

    private func directDaysOfMonth(year: Int, month: Int) -> [CivilDateTime] {
        let length = CivilDateTime.daysInMonth(year: year, month: month)
        return monthDays.filter { $0 <= length }.map { CivilDateTime(year: year, month: month, day: $0) }
    }

    /// Every day of a month that the day-level parts admit, walked with its weekday rather than
    /// converted from a day number each.
    private func admittedDays(year: Int, month: Int) -> [CivilDateTime] {
        let first = CivilDateTime(year: year, month: month, day: 1)
        var day = first.daysSinceEpoch
        var weekday = first.weekday
        var result: [CivilDateTime] = []
        for dayOfMonth in 1...CivilDateTime.daysInMonth(year: year, month: month) {
            let date = CivilDateTime(year: year, month: month, day: dayOfMonth)
            if admits(date, day: day, weekday: weekday) { result.append(date) }
            day += 1
            weekday = weekday == 6 ? 0 : weekday + 1
        }
        return result
    }

    /// The day `day` (days since the epoch) when every day-level part admits it.
    private func dayIfAdmitted(_ day: Int64) -> CivilDateTime? {
        let date = CivilDateTime(midnightOfDay: day)
        return admits(date, day: day, weekday: date.weekday) ? date : nil
    }

    /// Whether every day-level part admits `date`, which is day `day` since the epoch, a `weekday`.
    private func admits(_ date: CivilDateTime, day: Int64, weekday: Int) -> Bool {
        guard date.year <= 9999 else { return false }
        if !months.isEmpty, !months.contains(date.month) { return false }
        if !weekdays.isEmpty, !weekdays.contains(weekday) { return false }
        if !monthDays.isEmpty {
            let monthLength = CivilDateTime.daysInMonth(year: date.year, month: date.month)
            guard monthDays.contains(date.day) || monthDays.contains(date.day - monthLength - 1) else { return false }
        }
        if !rule.byYearDay.isEmpty {
            let yearDay = Int(day - CivilDateTime.daysSinceEpoch(year: Int64(date.year), month: 1, day: 1)) + 1
            let yearLength = CivilDateTime.isLeapYear(date.year) ? 366 : 365
            guard rule.byYearDay.contains(yearDay) || rule.byYearDay.contains(yearDay - yearLength - 1) else {
                return false
            }
        }
        if !rule.byWeekNo.isEmpty, !weekNumberAdmits(day: day, year: date.year) { return false }
        if !numberedWeekdays.isEmpty, !numberedWeekdayAdmits(date, day: day, weekday: weekday) { return false }
        return true
    }

    /// Whether a numbered `BYDAY` picks `date`: counted in its month for a monthly rule and for
    /// a yearly one with `BYMONTH`, else in its year.
    private func numberedWeekdayAdmits(_ date: CivilDateTime, day: Int64, weekday: Int) -> Bool {
        let inMonth = rule.frequency == .monthly || !rule.byMonth.isEmpty
        let offset: Int64
        let length: Int64
        if inMonth {
            offset = Int64(date.day - 1)
            length = Int64(CivilDateTime.daysInMonth(year: date.year, month: date.month))
        } else {
            offset = day - CivilDateTime.daysSinceEpoch(year: Int64(date.year), month: 1, day: 1)
            length = CivilDateTime.isLeapYear(date.year) ? 366 : 365
        }
        let fromStart = Int(offset / 7) + 1
        let fromEnd = -(Int((length - 1 - offset) / 7) + 1)
        return numberedWeekdays.contains {
            $0.weekday == weekday && ($0.ordinal == fromStart || $0.ordinal == fromEnd)
        }
    }

    /// Whether `BYWEEKNO` admits the day: weeks start on `WKST`, week 1 is the first with at
    /// least four days of the year, and a day in the previous year's last week or the next
    /// year's first matches as that week.
    private func weekNumberAdmits(day: Int64, year: Int) -> Bool {
        let thisYear = week1Start(year)
        let nextYear = week1Start(year + 1)
        if day < thisYear {
            let previous = week1Start(year - 1)
            let number = Int((day - previous) / 7) + 1
            return rule.byWeekNo.contains(number) || rule.byWeekNo.contains(-1)
        }
        if day >= nextYear { return rule.byWeekNo.contains(1) }
        let weeks = Int((nextYear - thisYear) / 7)
        let number = Int((day - thisYear) / 7) + 1
        return rule.byWeekNo.contains(number) || rule.byWeekNo.contains(number - weeks - 1)
    }

    /// Days since the epoch of the first day of week 1 of `year`: the `WKST` day on or before
    /// 4 January.
    private func week1Start(_ year: Int) -> Int64 {
        let fourth = CivilDateTime(year: year, month: 1, day: 4)
        return fourth.daysSinceEpoch - Int64((fourth.weekday - rule.weekStart + 7) % 7)
    }
}
