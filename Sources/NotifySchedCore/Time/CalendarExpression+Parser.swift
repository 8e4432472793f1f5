extension CalendarExpression {
    /// Parses a systemd calendar expression as systemd 252 does.
    ///
    /// The grammar is systemd.time(7)'s: optional weekdays (`Mon`, `Monday`, lists, `..`
    /// ranges), an optional date (`*-*-*`, `M-D`, `Y-M-D`, `~` for days from the end of the
    /// month), an optional time (`H:M` or `H:M:S`, seconds with up to six fraction digits), each
    /// field a `*` or a comma list of values, `a..b` ranges and `/n` repetitions; or a shorthand
    /// (`minutely`, `hourly`, `daily`, `weekly`, `monthly`, `quarterly`, `semiannually`,
    /// `yearly`, `annually` and their systemd spellings); or `@` and a Unix time. It may end in
    /// ` UTC`, in the local zone's abbreviation (systemd compares with glibc's `tzname`; pass
    /// `localZone` to get that), or in an IANA zone name that `zones` knows.
    ///
    /// - Parameters:
    ///   - text: The expression.
    ///   - zones: Resolves a trailing zone name.
    ///   - localZone: The zone whose abbreviations a trailing word is checked against first,
    ///     as systemd checks `tzname[0]` and `tzname[1]`; nil skips that check.
    /// - Returns: The expression.
    /// - Throws: `CoreError` with code `.invalidCalendar` and a message naming what is wrong.
    public static func parse(
        _ text: String, zones: any ZoneProvider, localZone: ZoneRules? = nil
    ) throws(CoreError) -> CalendarExpression {
        var parser = CalendarExpressionParser(text: text)
        return try parser.parse(zones: zones, localZone: localZone)
    }
}

/// Reads one calendar expression, following systemd's `calendar_spec_from_string` step by step
/// so that exactly the same texts are accepted.
struct CalendarExpressionParser {
    let text: String
    private var bytes: [UInt8] = []
    private var index = 0
    private var expression = CalendarExpression()

    /// systemd builds at most this many comma-separated items per field.
    private static let maximumComponents = 241

    init(text: String) {
        self.text = text
    }

    private func failure(_ what: String) -> CoreError {
        CoreError(.invalidCalendar, "calendar expression \(QuotedInput.quoted(text)): \(what)")
    }

    private var current: UInt8 { index < bytes.count ? bytes[index] : 0 }

    private func byte(at position: Int) -> UInt8 { position < bytes.count ? bytes[position] : 0 }

    private var rest: String { String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self) }

    mutating func parse(zones: any ZoneProvider, localZone: ZoneRules?) throws(CoreError) -> CalendarExpression {
        var body = Array(text.utf8)
        guard !body.contains(0) else { throw failure("contains a NUL character") }
        if Self.hasSuffixIgnoringCase(body, " UTC") {
            expression.utc = true
            body.removeLast(4)
        } else if let localZone, let (flag, name) = Self.localAbbreviation(ending: body, in: localZone) {
            expression.daylightFlag = flag
            expression.localAbbreviation = name
            body.removeLast(name.utf8.count + 1)
        } else if let space = body.lastIndex(of: UInt8(ascii: " ")) {
            let name = String(decoding: body[(space + 1)...], as: UTF8.self)
            if !name.isEmpty, let zone = zones.zone(named: name) {
                expression.zone = zone
                body.removeSubrange(space...)
            }
        }
        bytes = body
        guard !bytes.isEmpty else { throw failure("is empty") }
        if !applyShorthand() {
            try parseWeekdays()
            if try !parseDate() {
                try parseTime()
            }
            guard index >= bytes.count else { throw failure("unexpected \"\(rest)\"") }
        }
        try normalizeAndValidate()
        return expression
    }

    private static func hasSuffixIgnoringCase(_ bytes: [UInt8], _ suffix: String) -> Bool {
        let tail = Array(suffix.utf8)
        guard bytes.count >= tail.count else { return false }
        return zip(bytes[(bytes.count - tail.count)...], tail).allSatisfy { lowercased($0) == lowercased($1) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// systemd checks `tzname[0]` then `tzname[1]`: a non-empty name that ends the text, after a
    /// space and with something before it.
    private static func localAbbreviation(ending body: [UInt8], in zone: ZoneRules) -> (Int, String)? {
        for (flag, name) in [zone.standardAbbreviation, zone.daylightAbbreviation].enumerated() where !name.isEmpty {
            let length = name.utf8.count
            guard body.count > length, hasSuffixIgnoringCase(body, name) else { continue }
            if body[body.count - length - 1] == UInt8(ascii: " ") { return (flag, name) }
        }
        return nil
    }

    private mutating func applyShorthand() -> Bool {
        let word = String(decoding: bytes.map(Self.lowercased), as: UTF8.self)
        let zero = [CalendarExpression.Component.constant(0)]
        let first = [CalendarExpression.Component.constant(1)]
        switch word {
        case "minutely":
            expression.second = zero
        case "hourly":
            (expression.minute, expression.second) = (zero, zero)
        case "daily":
            (expression.hour, expression.minute, expression.second) = (zero, zero, zero)
        case "weekly":
            expression.weekdays = 1
            (expression.hour, expression.minute, expression.second) = (zero, zero, zero)
        case "monthly":
            expression.day = first
            (expression.hour, expression.minute, expression.second) = (zero, zero, zero)
        case "annually", "yearly", "anually":
            (expression.month, expression.day) = (first, first)
            (expression.hour, expression.minute, expression.second) = (zero, zero, zero)
        case "quarterly":
            expression.month = [1, 4, 7, 10].map(CalendarExpression.Component.constant)
            expression.day = first
            (expression.hour, expression.minute, expression.second) = (zero, zero, zero)
        case "biannually", "bi-annually", "semiannually", "semi-annually":
            expression.month = [1, 7].map(CalendarExpression.Component.constant)
            expression.day = first
            (expression.hour, expression.minute, expression.second) = (zero, zero, zero)
        default:
            return false
        }
        return true
    }

    private static let weekdayNames: [(String, Int)] = [
        ("monday", 0), ("mon", 0), ("tuesday", 1), ("tue", 1), ("wednesday", 2), ("wed", 2), ("thursday", 3),
        ("thu", 3), ("friday", 4), ("fri", 4), ("saturday", 5), ("sat", 5), ("sunday", 6), ("sun", 6),
    ]

    private mutating func skipSpaces() {
        while current == UInt8(ascii: " ") { index += 1 }
    }

    private mutating func parseWeekdays() throws(CoreError) {
        var bits = 0
        var rangeStart = -1
        var first = true
        while true {
            guard let (name, number) = Self.weekdayNames.first(where: { matchesIgnoringCase($0.0) }) else {
                if first { return }
                throw failure("expected a weekday at \"\(rest)\"")
            }
            let end = index + name.utf8.count
            guard
                [0, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: " ")].contains(byte(at: end))
            else { throw failure("unknown weekday at \"\(rest)\"") }
            bits |= 1 << number
            if rangeStart >= 0 {
                guard rangeStart <= number else { throw failure("weekday range runs backwards at \"\(rest)\"") }
                for day in (rangeStart + 1)..<max(rangeStart + 1, number) { bits |= 1 << day }
            }
            index = end
            expression.weekdays = bits
            if current == 0 { return }
            if current == UInt8(ascii: " ") {
                skipSpaces()
                return
            }
            if current == UInt8(ascii: ".") {
                guard rangeStart < 0, byte(at: index + 1) == UInt8(ascii: ".") else {
                    throw failure("malformed weekday range at \"\(rest)\"")
                }
                rangeStart = number
                index += 2
            } else if current == UInt8(ascii: "-") {
                guard rangeStart < 0 else { throw failure("malformed weekday range at \"\(rest)\"") }
                rangeStart = number
                index += 1
            } else if current == UInt8(ascii: ",") {
                rangeStart = -1
                index += 1
            }
            if current == 0 || current == UInt8(ascii: " ") {
                skipSpaces()
                guard rangeStart < 0 else { throw failure("weekday range has no end") }
                return
            }
            first = false
        }
    }

    private func matchesIgnoringCase(_ word: String) -> Bool {
        let letters = Array(word.utf8)
        guard bytes.count - index >= letters.count else { return false }
        return zip(bytes[index...], letters).allSatisfy { Self.lowercased($0) == $1 }
    }

    /// Returns true when the date part ended the expression (`@` timestamps).
    private mutating func parseDate() throws(CoreError) -> Bool {
        if current == 0 { return false }
        if current == UInt8(ascii: "@") {
            try parseTimestamp()
            return true
        }
        let start = index
        let first = try parseChain(microseconds: false)
        if current == 0 || current == UInt8(ascii: ":") {
            index = start
            return false
        }
        try consumeDateSeparator()
        let second = try parseChain(microseconds: false)
        if current == 0 || current == UInt8(ascii: " ") {
            skipSpaces()
            (expression.month, expression.day) = (first, second)
            return false
        }
        if expression.endOfMonth { throw failure("\"~\" must come before the day") }
        try consumeDateSeparator()
        let third = try parseChain(microseconds: false)
        guard current == 0 || current == UInt8(ascii: " ") else {
            throw failure("expected a space after the date at \"\(rest)\"")
        }
        skipSpaces()
        (expression.year, expression.month, expression.day) = (first, second, third)
        return false
    }

    /// `-` or `~` between date fields; `~` counts the days from the end of the month.
    private mutating func consumeDateSeparator() throws(CoreError) {
        if current == UInt8(ascii: "~") {
            expression.endOfMonth = true
        } else if current != UInt8(ascii: "-") {
            throw failure("expected \"-\" or \"~\" in the date at \"\(rest)\"")
        }
        index += 1
    }

    /// `@` and seconds since the epoch, read like C's `strtoul`: leading white space and a
    /// sign are allowed, a minus wraps around.
    private mutating func parseTimestamp() throws(CoreError) {
        index += 1
        while [9, 10, 11, 12, 13, 32].contains(current) { index += 1 }
        var negative = false
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
            negative = current == UInt8(ascii: "-")
            index += 1
        }
        guard let value = readDecimal() else { throw failure("expected seconds after \"@\"") }
        let seconds = negative ? Int64(bitPattern: 0 &- value) : Int64(bitPattern: value)
        // systemd goes through gmtime, which refuses years that do not fit a C int; any of them
        // fails the 1970…2199 check below just the same.
        guard seconds >= -(1 << 55), seconds <= 1 << 55 else { throw failure("timestamp out of range") }
        let civil = CivilDateTime(Instant(microseconds: 0) + .seconds(seconds), offset: 0)
        expression.year = [.constant(civil.year)]
        expression.month = [.constant(civil.month)]
        expression.day = [.constant(civil.day)]
        expression.hour = [.constant(civil.hour)]
        expression.minute = [.constant(civil.minute)]
        expression.second = [.constant(civil.second * 1_000_000)]
        expression.utc = true
    }

    /// Decimal digits as C's `strtoul` reads them; nil when there are none or they overflow.
    private mutating func readDecimal() -> UInt64? {
        let start = index
        var value: UInt64 = 0
        var overflow = false
        while (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(current - UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            value = sum
            index += 1
        }
        return index == start || overflow ? nil : value
    }

    private mutating func parseTime() throws(CoreError) {
        let zero = [CalendarExpression.Component.constant(0)]
        if current == 0 {
            (expression.hour, expression.minute, expression.second) = (zero, zero, zero)
            return
        }
        let hour = try parseChain(microseconds: false)
        guard current == UInt8(ascii: ":") else { throw failure("expected \":\" after the hour at \"\(rest)\"") }
        index += 1
        let minute = try parseChain(microseconds: false)
        var second = zero
        if current != 0 {
            guard current == UInt8(ascii: ":") else { throw failure("expected \":\" after the minute at \"\(rest)\"") }
            index += 1
            second = try parseChain(microseconds: true) ?? zero
            guard current == 0 else { throw failure("unexpected \"\(rest)\" after the seconds") }
        }
        (expression.hour, expression.minute, expression.second) = (hour, minute, second)
    }

    /// `*` (nil, or every whole second for the seconds field) or a comma list of components.
    private mutating func parseChain(microseconds: Bool) throws(CoreError) -> [CalendarExpression.Component]? {
        if current == UInt8(ascii: "*") {
            index += 1
            return microseconds ? CalendarExpression.Component.everySecond : nil
        }
        var components: [CalendarExpression.Component] = []
        while true {
            guard components.count < Self.maximumComponents else { throw failure("too many comma-separated values") }
            let start = try parseNumber(microseconds: microseconds)
            var stop = -1
            var repetition = 0
            if current == UInt8(ascii: "."), byte(at: index + 1) == UInt8(ascii: ".") {
                index += 2
                stop = try parseNumber(microseconds: microseconds)
                repetition = microseconds ? 1_000_000 : 1
            }
            if current == UInt8(ascii: "/") {
                index += 1
                repetition = try parseNumber(microseconds: microseconds)
                guard repetition != 0 else { throw failure("a repetition of 0 never advances") }
            } else {
                guard start <= Int(Int32.max) - repetition else { throw failure("number too large") }
                // Without a step, seconds ranges advance by whole seconds, so systemd refuses
                // one shorter than a second.
                if microseconds && stop >= 0 && start + repetition > stop {
                    throw failure(
                        "seconds range \(Double(start) / 1e6)..\(Double(stop) / 1e6) is shorter than its one-second step"
                    )
                }
            }
            let separators: [UInt8] = [
                0, UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: "-"), UInt8(ascii: "~"), UInt8(ascii: ":"),
            ]
            guard separators.contains(current) else { throw failure("unexpected \"\(rest)\"") }
            components.append(CalendarExpression.Component(start: start, stop: stop, repetition: repetition))
            guard current == UInt8(ascii: ",") else { return components }
            index += 1
        }
    }

    /// A decimal number; in the seconds field also a fraction of up to six digits (a seventh
    /// rounds, later ones are ignored, as systemd's `parse_fractional_part_u` does), in
    /// microseconds.
    private mutating func parseNumber(microseconds: Bool) throws(CoreError) -> Int {
        guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) else {
            throw failure("expected a number at \"\(rest)\"")
        }
        guard var value = readDecimal() else { throw failure("number too large at \"\(rest)\"") }
        if microseconds {
            guard value <= UInt64.max / 1_000_000 else { throw failure("number too large") }
            value *= 1_000_000
            if current == UInt8(ascii: "."), byte(at: index + 1) != UInt8(ascii: ".") {
                index += 1
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) else {
                    throw failure("expected digits after the decimal point at \"\(rest)\"")
                }
                var fraction: UInt64 = 0
                for _ in 0..<6 {
                    if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) {
                        fraction = fraction * 10 + UInt64(current - UInt8(ascii: "0"))
                        index += 1
                    } else {
                        fraction *= 10
                    }
                }
                if (UInt8(ascii: "5")...UInt8(ascii: "9")).contains(current) { fraction += 1 }
                while (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(current) { index += 1 }
                value += fraction
            }
        }
        guard value <= UInt64(Int32.max) else { throw failure("number too large") }
        return Int(value)
    }

    private mutating func normalizeAndValidate() throws(CoreError) {
        if let weekdays = expression.weekdays, weekdays <= 0 || weekdays >= 127 {
            expression.weekdays = nil
        }
        if expression.endOfMonth && expression.day == nil { expression.endOfMonth = false }
        expression.year = expression.year.map { components in
            components.map { component in
                var fixed = component
                fixed.start = Self.fullYear(fixed.start)
                fixed.stop = Self.fullYear(fixed.stop)
                return fixed
            }
        }
        expression.year = Self.normalized(expression.year)
        expression.month = Self.normalized(expression.month)
        expression.day = Self.normalized(expression.day)
        expression.hour = Self.normalized(expression.hour)
        expression.minute = Self.normalized(expression.minute)
        expression.second = Self.normalized(expression.second)
        try validate(expression.year, "year", CalendarExpression.years)
        try validate(expression.month, "month", 1...12)
        try validate(expression.day, "day", 1...31, endOfMonth: expression.endOfMonth)
        try validate(expression.hour, "hour", 0...23)
        try validate(expression.minute, "minute", 0...59)
        try validate(expression.second, "second", 0...(60 * 1_000_000 - 1), unit: 1_000_000)
    }

    /// Two-digit years: 0…69 are 2000…2069, 70…99 are 1970…1999.
    private static func fullYear(_ year: Int) -> Int {
        switch year {
        case 0..<70: year + 2000
        case 70..<100: year + 1900
        default: year
        }
    }

    /// Ranges shortened to end on a repetition (one-value ranges become values), then sorted
    /// with duplicates dropped.
    private static func normalized(_ components: [CalendarExpression.Component]?) -> [CalendarExpression.Component]? {
        guard var components else { return nil }
        for index in components.indices {
            let component = components[index]
            if component.stop > component.start && component.repetition > 0 {
                components[index].stop -= (component.stop - component.start) % component.repetition
            }
            // A range that cannot repeat even once, or that starts where it stops, is one value.
            let shortened = components[index]
            if (shortened.stop > shortened.start && shortened.start + shortened.repetition > shortened.stop)
                || shortened.start == shortened.stop
            {
                components[index] = .constant(shortened.start)
            }
        }
        guard components.count > 1 else { return CalendarExpression.Component.shared(components) ?? components }
        components.sort()
        var unique: [CalendarExpression.Component] = []
        for component in components where unique.last != component { unique.append(component) }
        return unique
    }

    private func validate(
        _ components: [CalendarExpression.Component]?, _ field: String, _ bounds: ClosedRange<Int>,
        endOfMonth: Bool = false, unit: Int = 1
    ) throws(CoreError) {
        // `~` days count from the end of the month, and no month is shorter than 28 days.
        let upper = endOfMonth ? bounds.upperBound - 3 : bounds.upperBound
        let lower = bounds.lowerBound
        func show(_ value: Int) -> String {
            unit == 1 ? "\(value)" : "\(Double(value) / Double(unit))"
        }
        let range = "\(show(lower))…\(show(upper))"
        for component in components ?? [] {
            guard (lower...upper).contains(component.start) else {
                throw failure("\(field) \(show(component.start)) is outside \(range)")
            }
            guard component.repetition <= upper - lower else {
                throw failure(
                    "\(field) repetition \(show(component.repetition)) is longer than the field's range \(range)")
            }
            if component.stop >= 0 {
                guard (lower...upper).contains(component.stop) else {
                    throw failure("\(field) range end \(show(component.stop)) is outside \(range)")
                }
                guard component.start + component.repetition <= component.stop else {
                    throw failure(
                        "\(field) range \(show(component.start))..\(show(component.stop)) is empty or shorter than its step"
                    )
                }
            } else if endOfMonth && component.start - component.repetition < lower {
                throw failure(
                    "\(field) \(show(component.start)) with repetition \(show(component.repetition)) leaves the month")
            } else if !endOfMonth && component.start + component.repetition > upper {
                throw failure(
                    "\(field) \(show(component.start)) with repetition \(show(component.repetition)) passes \(show(upper))"
                )
            }
        }
    }
}
