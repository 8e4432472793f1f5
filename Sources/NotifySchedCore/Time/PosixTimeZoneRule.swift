/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3`: a standard time, optionally a
/// daylight-saving time and the yearly dates that switch between them.
///
/// The grammar is POSIX's with the RFC 8536 extensions: quoted names (`<+0330>-3:30`),
/// transition times from −167 to 167 hours, and DST all year round (`EST5EDT,0/0,J365/25`).
/// A rule with a DST name but no dates uses the US rules (`M3.2.0,M11.1.0`), as glibc does
/// when `posixrules` is the usual New York file.
public struct PosixTimeZoneRule: Hashable, Sendable {
    /// The day of the year a transition happens on.
    public enum Day: Hashable, Sendable {
        /// `Jn`: day 1…365, February 29 never counted.
        case julian(Int)
        /// `n`: day 0…365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1…5, 5 = the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// When in a year a transition happens.
    public struct Transition: Hashable, Sendable {
        /// The day.
        public var day: Day
        /// Local time of day in seconds, read in the time in force before the transition;
        /// may be negative or beyond 24 hours.
        public var secondOfDay: Int
    }

    /// The standard time.
    public let standard: ZoneOffset
    /// Daylight-saving time and the transitions into and out of it.
    public struct DaylightSaving: Hashable, Sendable {
        /// The offset while DST is in force.
        public var offset: ZoneOffset
        /// When DST starts, read in standard time.
        public var start: Transition
        /// When DST ends, read in daylight-saving time.
        public var end: Transition
    }

    /// The daylight-saving time and when it starts and ends, if the zone has one.
    public let daylight: DaylightSaving?

    /// Parses a POSIX `TZ` value.
    ///
    /// - Parameter text: The rule, without a leading `:`.
    /// - Throws: `CoreError` with code `.invalidZoneData` naming what is malformed.
    public init(parsing text: String) throws(CoreError) {
        var scanner = RuleScanner(text)
        let standardName = try scanner.name()
        let standardOffset = try scanner.offset()
        standard = ZoneOffset(seconds: standardOffset, isDST: false, abbreviation: standardName)
        if scanner.atEnd {
            daylight = nil
            return
        }
        let daylightName = try scanner.name()
        var daylightOffset = standardOffset + 3600
        if !scanner.atEnd && scanner.peek != UInt8(ascii: ",") {
            daylightOffset = try scanner.offset()
        }
        let start: Transition
        let end: Transition
        if scanner.atEnd {
            start = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), secondOfDay: 7200)
            end = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), secondOfDay: 7200)
        } else {
            try scanner.expect(UInt8(ascii: ","))
            start = try scanner.transition()
            try scanner.expect(UInt8(ascii: ","))
            end = try scanner.transition()
        }
        guard scanner.atEnd else { throw scanner.failure("unexpected text after the DST end rule") }
        daylight = DaylightSaving(
            offset: ZoneOffset(seconds: daylightOffset, isDST: true, abbreviation: daylightName), start: start, end: end
        )
    }

    /// The offset in force at `instant`.
    ///
    /// - Complexity: O(1).
    public func offset(at instant: Instant) -> ZoneOffset {
        guard let daylight else { return standard }
        return isDaylight(at: instant.secondsSinceEpoch) ? daylight.offset : standard
    }

    /// The first instant after `instant` at which the offset changes, or nil if it never does.
    ///
    /// - Complexity: O(1).
    public func nextTransition(after instant: Instant) -> Instant? {
        guard daylight != nil else { return nil }
        let seconds = instant.secondsSinceEpoch
        let year = Self.year(ofSeconds: seconds + Int64(standard.seconds))
        for event in events(years: (year - 1)...(year + 2)) where event.time > seconds {
            if isDaylight(at: event.time) != isDaylight(at: event.time - 1) {
                return Instant(secondsSinceEpoch: event.time)
            }
        }
        return nil
    }

    /// Whether DST is in force at `seconds`: the state set by the latest transition at or
    /// before it. Transitions of three years are enough because a rule's times stay within a
    /// week of its day.
    private func isDaylight(at seconds: Int64) -> Bool {
        let year = Self.year(ofSeconds: seconds + Int64(standard.seconds))
        var state = false
        for event in events(years: (year - 2)...(year + 1)) where event.time <= seconds {
            state = event.startsDaylight
        }
        return state
    }

    /// The start and end instants of `years`, in time order; at equal times an end sorts
    /// before a start, so DST all year round stays on across the new year.
    private func events(years: ClosedRange<Int64>) -> [(time: Int64, startsDaylight: Bool)] {
        guard let daylight else { return [] }
        var result: [(time: Int64, startsDaylight: Bool)] = []
        result.reserveCapacity(2 * years.count)
        for year in years {
            result.append((Self.instant(of: daylight.start, year: year, offset: standard.seconds), true))
            result.append((Self.instant(of: daylight.end, year: year, offset: daylight.offset.seconds), false))
        }
        result.sort { $0.time != $1.time ? $0.time < $1.time : (!$0.startsDaylight && $1.startsDaylight) }
        return result
    }

    private static func year(ofSeconds seconds: Int64) -> Int64 {
        CivilDateTime.civil(fromDaysSinceEpoch: seconds.floorDivided(by: 86_400)).year
    }

    private static func instant(of transition: Transition, year: Int64, offset: Int) -> Int64 {
        let days: Int64
        switch transition.day {
        case .julian(let n):
            let leapShift: Int64 = CivilDateTime.isLeapYear(Int(year)) && n >= 60 ? 1 : 0
            days = CivilDateTime.daysSinceEpoch(year: year, month: 1, day: 1) + Int64(n - 1) + leapShift
        case .zeroBased(let n):
            days = CivilDateTime.daysSinceEpoch(year: year, month: 1, day: 1) + Int64(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDateTime.daysSinceEpoch(year: year, month: Int64(month), day: 1)
            let firstWeekday = (first + 4).floorModulo(7)
            var day = 1 + (Int64(weekday) - firstWeekday + 7) % 7 + Int64(week - 1) * 7
            let length = Int64(CivilDateTime.daysInMonth(year: Int(year), month: month))
            while day > length { day -= 7 }
            days = first + day - 1
        }
        return days * 86_400 + Int64(transition.secondOfDay) - Int64(offset)
    }
}

/// Reads the pieces of a POSIX `TZ` string.
private struct RuleScanner {
    private let text: String
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    var atEnd: Bool { index == bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func failure(_ what: String) -> CoreError {
        CoreError(.invalidZoneData, "TZ rule \(QuotedInput.quoted(text)): \(what) at offset \(index)")
    }

    mutating func expect(_ byte: UInt8) throws(CoreError) {
        guard peek == byte else { throw failure("expected \"\(Character(Unicode.Scalar(byte)))\"") }
        index += 1
    }

    /// `<…>` with letters, digits, `+` and `-`, or three or more letters.
    mutating func name() throws(CoreError) -> String {
        let start = index
        if peek == UInt8(ascii: "<") {
            index += 1
            while let byte = peek, byte != UInt8(ascii: ">") {
                guard Self.isAlpha(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                else { throw failure("invalid character in a quoted zone name") }
                index += 1
            }
            guard peek == UInt8(ascii: ">"), index - start - 1 >= 3 else {
                throw failure("a quoted zone name needs three or more characters and a closing \">\"")
            }
            index += 1
            return String(decoding: bytes[(start + 1)..<(index - 1)], as: UTF8.self)
        }
        while let byte = peek, Self.isAlpha(byte) { index += 1 }
        guard index - start >= 3 else { throw failure("a zone name needs three or more letters") }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `[+-]hh[:mm[:ss]]` west of UTC, returned as seconds east of UTC.
    mutating func offset() throws(CoreError) -> Int {
        let west = try clock(maxHours: 24)
        return -west
    }

    /// `date[/time]`.
    mutating func transition() throws(CoreError) -> PosixTimeZoneRule.Transition {
        let day: PosixTimeZoneRule.Day
        if peek == UInt8(ascii: "J") {
            index += 1
            let n = try number(maxDigits: 3)
            guard (1...365).contains(n) else { throw failure("Jn day \(n) is outside 1…365") }
            day = .julian(n)
        } else if peek == UInt8(ascii: "M") {
            index += 1
            let month = try number(maxDigits: 2)
            try expect(UInt8(ascii: "."))
            let week = try number(maxDigits: 1)
            try expect(UInt8(ascii: "."))
            let weekday = try number(maxDigits: 1)
            guard (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else {
                throw failure("Mm.w.d out of range (m 1…12, w 1…5, d 0…6)")
            }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            let n = try number(maxDigits: 3)
            guard (0...365).contains(n) else { throw failure("day \(n) is outside 0…365") }
            day = .zeroBased(n)
        }
        var secondOfDay = 7200
        if peek == UInt8(ascii: "/") {
            index += 1
            secondOfDay = try clock(maxHours: 167)
        }
        return PosixTimeZoneRule.Transition(day: day, secondOfDay: secondOfDay)
    }

    private mutating func clock(maxHours: Int) throws(CoreError) -> Int {
        var sign = 1
        if peek == UInt8(ascii: "+") {
            index += 1
        } else if peek == UInt8(ascii: "-") {
            sign = -1
            index += 1
        }
        let hours = try number(maxDigits: 3)
        guard hours <= maxHours else { throw failure("hours \(hours) exceed \(maxHours)") }
        var total = hours * 3600
        for multiplier in [60, 1] {
            guard peek == UInt8(ascii: ":") else { break }
            index += 1
            let value = try number(maxDigits: 2)
            guard value <= 59 else { throw failure("minutes or seconds \(value) exceed 59") }
            total += value * multiplier
        }
        return sign * total
    }

    private mutating func number(maxDigits: Int) throws(CoreError) -> Int {
        let start = index
        var value = 0
        while let byte = peek, Self.isDigit(byte), index - start < maxDigits {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            index += 1
        }
        guard index > start else { throw failure("expected a number") }
        return value
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
