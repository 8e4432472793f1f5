/// A calendar's own `VTIMEZONE` turned into zone rules, for a `TZID` that names no zone of the
/// tz database and no Windows zone CLDR maps.
///
/// Each `STANDARD` and `DAYLIGHT` observance starts at its `DTSTART` (a local time in the offset
/// it leaves, `TZOFFSETFROM`) and again at each time of its `RRULE` and `RDATE`s; every onset up
/// to the end of 2100 becomes a transition to `TZOFFSETTO`.
enum EmbeddedTimeZone {
    /// The most transitions a zone keeps (two a year for three centuries).
    static let maximumTransitions = 600

    /// The rules of `component`, called `identifier`.
    ///
    /// - Throws: `CoreError` with `.invalidZoneData` naming the line when an observance lacks
    ///   its start or offsets, or has a malformed one.
    static func rules(of component: ICalendarComponent, identifier: String) throws(CoreError) -> ZoneRules {
        var onsets: [(instant: Int64, offset: ZoneOffset)] = []
        var earliest: (instant: Int64, from: ZoneOffset)?
        let end = CivilDateTime(year: 2101, month: 1, day: 1)
        for observance in component.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            func fail(_ message: String, _ line: Int) -> CoreError {
                CoreError(
                    .invalidZoneData, "the VTIMEZONE \(identifier)'s \(observance.name) \(message)",
                    at: FeedLocation(keyPath: "VTIMEZONE.\(observance.name)", line: line))
            }
            guard let startProperty = observance.property("DTSTART"),
                let start = CivilDateTime.iCalendarDateTime(Substring(startProperty.value))
            else { throw fail("has no DTSTART local time", observance.line) }
            guard let fromProperty = observance.property("TZOFFSETFROM"),
                let from = utcOffset(fromProperty.value)
            else { throw fail("has no TZOFFSETFROM such as +0100", observance.line) }
            guard let toProperty = observance.property("TZOFFSETTO"), let to = utcOffset(toProperty.value) else {
                throw fail("has no TZOFFSETTO such as +0200", observance.line)
            }
            let name = observance.property("TZNAME")?.text ?? identifier
            let isDST = observance.name == "DAYLIGHT"
            let toOffset = ZoneOffset(seconds: to, isDST: isDST, abbreviation: name)
            let fromOffset = ZoneOffset(seconds: from, isDST: !isDST, abbreviation: name)
            var starts = [start]
            for property in observance.properties("RDATE") {
                for value in property.value.split(separator: ",") {
                    if let time = CivilDateTime.iCalendarDateTime(value.hasSuffix("Z") ? value.dropLast() : value) {
                        starts.append(time)
                    }
                }
            }
            if let ruleProperty = observance.property("RRULE") {
                let rule: RecurrenceRule
                do {
                    rule = try RecurrenceRule(parsing: ruleProperty.value) { text in
                        CivilDateTime.iCalendarDateTime(text.hasSuffix("Z") ? text.dropLast() : text).map {
                            (FireTime(.absolute($0.instant(atOffset: 0))), false)
                        }
                    }
                } catch {
                    throw fail("has an RRULE that cannot be read: \(error.message)", ruleProperty.line)
                }
                let until = rule.until.map { $0.instant(userZone: .utc) }
                var taken = 0
                RecurrenceExpansion(rule, start: start).forEach { time in
                    let instant = time.instant(atOffset: from)
                    guard time < end, taken < maximumTransitions, until.map({ instant <= $0 }) ?? true,
                        rule.count.map({ taken < $0 }) ?? true
                    else { return false }
                    if time != start { starts.append(time) }
                    taken += 1
                    return true
                }
            }
            for onset in starts where onset < end {
                let instant = onset.instant(atOffset: from).secondsSinceEpoch
                onsets.append((instant, toOffset))
                if earliest.map({ instant < $0.instant }) ?? true { earliest = (instant, fromOffset) }
            }
        }
        guard let earliest else {
            throw CoreError(
                .invalidZoneData, "the VTIMEZONE \(identifier) has no STANDARD or DAYLIGHT observance",
                at: FeedLocation(keyPath: "VTIMEZONE", line: component.line))
        }
        onsets.sort { $0.instant < $1.instant }
        var offsets: [ZoneOffset] = [earliest.from]
        var times: [Int64] = []
        var indices: [Int] = []
        for onset in onsets.prefix(maximumTransitions) where times.last.map({ onset.instant > $0 }) ?? true {
            let index = offsets.firstIndex(of: onset.offset) ?? offsets.count
            if index == offsets.count { offsets.append(onset.offset) }
            times.append(onset.instant)
            indices.append(index)
        }
        return ZoneRules(
            identifier: identifier, transitionTimes: times, transitionOffsetIndices: indices, offsets: offsets,
            initialOffset: earliest.from, rule: nil)
    }

    /// Seconds east of UTC of `+0100`, `-0330` or `+053045`; nil when malformed.
    static func utcOffset(_ text: String) -> Int? {
        let digits = text.dropFirst()
        guard let sign = text.first, sign == "+" || sign == "-", digits.count == 4 || digits.count == 6,
            digits.utf8.allSatisfy(\.isASCIIDigit), let hours = Int(digits.prefix(2)),
            let minutes = Int(digits.dropFirst(2).prefix(2)), hours < 24, minutes < 60
        else { return nil }
        let seconds = digits.count == 6 ? Int(digits.suffix(2)) ?? 0 : 0
        let total = hours * 3600 + minutes * 60 + seconds
        return sign == "-" ? -total : total
    }
}
