/// A systemd calendar expression (systemd.time(7)): `Mon..Fri *-*-* 09:00`, `*-*~1`,
/// `*:0/15`, `weekly`, `*-*-01 08:00:00 Europe/Berlin`.
///
/// Parsing, the normalized form and the elapse times reproduce systemd 252
/// (`systemd-analyze calendar`) exactly, including how glibc's `mktime` resolves wall-clock
/// times in DST gaps and overlaps.
///
/// ```swift
/// let expression = try CalendarExpression.parse("Mon..Fri 09:00", zones: database)
/// expression.normalized                        // "Mon..Fri *-*-* 09:00:00"
/// expression.nextElapse(after: now, in: zone)  // the next weekday 09:00 in `zone`
/// ```
public struct CalendarExpression: Hashable, Sendable, CustomStringConvertible {
    /// One comma-separated item of a field: a value, a range, a repetition.
    struct Component: Hashable, Sendable, Comparable {
        /// The first value (microseconds for the seconds field).
        var start: Int
        /// The last value of a range, or -1.
        var stop: Int
        /// The step, or 0 for none.
        var repetition: Int

        static func constant(_ value: Int) -> Component {
            Component(start: value, stop: -1, repetition: 0)
        }

        static func < (lhs: Component, rhs: Component) -> Bool {
            (lhs.start, lhs.stop, lhs.repetition) < (rhs.start, rhs.stop, rhs.repetition)
        }

        // Most fields of most expressions are one value (`2027-03-04 12:00:00`, `*-*-* 09:00`):
        // each such field gets the array of its value that every expression shares, where an
        // array of its own took 64 bytes of heap a field, some 380 bytes an expression.
        /// The shared array with the one value of `components`; nil when they are not one value
        /// that has one.
        static func shared(_ components: [Component]) -> [Component]? {
            if components == everySecond { return everySecond }
            guard components.count == 1, components[0].stop == -1, components[0].repetition == 0 else { return nil }
            let value = components[0].start
            switch value {
            case 0..<60: return smallValues[value]
            case CalendarExpression.years: return years[value - CalendarExpression.years.lowerBound]
            case let microseconds where microseconds % 1_000_000 == 0 && microseconds / 1_000_000 < 60:
                return wholeSeconds[microseconds / 1_000_000]
            default: return nil
            }
        }

        /// The seconds field's `*`.
        static let everySecond = [Component(start: 0, stop: -1, repetition: 1_000_000)]
        /// One value from 0 to 59: a month, day, hour, minute, or the first second.
        private static let smallValues = (0..<60).map { [constant($0)] }
        /// A year systemd takes.
        private static let years = CalendarExpression.years.map { [constant($0)] }
        /// A whole second, in microseconds.
        private static let wholeSeconds = (0..<60).map { [constant($0 * 1_000_000)] }
    }

    /// The years systemd takes.
    static let years = 1970...2199

    /// Weekday bits, bit 0 = Monday … bit 6 = Sunday; nil matches every day.
    var weekdays: Int?
    /// Each field's components, sorted and unique; nil is `*`.
    var year: [Component]?
    var month: [Component]?
    var day: [Component]?
    var hour: [Component]?
    var minute: [Component]?
    /// In microseconds.
    var second: [Component]?
    /// `~`: days count back from the end of the month.
    var endOfMonth = false
    /// Evaluated in UTC.
    var utc = false
    /// -1 when no local abbreviation was given, else 0 (standard) or 1 (daylight).
    var daylightFlag = -1
    /// The local abbreviation as the zone spells it, shown in the normalized form.
    var localAbbreviation: String?
    /// A named zone the expression is evaluated in.
    var zone: ZoneRules?

    public var description: String { normalized }

    /// The expression as `systemd-analyze calendar` prints it after "Normalized form:".
    ///
    /// Every field is spelled out (`*-*-* 00:00:00` for `daily`), seconds with six fraction
    /// digits when there is a fraction, weekdays as ranges where three or more follow each other.
    public var normalized: String {
        var text = ""
        if let weekdays {
            text += Self.formatWeekdays(weekdays) + " "
        }
        text += Self.format(year, width: 4, unit: 1) + "-" + Self.format(month, width: 2, unit: 1)
        text += (endOfMonth ? "~" : "-") + Self.format(day, width: 2, unit: 1)
        text += " " + Self.format(hour, width: 2, unit: 1) + ":" + Self.format(minute, width: 2, unit: 1)
        text += ":" + Self.format(second, width: 2, unit: 1_000_000)
        if utc {
            text += " UTC"
        } else if let zone {
            text += " " + zone.identifier
        } else if let localAbbreviation, !localAbbreviation.isEmpty {
            text += " " + localAbbreviation
        }
        return text
    }

    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private static func formatWeekdays(_ bits: Int) -> String {
        var text = ""
        var runStart = -1
        func closeRun(before end: Int) {
            if end > runStart + 1 {
                text += (end > runStart + 2 ? ".." : ",") + weekdayNames[end - 1]
            }
        }
        for day in 0..<7 {
            if bits & (1 << day) != 0 {
                if runStart < 0 {
                    text += (text.isEmpty ? "" : ",") + weekdayNames[day]
                    runStart = day
                }
            } else if runStart >= 0 {
                closeRun(before: day)
                runStart = -1
            }
        }
        if runStart >= 0 { closeRun(before: 7) }
        return text
    }

    private static func format(_ components: [Component]?, width: Int, unit: Int) -> String {
        guard let components else { return "*" }
        // systemd prints a seconds list whose first (least) component is every second as `*`,
        // even when more components follow.
        if unit > 1, components.first == Component(start: 0, stop: -1, repetition: unit) {
            return "*"
        }
        return components.map { component in
            var text = CivilDateTime.padded(component.start / unit, width)
            if component.start % unit > 0 { text += "." + CivilDateTime.padded(component.start % unit, 6) }
            if component.stop > 0 {
                text += ".." + CivilDateTime.padded(component.stop / unit, width)
                if component.stop % unit > 0 { text += "." + CivilDateTime.padded(component.stop % unit, 6) }
            }
            if component.repetition > 0 && !(component.stop > 0 && component.repetition == unit) {
                text += "/\(component.repetition / unit)"
            }
            if component.repetition % unit > 0 { text += "." + CivilDateTime.padded(component.repetition % unit, 6) }
            return text
        }.joined(separator: ",")
    }
}
