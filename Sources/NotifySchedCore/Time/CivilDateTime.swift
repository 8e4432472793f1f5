/// A wall-clock date and time with no zone: what a clock on the wall shows.
///
/// Fields are not normalized on their own; `isValid` tells whether they name a real
/// proleptic-Gregorian date and time. Conversion to an `Instant` needs a zone
/// (`ZoneRules.resolve(_:)`) or an offset (`instant(atOffset:)`).
public struct CivilDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var year: Int
    /// 1…12.
    public var month: Int
    /// 1…31.
    public var day: Int
    /// 0…23.
    public var hour: Int
    /// 0…59.
    public var minute: Int
    /// 0…59.
    public var second: Int
    /// 0…999 999.
    public var microsecond: Int

    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, microsecond: Int = 0)
    {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.microsecond = microsecond
    }

    /// The years notify-sched reads and computes with: those an RFC 3339 time and a property
    /// list date can write. Every instant of them, in every zone, fits an `Instant`.
    public static let supportedYears = 1...9999

    /// Whether every field is in range for a real date (leap years included; no leap seconds)
    /// within `supportedYears`.
    public var isValid: Bool {
        Self.supportedYears.contains(year) && (1...12).contains(month) && day >= 1
            && day <= CivilDateTime.daysInMonth(year: year, month: month)
            && (0...23).contains(hour) && (0...59).contains(minute) && (0...59).contains(second)
            && (0...999_999).contains(microsecond)
    }

    /// Days since 1970-01-01 of this date (negative before).
    ///
    /// - Complexity: O(1).
    public var daysSinceEpoch: Int64 {
        CivilDateTime.daysSinceEpoch(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// The day of the week, 0 = Sunday … 6 = Saturday.
    public var weekday: Int {
        Int((daysSinceEpoch + 4).floorModulo(7))
    }

    /// The instant this wall-clock time names at a fixed UTC offset (seconds east of UTC).
    public func instant(atOffset offsetSeconds: Int) -> Instant {
        let seconds = daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        return Instant(microseconds: seconds * 1_000_000 + Int64(microsecond))
    }

    /// The wall-clock time of `instant` at a fixed UTC offset (seconds east of UTC).
    public init(_ instant: Instant, offset offsetSeconds: Int) {
        let local = instant.secondsSinceEpoch + Int64(offsetSeconds)
        let days = local.floorDivided(by: 86_400)
        let secondOfDay = Int(local.floorModulo(86_400))
        let (year, month, day) = CivilDateTime.civil(fromDaysSinceEpoch: days)
        self.init(
            year: Int(year), month: Int(month), day: Int(day),
            hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60,
            microsecond: Int(instant.microsecondOfSecond))
    }

    public var description: String {
        var text = "\(CivilDateTime.padded(year, 4))-\(CivilDateTime.padded(month, 2))-\(CivilDateTime.padded(day, 2))"
        text +=
            "T\(CivilDateTime.padded(hour, 2)):\(CivilDateTime.padded(minute, 2)):\(CivilDateTime.padded(second, 2))"
        if microsecond != 0 {
            text += "." + CivilDateTime.fraction(microsecond)
        }
        return text
    }

    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        let left = (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second)
        let right = (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second)
        return left < right || (left == right && lhs.microsecond < rhs.microsecond)
    }
}

extension CivilDateTime {
    /// `2026-03-10`.
    var isoDate: String { "\(year)-\(CivilDateTime.padded(month, 2))-\(CivilDateTime.padded(day, 2))" }
    /// `09:30`.
    var clockTime: String { "\(CivilDateTime.padded(hour, 2)):\(CivilDateTime.padded(minute, 2))" }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` (1…12) of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic-Gregorian date (Howard Hinnant's `days_from_civil`).
    ///
    /// `month` may be any value; it is normalized into the year first.
    public static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let monthIndex = (month - 1).floorModulo(12)
        let y = year + (month - 1).floorDivided(by: 12) - (monthIndex < 2 ? 1 : 0)
        let era = y.floorDivided(by: 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = (monthIndex + 10) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Midnight of day `day` since 1970-01-01.
    init(midnightOfDay day: Int64) {
        let (year, month, dayOfMonth) = CivilDateTime.civil(fromDaysSinceEpoch: day)
        self.init(year: Int(year), month: Int(month), day: Int(dayOfMonth))
    }

    /// The same wall-clock time `days` days later (earlier when negative).
    func addingDays(_ days: Int) -> CivilDateTime {
        guard days != 0 else { return self }
        let (year, month, day) = CivilDateTime.civil(fromDaysSinceEpoch: daysSinceEpoch + Int64(days))
        var result = self
        (result.year, result.month, result.day) = (Int(year), Int(month), Int(day))
        return result
    }

    /// The proleptic-Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
    public static func civil(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = z.floorDivided(by: 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Microseconds as a fraction without trailing zeros ("5" for 500 000).
    static func fraction(_ microsecond: Int) -> String {
        var digits = padded(microsecond, 6)
        while digits.hasSuffix("0") { digits.removeLast() }
        return digits
    }
}
