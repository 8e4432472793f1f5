/// A duration as RFC 5545 §3.3.6 writes it (`-P1DT2H`): days are nominal, moved on the wall
/// clock in the zone of the time they are added to, and the rest is exact elapsed time.
public struct ICalendarDuration: Sendable, Hashable {
    /// Whole days (weeks counted as 7), signed.
    public var days: Int
    /// Hours, minutes and seconds, in seconds, signed.
    public var seconds: Int64

    public init(days: Int = 0, seconds: Int64 = 0) {
        self.days = days
        self.seconds = seconds
    }

    public static let zero = ICalendarDuration()

    /// The sum, part by part.
    public static func + (lhs: ICalendarDuration, rhs: ICalendarDuration) -> ICalendarDuration {
        ICalendarDuration(days: lhs.days + rhs.days, seconds: lhs.seconds + rhs.seconds)
    }

    /// `duration` times `factor`, part by part.
    public static func * (duration: ICalendarDuration, factor: Int) -> ICalendarDuration {
        ICalendarDuration(days: duration.days * factor, seconds: duration.seconds * Int64(factor))
    }

    /// Roughly how long it is, counting a day as 24 hours: for bounds, never for instants.
    var roughSpan: TimeSpan { .days(Int64(days)) + .seconds(seconds) }

    /// Reads `[+-]P[nW][nD][T[nH][nM][nS]]`; nil when malformed or beyond 100 years.
    init?(parsing text: String) {
        var characters = Substring(text)
        var negative = false
        if let sign = characters.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            characters.removeFirst()
        }
        guard characters.first == "P" else { return nil }
        characters.removeFirst()
        var days = 0
        var seconds: Int64 = 0
        var inTime = false
        var any = false
        var number: Int64?
        for character in characters {
            if let digit = character.wholeNumberValue, character.isASCII {
                number = (number ?? 0) * 10 + Int64(digit)
                guard number! <= 10_000_000 else { return nil }
                continue
            }
            if character == "T", number == nil, !inTime {
                inTime = true
                continue
            }
            guard let value = number else { return nil }
            switch (character, inTime) {
            case ("W", false): days += Int(value) * 7
            case ("D", false): days += Int(value)
            case ("H", true): seconds += value * 3600
            case ("M", true): seconds += value * 60
            case ("S", true): seconds += value
            default: return nil
            }
            number = nil
            any = true
        }
        guard any, number == nil, days <= 36_600, seconds <= 36_600 * 86_400 else { return nil }
        self.days = negative ? -days : days
        self.seconds = negative ? -seconds : seconds
    }
}

extension CivilDateTime {
    /// Reads an iCalendar `DATE` (`20260310`); nil when malformed or not a real date.
    static func iCalendarDate(_ text: Substring) -> CivilDateTime? {
        iCalendar(text, timed: false)
    }

    /// Reads an iCalendar `DATE-TIME` without its `Z` (`20260310T090000`); nil when malformed
    /// or not a real time (a leap second `60` reads as `59`).
    static func iCalendarDateTime(_ text: Substring) -> CivilDateTime? {
        iCalendar(text, timed: true)
    }

    /// `YYYYMMDD`, then `THHMMSS` when `timed`, as the whole of `text`, read in place.
    private static func iCalendar(_ text: Substring, timed: Bool) -> CivilDateTime? {
        var text = text
        return text.withUTF8 { bytes in
            var scanner = DigitScanner(bytes)
            guard let year = scanner.digits(4), let month = scanner.digits(2), let day = scanner.digits(2) else {
                return nil
            }
            var date = CivilDateTime(year: year, month: month, day: day)
            guard date.isValid else { return nil }
            if timed {
                guard scanner.skip(UInt8(ascii: "T")), let hour = scanner.digits(2), let minute = scanner.digits(2),
                    let second = scanner.digits(2), hour < 24, minute < 60, second <= 60
                else { return nil }
                (date.hour, date.minute, date.second) = (hour, minute, min(second, 59))
            }
            return scanner.atEnd ? date : nil
        }
    }

    /// The wall-clock time `seconds` later on a clock without zone changes.
    func addingWallSeconds(_ seconds: Int64) -> CivilDateTime {
        CivilDateTime(instant(atOffset: 0) + .seconds(seconds), offset: 0)
    }

    /// Whole seconds from `other` to this time on a clock without zone changes.
    func wallSeconds(since other: CivilDateTime) -> Int64 {
        (instant(atOffset: 0) - other.instant(atOffset: 0)).seconds
    }

    /// `20260310T090000`, as iCalendar writes a local time (`20260310` for a date).
    func iCalendarText(dateOnly: Bool) -> String {
        let date = CivilDateTime.padded(year, 4) + CivilDateTime.padded(month, 2) + CivilDateTime.padded(day, 2)
        guard !dateOnly else { return date }
        return date + "T" + CivilDateTime.padded(hour, 2) + CivilDateTime.padded(minute, 2)
            + CivilDateTime.padded(second, 2)
    }
}

extension FireTime {
    /// The wall-clock time it names: a floating time as written, a time with `Z` as it reads
    /// in its zone, or in UTC.
    var wallClock: CivilDateTime {
        switch kind {
        case .floating(let civil): civil
        case .absolute(let instant): (zone ?? .utc).civil(at: instant)
        }
    }

    /// This time moved by `duration`: its days on the wall clock (of its zone, of UTC for a time
    /// with `Z`, of `userZone` for a floating time; a nonexistent time moves forward by the gap, a
    /// repeated one takes the first), then its hours, minutes and seconds as elapsed time.
    func instant(adding duration: ICalendarDuration, userZone: ZoneRules) -> Instant {
        let moved: Instant
        if duration.days == 0 {
            moved = instant(userZone: userZone)
        } else {
            switch kind {
            case .absolute(let instant):
                let zone = self.zone ?? .utc
                moved = zone.instant(forFloating: zone.civil(at: instant).addingDays(duration.days))
            case .floating(let civil):
                moved = (zone ?? userZone).instant(forFloating: civil.addingDays(duration.days))
            }
        }
        return moved + .seconds(duration.seconds)
    }

    /// This time with its wall clock moved by `days` and `seconds`: in its zone, in UTC for a
    /// time with `Z`, and still floating when floating.
    func movingWallClock(days: Int, seconds: Int64) -> FireTime {
        switch kind {
        case .floating(let civil):
            return FireTime(.floating(civil.addingDays(days).addingWallSeconds(seconds)), zone: zone)
        case .absolute(let instant):
            let zone = self.zone ?? .utc
            let moved = zone.civil(at: instant).addingDays(days).addingWallSeconds(seconds)
            return FireTime(.absolute(zone.instant(forFloating: moved)), zone: self.zone)
        }
    }
}
