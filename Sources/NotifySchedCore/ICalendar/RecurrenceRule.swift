/// An iCalendar `RRULE` (RFC 5545 §3.3.10): which wall-clock times after a start recur.
///
/// Parsed from its text (`FREQ=MONTHLY;BYDAY=-1FR;COUNT=5`); `RecurrenceExpansion` lists the
/// times. `UNTIL` stays a time to resolve against zones (it may be UTC while the start is
/// local); a `COUNT` is turned into the last time it admits when a series is built.
public struct RecurrenceRule: Sendable, Hashable {
    /// The unit a rule steps by, coarsest last.
    public enum Frequency: Int, Sendable, Comparable, CaseIterable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        public static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            switch self {
            case .secondly: "SECONDLY"
            case .minutely: "MINUTELY"
            case .hourly: "HOURLY"
            case .daily: "DAILY"
            case .weekly: "WEEKLY"
            case .monthly: "MONTHLY"
            case .yearly: "YEARLY"
            }
        }
    }

    /// A `BYDAY` element: a weekday (0 = Sunday … 6 = Saturday), every one in the period when
    /// `ordinal` is 0, else the `ordinal`-th (negative: from the end).
    public struct WeekdayNumber: Sendable, Hashable {
        public var ordinal: Int
        public var weekday: Int
    }

    public var frequency: Frequency
    public var interval: Int
    /// `UNTIL`: the last time an instance may fall on (inclusive).
    public var until: FireTime?
    /// Whether `UNTIL` is a date (`VALUE=DATE` form).
    public var untilIsDate: Bool
    /// `COUNT`.
    public var count: Int?
    /// `WKST`: the day weeks start on (0 = Sunday); Monday by default.
    public var weekStart: Int
    public var bySecond: [Int]
    public var byMinute: [Int]
    public var byHour: [Int]
    public var byDay: [WeekdayNumber]
    public var byMonthDay: [Int]
    public var byYearDay: [Int]
    public var byWeekNo: [Int]
    public var byMonth: [Int]
    public var bySetPos: [Int]

    /// The largest `COUNT` read: a count is walked once from the start when a series is built.
    public static let maximumCount = 100_000

    static let weekdayNames = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// Reads a rule.
    ///
    /// - Parameter untilTime: Reads the `UNTIL` value (a date, a time with `Z`, or a local time).
    /// - Throws: `CoreError` with `.invalidRecurrence`, saying which part is wrong.
    init(
        parsing text: String, untilTime: (Substring) -> (time: FireTime, isDate: Bool)?
    ) throws(CoreError) {
        func fail(_ message: String) -> CoreError { CoreError(.invalidRecurrence, message) }
        var frequency: Frequency?
        interval = 1
        until = nil
        untilIsDate = false
        count = nil
        weekStart = 1
        (bySecond, byMinute, byHour, byDay, byMonthDay, byYearDay, byWeekNo, byMonth, bySetPos) =
            ([], [], [], [], [], [], [], [], [])
        var seen = Set<String>()
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            guard let equals = part.firstIndex(of: "=") else { throw fail("`\(part)` has no `=`") }
            let name = part[..<equals].uppercased()
            let value = part[part.index(after: equals)...]
            guard seen.insert(name).inserted else { throw fail("\(name) is given twice") }
            func numbers(_ range: ClosedRange<Int>, negative: Bool, zero: Bool = false) throws(CoreError) -> [Int] {
                var result: [Int] = []
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let number = Int(item), range.contains(abs(number)) || (zero && number == 0),
                        negative || number >= 0, zero || number != 0
                    else { throw fail("\(name) has `\(item)`, which is not a number in \(range)") }
                    result.append(number)
                }
                guard result.count <= 400 else { throw fail("\(name) lists more than 400 values") }
                return Array(Set(result)).sorted()
            }
            switch name {
            case "FREQ":
                frequency = Frequency.allCases.first { $0.name == value.uppercased() }
                guard frequency != nil else { throw fail("FREQ is `\(value)`, not SECONDLY … YEARLY") }
            case "INTERVAL":
                guard let number = Int(value), (1...1_000_000).contains(number) else {
                    throw fail("INTERVAL is `\(value)`, not a whole number from 1")
                }
                interval = number
            case "COUNT":
                guard let number = Int(value), (1...Self.maximumCount).contains(number) else {
                    throw fail("COUNT is `\(value)`, not a whole number from 1 to \(Self.maximumCount)")
                }
                count = number
            case "UNTIL":
                guard let read = untilTime(value) else { throw fail("UNTIL is `\(value)`, not a date or a time") }
                (until, untilIsDate) = (read.time, read.isDate)
            case "WKST":
                guard let day = Self.weekdayNames.firstIndex(of: value.uppercased()) else {
                    throw fail("WKST is `\(value)`, not SU … SA")
                }
                weekStart = day
            case "BYSECOND": bySecond = try numbers(0...60, negative: false, zero: true).map { min($0, 59) }
            case "BYMINUTE": byMinute = try numbers(0...59, negative: false, zero: true)
            case "BYHOUR": byHour = try numbers(0...23, negative: false, zero: true)
            case "BYMONTHDAY": byMonthDay = try numbers(1...31, negative: true)
            case "BYYEARDAY": byYearDay = try numbers(1...366, negative: true)
            case "BYWEEKNO": byWeekNo = try numbers(1...53, negative: true)
            case "BYMONTH": byMonth = try numbers(1...12, negative: false)
            case "BYSETPOS": bySetPos = try numbers(1...366, negative: true)
            case "BYDAY":
                for item in value.split(separator: ",", omittingEmptySubsequences: false) {
                    let day = item.suffix(2).uppercased()
                    let ordinalText = item.dropLast(2)
                    guard let weekday = Self.weekdayNames.firstIndex(of: day),
                        let ordinal = ordinalText.isEmpty ? 0 : Int(ordinalText), (-53...53).contains(ordinal),
                        ordinalText.isEmpty || ordinal != 0
                    else { throw fail("BYDAY has `\(item)`, not a weekday such as MO, 1MO or -1FR") }
                    byDay.append(WeekdayNumber(ordinal: ordinal, weekday: weekday))
                }
            default:
                throw fail("`\(name)` is not a part of a recurrence rule")
            }
        }
        guard let frequency else { throw fail("the rule has no FREQ") }
        self.frequency = frequency
        if until != nil, count != nil { throw fail("the rule has both UNTIL and COUNT; RFC 5545 allows one") }
        if !bySetPos.isEmpty,
            [bySecond, byMinute, byHour, byMonthDay, byYearDay, byWeekNo, byMonth].allSatisfy(\.isEmpty), byDay.isEmpty
        {
            throw fail("BYSETPOS needs another BYxxx part to pick from")
        }
        if !byWeekNo.isEmpty, frequency != .yearly { throw fail("BYWEEKNO is allowed only with FREQ=YEARLY") }
        if !byYearDay.isEmpty, frequency == .daily || frequency == .weekly || frequency == .monthly {
            throw fail("BYYEARDAY is not allowed with FREQ=\(frequency.name)")
        }
        if !byMonthDay.isEmpty, frequency == .weekly { throw fail("BYMONTHDAY is not allowed with FREQ=WEEKLY") }
        if byDay.contains(where: { $0.ordinal != 0 }), frequency != .monthly, frequency != .yearly {
            throw fail("a numbered BYDAY (such as 1MO) needs FREQ=MONTHLY or YEARLY")
        }
        if byDay.contains(where: { $0.ordinal != 0 }), frequency == .yearly, !byWeekNo.isEmpty {
            throw fail("a numbered BYDAY is not allowed with BYWEEKNO")
        }
    }
}

extension ErrorCode where Domain == CoreError {
    /// A recurrence (`RRULE`, `RDATE`, `EXDATE`, `RECURRENCE-ID`) is malformed or out of bounds.
    public static var invalidRecurrence: Self { Self(rawValue: "entry.invalid-recurrence") }
}
