/// Maps an iCalendar calendar (RFC 5545) to a schedule: each alarm of an event or to-do is an
/// entry, over every instance of its event (`AlarmSeries`).
///
/// Entry ids are `UID/n` for the n-th alarm of an event or to-do (`UID/alarm-uid` when the alarm
/// has a `UID` of its own), and `UID/RECURRENCE-ID/n` for the alarms of an instance an override
/// replaced, as the override's own. What the popup says: the `SUMMARY` as its title; the
/// instance's time (its date too when the event happens once) and `LOCATION`, then the
/// `DESCRIPTION`, as its body; the `URL`, or else a meeting link found in the location or the
/// description, as its action. Cancelled events and completed to-dos have no alarms.
struct ICalendarFeedMapper {
    let mapping: FeedMapping
    let policy: AlarmPolicy

    /// The longest description shown in a popup, in characters.
    static let descriptionLimit = 1000
    /// The most `RDATE` and `EXDATE` times one event or to-do may list.
    static let maximumListedTimes = 10_000
    /// The most work (`RecurrenceExpansion.periodWork`) the rules of one calendar may spend, in
    /// all, on periods without a time while telling whether each recurs after its start: a rule
    /// that does is told in a period or two, one that never does (30 February) only after a
    /// whole calendar cycle or `RecurrenceExpansion.emptyPeriodLimit` periods; this bounds a
    /// calendar of thousands of the latter to about a tenth of a second.
    static let ruleProbeBudget = 3_000_000
    /// The icon of a calendar's popups, from the freedesktop icon naming spec.
    static let icon = "x-office-calendar"
    /// The sound an `AUDIO` alarm plays, from the freedesktop sound naming spec.
    static let sound = "alarm-clock-elapsed"

    func map(_ document: ICalendarDocument, source: String) -> Schedule {
        let calendar = document.calendar
        var zones = ZoneResolver(mapping: mapping, calendar: calendar)
        var masters: [String: ICalendarComponent] = [:]
        var overrides: [String: [ICalendarComponent]] = [:]
        var order: [String] = []
        var seen = Set<String>()
        for component in calendar.components where component.name == "VEVENT" || component.name == "VTODO" {
            let uid = component.property("UID")?.text ?? "line-\(component.line)"
            if component.property("UID") == nil {
                mapping.warning(
                    .missingKey, "\(component.name) has no UID; its entries are named \(uid)",
                    at: location(component))
            }
            if component.property("RECURRENCE-ID") != nil {
                overrides[uid, default: []].append(component)
                if seen.insert(uid).inserted { order.append(uid) }
                continue
            }
            if masters[uid] != nil {
                mapping.error(
                    .duplicateID, "a second \(component.name) with UID \(uid) and no RECURRENCE-ID",
                    at: location(component))
                continue
            }
            masters[uid] = component
            if seen.insert(uid).inserted { order.append(uid) }
        }
        var entries: [ScheduleEntry] = []
        var ids = Set<String>()
        var probeBudget = Self.ruleProbeBudget
        for uid in order {
            let master = masters[uid]
            var overridden: [FireTime] = []
            var replaced: [ScheduleEntry] = []
            for override in overrides[uid] ?? [] {
                guard let property = override.property("RECURRENCE-ID"),
                    let time = read(property, in: override, zones: &zones)
                else { continue }
                if property.parameters["RANGE"]?.uppercased() == "THISANDFUTURE" {
                    mapping.warning(
                        .unsupportedKey,
                        "RANGE=THISANDFUTURE is read as this instance only; the instances after it keep the series' times",
                        at: location(override, property))
                }
                overridden.append(time.time)
                let idBase = "\(uid)/\(time.time.wallClock.iCalendarText(dateOnly: time.isDate))"
                replaced += self.entries(
                    of: override, idBase: idBase, master: master, exclusions: [], withRule: false, zones: &zones,
                    probeBudget: &probeBudget)
            }
            // The series' alarms, then its overrides'.
            if let master {
                entries += self.entries(
                    of: master, idBase: uid, master: nil, exclusions: overridden, withRule: true, zones: &zones,
                    probeBudget: &probeBudget)
            }
            entries += replaced
        }
        var unique: [ScheduleEntry] = []
        for entry in entries where ids.insert(entry.id).inserted { unique.append(entry) }
        return Schedule(
            source: source, dialect: .iCalendar, format: .iCalendar, entries: unique,
            refreshInterval: refreshInterval(of: calendar))
    }

    /// `REFRESH-INTERVAL` (RFC 7986), or the older `X-PUBLISHED-TTL`, as a check period within
    /// the bounds a portal's `Cache-Control` has (nil below 5 minutes, a week at most).
    private func refreshInterval(of calendar: ICalendarComponent) -> TimeSpan? {
        guard let property = calendar.property("REFRESH-INTERVAL") ?? calendar.property("X-PUBLISHED-TTL") else {
            return nil
        }
        guard let duration = ICalendarDuration(parsing: property.value), duration.days >= 0, duration.seconds >= 0,
            duration != .zero
        else {
            mapping.warning(
                .invalidValue, "\(property.name) is `\(property.value)`, not a positive duration such as PT12H",
                at: location(calendar, property))
            return nil
        }
        // The bounds of a portal's Cache-Control: a fleet polls no faster than every 5 minutes.
        let span = min(duration.roughSpan, CacheControl.longestPeriod)
        return span >= CacheControl.shortestPeriod ? span : nil
    }

    // MARK: Components

    private func entries(
        of component: ICalendarComponent, idBase: String, master: ICalendarComponent?, exclusions: [FireTime],
        withRule: Bool, zones: inout ZoneResolver, probeBudget: inout Int
    ) -> [ScheduleEntry] {
        let status = component.property("STATUS")?.value.uppercased()
        if status == "CANCELLED"
            || (component.name == "VTODO" && (status == "COMPLETED" || component.property("COMPLETED") != nil))
        {
            return []
        }
        let errorsBefore = mapping.errorCount
        let isTodo = component.name == "VTODO"
        let startProperty = component.property("DTSTART") ?? (isTodo ? component.property("DUE") : nil)
        guard let startProperty, let start = read(startProperty, in: component, zones: &zones) else {
            if component.property("DTSTART") == nil, !isTodo {
                mapping.error(
                    .missingKey, "VEVENT has no DTSTART",
                    at: location(component))
            }
            return absoluteOnly(component, idBase: idBase, zones: &zones)
        }
        let length = instanceLength(component, start: start, zones: &zones)
        let recurs = withRule && (component.property("RRULE") != nil || component.property("RDATE") != nil)
        var rule: RecurrenceRule?
        var ruleText: String?
        var additions: [FireTime] = []
        var excluded = exclusions
        if withRule {
            let rules = component.properties("RRULE")
            if rules.count > 1 {
                mapping.warning(
                    .unsupportedKey, "only the first of \(rules.count) RRULEs is read (RFC 5545 allows one)",
                    at: location(component, rules[1]))
            }
            if let property = rules.first {
                ruleText = property.value
                do {
                    rule = try RecurrenceRule(parsing: property.value) { text in
                        self.readTime(text, parameters: [:], zones: &zones, relativeTo: start.time).map {
                            ($0.time, $0.isDate)
                        }
                    }
                } catch {
                    mapping.error(error.code, error.message, at: location(component, property))
                }
                if start.isDate, var dated = rule, !(dated.byHour + dated.byMinute + dated.bySecond).isEmpty {
                    mapping.warning(
                        .invalidRecurrence,
                        "BYHOUR, BYMINUTE and BYSECOND are ignored: the start is a date (RFC 5545 forbids them there)",
                        at: location(component, property))
                    (dated.byHour, dated.byMinute, dated.bySecond) = ([], [], [])
                    rule = dated
                }
                if let read = rule {
                    rule = recurring(read, from: start.time, at: location(component, property), budget: &probeBudget)
                }
            }
            additions = listedTimes("RDATE", of: component, zones: &zones)
            excluded += listedTimes("EXDATE", of: component, zones: &zones)
        }
        guard mapping.errorCount == errorsBefore else { return [] }
        var alarms = component.components.filter { $0.name == "VALARM" }
        var result: [ScheduleEntry] = []
        var number = 0
        if case .none = policy { alarms = [] }
        for alarm in alarms {
            number += 1
            guard let parts = alarmParts(alarm, in: component) else { continue }
            let series = AlarmSeries(
                start: start.time, allDay: start.isDate, rule: rule, ruleText: ruleText, additions: additions,
                exclusions: excluded, anchor: parts.anchor(length), offsets: parts.offsets,
                acknowledged: parts.acknowledged)
            let alarmID = alarm.property("UID")?.text ?? String(number)
            result.append(
                entry(
                    id: "\(idBase)/\(alarmID)", component: component, master: master, start: start, length: length,
                    recurs: recurs, series: series, audio: parts.audio))
        }
        if case .defaults(let offsets) = policy, alarms.isEmpty, !offsets.isEmpty {
            let series = AlarmSeries(
                start: start.time, allDay: start.isDate, rule: rule, ruleText: ruleText, additions: additions,
                exclusions: excluded, anchor: .start, offsets: offsets, acknowledged: nil)
            result.append(
                entry(
                    id: "\(idBase)/default", component: component, master: master, start: start, length: length,
                    recurs: recurs, series: series, audio: false))
        }
        return result
    }

    /// `rule` when it gives a time after `start`; nil, with a warning, when it never does (its
    /// instances are then the start and the `RDATE`s), and with an error once the calendar's
    /// rules have spent `ruleProbeBudget` on periods without a time.
    private func recurring(
        _ rule: RecurrenceRule, from start: FireTime, at location: FeedLocation, budget: inout Int
    ) -> RecurrenceRule? {
        guard budget > 0 else {
            mapping.error(
                .limitExceeded,
                "the calendar's rules searched too long for times they never give; this rule and the rest are left out",
                at: location)
            return nil
        }
        let (recurs, work) = RecurrenceExpansion(rule, start: start.wallClock).probe()
        budget -= work
        guard recurs else {
            mapping.warning(
                .invalidRecurrence,
                "the rule gives no time after DTSTART; DTSTART (and any RDATE) is the only instance",
                at: location)
            return nil
        }
        return rule
    }

    /// The entries of a component without a start: only absolute alarms can go off.
    private func absoluteOnly(
        _ component: ICalendarComponent, idBase: String, zones: inout ZoneResolver
    ) -> [ScheduleEntry] {
        var result: [ScheduleEntry] = []
        var number = 0
        for alarm in component.components where alarm.name == "VALARM" {
            number += 1
            guard let parts = alarmParts(alarm, in: component), case .absolute = parts.anchor(nil) else { continue }
            let series = AlarmSeries(
                start: FireTime(.absolute(Instant(microseconds: 0))), allDay: false, rule: nil, additions: [],
                exclusions: [], anchor: parts.anchor(nil), offsets: parts.offsets, acknowledged: parts.acknowledged)
            let id = "\(idBase)/\(alarm.property("UID")?.text ?? String(number))"
            result.append(
                ScheduleEntry(
                    id: id, dialect: .iCalendar,
                    content: content(of: component, master: nil, when: nil, audio: parts.audio),
                    trigger: .alarm(series)))
        }
        return result
    }

    private func entry(
        id: String, component: ICalendarComponent, master: ICalendarComponent?, start: ReadTime,
        length: AlarmSeries.InstanceLength, recurs: Bool, series: AlarmSeries, audio: Bool
    ) -> ScheduleEntry {
        let when = timeText(start: start, length: length, recurs: recurs)
        return ScheduleEntry(
            id: id, dialect: .iCalendar, content: content(of: component, master: master, when: when, audio: audio),
            trigger: .alarm(series))
    }

    /// The instance's length: `DTEND` or `DUE` less the start on the wall clock, or `DURATION`;
    /// without either, a day for a date and nothing for a time (an override says its own, as the
    /// component it is).
    private func instanceLength(
        _ component: ICalendarComponent, start: ReadTime, zones: inout ZoneResolver
    ) -> AlarmSeries.InstanceLength {
        let endName = component.name == "VTODO" ? "DUE" : "DTEND"
        if let property = component.property(endName), component.property("DTSTART") != nil,
            let end = read(property, in: component, zones: &zones)
        {
            let seconds: Int64
            if start.time.zone == end.time.zone, start.time.kind.isAbsolute == end.time.kind.isAbsolute {
                seconds = end.time.wallClock.wallSeconds(since: start.time.wallClock)
            } else {
                seconds = (end.time.instant(userZone: .utc) - start.time.instant(userZone: .utc)).seconds
            }
            if seconds < 0 {
                mapping.warning(
                    .invalidValue, "\(endName) is before DTSTART; the alarms count from the start",
                    at: location(component, property))
                return .wallClock(0)
            }
            return .wallClock(seconds)
        }
        if let property = component.property("DURATION") {
            if let duration = ICalendarDuration(parsing: property.value), duration.days >= 0, duration.seconds >= 0 {
                return .duration(duration)
            }
            mapping.error(
                .invalidValue, "DURATION is `\(property.value)`, not a duration such as PT1H",
                at: location(component, property))
        }
        return start.isDate ? .duration(ICalendarDuration(days: 1)) : .wallClock(0)
    }

    // MARK: Alarms

    private struct AlarmParts {
        var relative: Bool
        var related: String
        var absolute: Instant?
        var offsets: [ICalendarDuration]
        var acknowledged: Instant?
        var audio: Bool

        func anchor(_ length: AlarmSeries.InstanceLength?) -> AlarmSeries.Anchor {
            if let absolute { return .absolute(absolute) }
            if related == "END", let length { return .end(length) }
            return .start
        }
    }

    private func alarmParts(_ alarm: ICalendarComponent, in component: ICalendarComponent) -> AlarmParts? {
        let action = alarm.property("ACTION")?.value.uppercased() ?? ""
        switch action {
        case "DISPLAY", "AUDIO":
            break
        case "EMAIL":
            mapping.warning(
                .unsupportedKey, "an EMAIL alarm is not shown on the desktop (it is the mail server's)",
                at: location(alarm, alarm.property("ACTION")!))
            return nil
        default:
            mapping.warning(
                .unsupportedKey, "an alarm with ACTION `\(action)` is not shown; DISPLAY and AUDIO are",
                at: alarm.property("ACTION").map { location(alarm, $0) } ?? location(alarm))
            return nil
        }
        guard let trigger = alarm.property("TRIGGER") else {
            mapping.error(
                .missingKey, "VALARM has no TRIGGER", at: location(alarm))
            return nil
        }
        var parts = AlarmParts(
            relative: true, related: trigger.parameters["RELATED"]?.uppercased() ?? "START", absolute: nil,
            offsets: [], acknowledged: nil, audio: action == "AUDIO")
        var first = ICalendarDuration.zero
        if trigger.parameters["VALUE"]?.uppercased() == "DATE-TIME"
            || trigger.value.contains("T") && !trigger.value.contains("P")
        {
            guard trigger.value.hasSuffix("Z"),
                let civil = CivilDateTime.iCalendarDateTime(Substring(trigger.value.dropLast()))
            else {
                mapping.error(
                    .invalidDate, "an absolute TRIGGER is `\(trigger.value)`, not a UTC time such as 20260310T090000Z",
                    at: location(alarm, trigger))
                return nil
            }
            parts.absolute = civil.instant(atOffset: 0)
        } else {
            guard let duration = ICalendarDuration(parsing: trigger.value) else {
                mapping.error(
                    .invalidValue, "TRIGGER is `\(trigger.value)`, not a duration such as -PT15M",
                    at: location(alarm, trigger))
                return nil
            }
            first = duration
        }
        parts.offsets = [first]
        let repeatProperty = alarm.property("REPEAT")
        let durationProperty = alarm.property("DURATION")
        if let repeatProperty {
            guard let count = Int(repeatProperty.value), count >= 0 else {
                mapping.error(
                    .invalidValue, "REPEAT is `\(repeatProperty.value)`, not a whole number",
                    at: location(alarm, repeatProperty))
                return nil
            }
            guard let durationProperty, let step = ICalendarDuration(parsing: durationProperty.value),
                step.days >= 0, step.seconds >= 0, step != .zero
            else {
                mapping.error(
                    .invalidValue, "REPEAT needs a positive DURATION (such as PT5M) between the repeats",
                    at: location(alarm, durationProperty ?? repeatProperty))
                return nil
            }
            if count > AlarmSeries.maximumRepeats {
                mapping.warning(
                    .limitExceeded, "REPEAT is \(count); the first \(AlarmSeries.maximumRepeats) repeats are kept",
                    at: location(alarm, repeatProperty))
            }
            for index in 0..<min(count, AlarmSeries.maximumRepeats) { parts.offsets.append(first + step * (index + 1)) }
        } else if durationProperty != nil {
            mapping.warning(
                .invalidValue, "DURATION without REPEAT has no effect", at: location(alarm, durationProperty!))
        }
        if let property = alarm.property("ACKNOWLEDGED") {
            if property.value.hasSuffix("Z"),
                let civil = CivilDateTime.iCalendarDateTime(Substring(property.value.dropLast()))
            {
                parts.acknowledged = civil.instant(atOffset: 0)
            } else {
                mapping.warning(
                    .invalidDate, "ACKNOWLEDGED is `\(property.value)`, not a UTC time; it is ignored",
                    at: location(alarm, property))
            }
        }
        return parts
    }

    // MARK: Text

    private func content(
        of component: ICalendarComponent, master: ICalendarComponent?, when: String?, audio: Bool
    ) -> NotificationContent {
        func text(_ name: String) -> String? {
            (component.property(name) ?? master?.property(name))?.text.trimmingSpaces.nonEmpty
        }
        let summary =
            text("SUMMARY") ?? component.components.first { $0.name == "VALARM" }?.property("DESCRIPTION")?.text
        let place = text("LOCATION")
        let description = text("DESCRIPTION")
        var lines: [String] = []
        let headline = [when, place].compactMap { $0 }.joined(separator: " · ")
        if !headline.isEmpty { lines.append(headline) }
        if let description {
            lines.append(
                description.count > Self.descriptionLimit
                    ? String(description.prefix(Self.descriptionLimit)) + "…" : description)
        }
        return NotificationContent(
            title: summary ?? "", body: lines.joined(separator: "\n"), icon: Self.icon,
            action: action(url: text("URL"), place: place, description: description),
            sound: audio ? Self.sound : nil)
    }

    /// The event's `URL`, or else the first meeting link in its location or description, or
    /// else the first web link in its location.
    private func action(url: String?, place: String?, description: String?) -> NotificationAction? {
        var candidates: [String] = []
        if let url { candidates.append(url) }
        let placeLinks = place.map(Self.webLinks) ?? []
        candidates += (placeLinks + (description.map(Self.webLinks) ?? [])).filter(Self.isMeetingLink)
        candidates += placeLinks
        for candidate in candidates {
            if let url = try? ActionURL(candidate, policy: mapping.urlPolicy) {
                return NotificationAction(label: nil, url: url)
            }
        }
        return nil
    }

    /// The hosts of the common video-meeting services.
    static let meetingHosts = [
        "zoom.us", "meet.google.com", "teams.microsoft.com", "teams.live.com", "meet.jit.si", "whereby.com",
        "webex.com", "gotomeeting.com", "meet.goto.com", "bigbluebutton", "chime.aws", "discord.gg", "skype.com",
    ]

    static func isMeetingLink(_ link: String) -> Bool {
        guard let host = link.split(separator: "/", maxSplits: 3).dropFirst().first?.lowercased() else { return false }
        return meetingHosts.contains { host == $0 || host.hasSuffix("." + $0) || host.contains($0) }
    }

    /// The `https://` and `http://` links in `text`, each up to the first space or bracket.
    static func webLinks(in text: String) -> [String] {
        let bytes = Array(text.utf8)
        var links: [String] = []
        var index = 0
        while index + 7 <= bytes.count {
            guard bytes[index] == UInt8(ascii: "h"),
                bytes[index..<min(bytes.count, index + 8)].starts(with: "http".utf8)
            else {
                index += 1
                continue
            }
            let rest = bytes[index...]
            guard rest.starts(with: "https://".utf8) || rest.starts(with: "http://".utf8) else {
                index += 4
                continue
            }
            var end = index
            while end < bytes.count, !Self.endsLink(bytes[end]) { end += 1 }
            var trimmed = end
            while trimmed > index, ".,;:".utf8.contains(bytes[trimmed - 1]) { trimmed -= 1 }
            links.append(String(decoding: bytes[index..<trimmed], as: UTF8.self))
            index = end
        }
        return links
    }

    /// Whether `byte` ends a link in text: a space, a control character, a quote or a bracket.
    private static func endsLink(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F || "<>\"()[]".utf8.contains(byte)
    }

    /// The instance's time as the popup shows it, in the user's zone: the date and the times
    /// for an event that happens once, only the times for a recurring one; the date alone, or
    /// nothing, for an all-day event.
    private func timeText(start: ReadTime, length: AlarmSeries.InstanceLength, recurs: Bool) -> String? {
        let zone = mapping.userZone ?? start.time.zone ?? .utc
        if start.isDate { return recurs ? nil : start.time.wallClock.isoDate }
        let from = start.time.instant(userZone: zone)
        let civil = zone.civil(at: from)
        var text = recurs ? civil.clockTime : "\(civil.isoDate) \(civil.clockTime)"
        switch length {
        case .wallClock(let seconds) where seconds > 0:
            text +=
                "–"
                + zone.civil(at: start.time.movingWallClock(days: 0, seconds: seconds).instant(userZone: zone))
                .clockTime
        case .duration(let duration) where duration != .zero:
            text += "–" + zone.civil(at: start.time.instant(adding: duration, userZone: zone)).clockTime
        default:
            break
        }
        return text
    }

    // MARK: Times

    /// A date or time read from a property, with whether it is a date.
    struct ReadTime {
        var time: FireTime
        var isDate: Bool
    }

    private func read(
        _ property: ICalendarProperty, in component: ICalendarComponent, zones: inout ZoneResolver
    ) -> ReadTime? {
        let value = Substring(property.value.split(separator: "/", maxSplits: 1).first ?? "")
        guard let time = readTime(value, parameters: property.parameters, zones: &zones, relativeTo: nil) else {
            if zones.lastFailure == nil {
                mapping.error(
                    .invalidDate,
                    "\(property.name) is `\(property.value)`, not a date (20260310) or a time (20260310T090000, with Z for UTC)",
                    at: location(component, property))
            } else {
                mapping.error(.unknownZone, zones.lastFailure!, at: location(component, property))
            }
            zones.lastFailure = nil
            return nil
        }
        return time
    }

    /// Reads a date or a time; a value without `TZID` or `Z` takes the zone of `relativeTo`'s
    /// zone when given (an `UNTIL`), else is floating.
    private func readTime(
        _ value: Substring, parameters: [String: String], zones: inout ZoneResolver, relativeTo: FireTime?
    ) -> ReadTime? {
        if parameters["VALUE"]?.uppercased() == "DATE" || value.utf8.count == 8 {
            return CivilDateTime.iCalendarDate(value).map { ReadTime(time: FireTime(.floating($0)), isDate: true) }
        }
        if value.hasSuffix("Z") {
            return CivilDateTime.iCalendarDateTime(value.dropLast()).map {
                ReadTime(time: FireTime(.absolute($0.instant(atOffset: 0))), isDate: false)
            }
        }
        guard let civil = CivilDateTime.iCalendarDateTime(value) else { return nil }
        if let name = parameters["TZID"] {
            guard let zone = zones.zone(named: name) else { return nil }
            return ReadTime(time: FireTime(.floating(civil), zone: zone), isDate: false)
        }
        return ReadTime(time: FireTime(.floating(civil), zone: relativeTo?.zone), isDate: false)
    }

    /// Every time of the `RDATE` or `EXDATE` properties, bounded.
    private func listedTimes(
        _ name: String, of component: ICalendarComponent, zones: inout ZoneResolver
    ) -> [FireTime] {
        var times: [FireTime] = []
        for property in component.properties(name) {
            for bytes in property.value.utf8.split(separator: UInt8(ascii: ",")) {
                let value = Substring(bytes)
                guard times.count < Self.maximumListedTimes else {
                    mapping.error(
                        .limitExceeded,
                        "\(component.name) lists more than \(Self.maximumListedTimes) \(name) times",
                        at: location(component, property))
                    return times
                }
                // A period (`start/end` or `start/duration`) counts from its start.
                let start = Substring(value.utf8.prefix { $0 != UInt8(ascii: "/") })
                if let time = readTime(start, parameters: property.parameters, zones: &zones, relativeTo: nil) {
                    times.append(time.time)
                } else {
                    mapping.error(
                        zones.lastFailure == nil ? .invalidDate : .unknownZone,
                        zones.lastFailure ?? "\(name) has `\(value)`, not a date or a time",
                        at: location(component, property))
                    zones.lastFailure = nil
                }
            }
        }
        return times
    }

    /// Where `property` of `component` is, or the component itself: `VEVENT.RRULE` at its line,
    /// after its file's name in a folder (`standup.ics/VEVENT.RRULE`).
    private func location(_ component: ICalendarComponent, _ property: ICalendarProperty? = nil) -> FeedLocation {
        let path = component.name + (property.map { ".\($0.name)" } ?? "")
        return FeedLocation(
            keyPath: component.file.map { "\($0)/\(path)" } ?? path, line: property?.line ?? component.line)
    }
}

/// Which alarms a calendar source shows (the configuration's `alarms`).
public enum AlarmPolicy: Sendable, Hashable {
    /// The calendar's own alarms: the default for files and folders.
    case embedded
    /// None: the default for subscribed URLs, whose alarms are someone else's.
    case none
    /// The calendar's own alarms, and these offsets from the start for events and to-dos
    /// without any (`alarms = -15min, -1d`).
    case defaults([ICalendarDuration])
}

extension AlarmPolicy {
    /// Reads `embedded`, `none`, or offsets separated by commas: systemd time spans with a sign
    /// (`-15min`, `-1d`, `30s`) or iCalendar durations (`-PT15M`). Whole days of a span are
    /// days (the same wall-clock time, a day before), the rest elapsed time. Nil when malformed.
    public init?(parsing text: String) {
        let lower = text.trimmingSpaces.lowercased()
        if lower == "embedded" {
            self = .embedded
            return
        }
        if lower == "none" {
            self = .none
            return
        }
        var offsets: [ICalendarDuration] = []
        for part in lower.split(separator: ",").map({ String($0).trimmingSpaces }) {
            if let duration = ICalendarDuration(parsing: part.uppercased()) {
                offsets.append(duration)
                continue
            }
            let negative = part.hasPrefix("-")
            let magnitude = negative || part.hasPrefix("+") ? String(part.dropFirst()) : part
            guard let span = TimeSpan.parse(magnitude), span.microseconds % 1_000_000 == 0,
                span <= .days(366)
            else { return nil }
            let days = Int(span.seconds / 86_400)
            let seconds = span.seconds % 86_400
            offsets.append(ICalendarDuration(days: negative ? -days : days, seconds: negative ? -seconds : seconds))
        }
        guard !offsets.isEmpty, offsets.count <= 10 else { return nil }
        self = .defaults(offsets)
    }
}

/// Finds the zone a `TZID` names: the tz database, then CLDR's Windows names, then the
/// calendar's own `VTIMEZONE`.
struct ZoneResolver {
    let mapping: FeedMapping
    private var embedded: [String: ICalendarComponent] = [:]
    private var resolved: [String: ZoneRules?] = [:]
    /// Why the last name could not be resolved.
    var lastFailure: String?

    init(mapping: FeedMapping, calendar: ICalendarComponent) {
        self.mapping = mapping
        for component in calendar.components where component.name == "VTIMEZONE" {
            if let id = component.property("TZID")?.text { embedded[id] = component }
        }
    }

    mutating func zone(named name: String) -> ZoneRules? {
        if let known = resolved[name] {
            if known == nil { lastFailure = "TZID \"\(name)\" names no known zone" }
            return known
        }
        var zone = mapping.zones.zone(named: name)
        if zone == nil, let iana = WindowsZoneNames.ianaZone(for: name) { zone = mapping.zones.zone(named: iana) }
        if zone == nil, name.hasPrefix("/") {
            // Old exports prefix the zone with a path of their own (`/mozilla.org/20050126_1/Europe/Berlin`).
            let parts = name.split(separator: "/")
            for count in 1...min(3, parts.count) where zone == nil {
                zone = mapping.zones.zone(named: parts.suffix(count).joined(separator: "/"))
            }
        }
        if zone == nil, let component = embedded[name] {
            do {
                zone = try EmbeddedTimeZone.rules(of: component, identifier: name)
            } catch {
                mapping.error(error.code, error.message, at: error.location)
            }
        }
        if zone == nil {
            lastFailure =
                "TZID \"\(name)\" is not in the time-zone database, not a Windows zone name, "
                + "and the calendar has no VTIMEZONE for it"
        }
        resolved[name] = .some(zone)
        return zone
    }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
