/// When one alarm of an iCalendar event or to-do goes off: the trigger of an entry read from a
/// calendar (`Trigger.alarm`).
///
/// The instances are the recurrence set of RFC 5545 §3.8.5: the start, the rule's times, the
/// `RDATE`s, less the `EXDATE`s and the instances an override (`RECURRENCE-ID`) replaced. The
/// alarm goes off at each instance's start or end moved by each of its offsets (the trigger,
/// then each `REPEAT` a `DURATION` later), or at fixed instants for an absolute trigger. Days in
/// an offset move the wall clock of the instance's zone, the rest is elapsed time
/// (`FireTime.instant(adding:userZone:)`). Two alarms at one instant are one occurrence.
public struct AlarmSeries: Sendable, Hashable {
    /// What the alarm's offsets count from.
    public enum Anchor: Sendable, Hashable {
        /// Each instance's start.
        case start
        /// Each instance's end: its start moved by the instance's length.
        case end(InstanceLength)
        /// A fixed instant, whatever the instances (`TRIGGER;VALUE=DATE-TIME`).
        case absolute(Instant)
    }

    /// How long an instance lasts.
    public enum InstanceLength: Sendable, Hashable {
        /// `DTEND` (or `DUE`) less `DTSTART` on the wall clock, in seconds: the end keeps its
        /// wall-clock distance from the start in every instance.
        case wallClock(Int64)
        /// A `DURATION`.
        case duration(ICalendarDuration)
    }

    /// The first instance's start (`DTSTART`): a time with `Z`, a local time in a zone, or a
    /// floating time (a date is its midnight, floating).
    public let start: FireTime
    /// Whether the instances are dates (all-day).
    public let allDay: Bool
    /// The `RRULE`, read from `start`.
    let rule: RecurrenceExpansion?
    /// The `RRULE` as written, for `list`.
    let ruleText: String?
    /// `UNTIL`, as an instant bound once resolved.
    let until: FireTime?
    /// The last wall-clock time a `COUNT` admits.
    let lastCounted: CivilDateTime?
    /// `RDATE`s.
    let additions: [FireTime]
    /// `EXDATE`s and the `RECURRENCE-ID`s of overrides.
    let exclusions: [FireTime]
    public let anchor: Anchor
    /// The trigger, then each repeat: ascending by how far they move.
    public let offsets: [ICalendarDuration]
    /// Alarms at or before this instant were acknowledged (`ACKNOWLEDGED`) and do not go off.
    public let acknowledged: Instant?

    /// The most repeats of an alarm (`REPEAT`).
    public static let maximumRepeats = 100

    init(
        start: FireTime, allDay: Bool, rule: RecurrenceRule?, ruleText: String? = nil, additions: [FireTime],
        exclusions: [FireTime], anchor: Anchor, offsets: [ICalendarDuration], acknowledged: Instant?
    ) {
        self.start = start
        self.ruleText = rule == nil ? nil : ruleText
        self.allDay = allDay
        self.additions = additions
        self.exclusions = exclusions
        self.anchor = anchor
        self.offsets = offsets.sorted { $0.roughSpan < $1.roughSpan }
        self.acknowledged = acknowledged
        guard let rule else {
            (self.rule, until, lastCounted) = (nil, nil, nil)
            return
        }
        let expansion = RecurrenceExpansion(rule, start: start.wallClock)
        self.rule = expansion
        if rule.untilIsDate, !allDay, var day = rule.until?.wallClock {
            // A date bounds a series of times through the end of that day.
            (day.hour, day.minute, day.second) = (23, 59, 59)
            until = FireTime(.floating(day), zone: start.zone)
        } else {
            until = rule.until
        }
        guard let count = rule.count else {
            lastCounted = nil
            return
        }
        if let last = expansion.instance(numbered: count) {
            lastCounted = last
            return
        }
        var seen = 0
        var last: CivilDateTime?
        expansion.forEach { time in
            last = time
            seen += 1
            return seen < count
        }
        lastCounted = last
    }

    /// How far from its instance's start the alarm goes off, the least and the most, counting a
    /// day as 24 hours: the offsets, and the instance's length for an alarm at its end.
    private var reach: (least: TimeSpan, most: TimeSpan) {
        var length = TimeSpan.zero
        if case .end(let instanceLength) = anchor {
            switch instanceLength {
            case .wallClock(let seconds): length = .seconds(seconds)
            case .duration(let duration): length = duration.roughSpan
            }
        }
        return ((offsets.first?.roughSpan ?? .zero) + length, (offsets.last?.roughSpan ?? .zero) + length)
    }

    /// How far zone changes can move an instant from where a rough count puts it: the spread
    /// of the offsets of the zone the instances are read in, nothing for times with `Z`.
    private func slack(userZone: ZoneRules) -> TimeSpan {
        let zone = start.zone ?? (start.kind.isAbsolute ? .utc : userZone)
        return zone.offsetSpread + .seconds(1)
    }

    /// Calls `body` with each instant the alarm goes off at or after `now`, ascending, until it
    /// returns false or the series ends.
    ///
    /// Instances are walked from the first whose alarms can reach `now`; their alarms wait in a
    /// heap until no instance still to come can go off before them (instances come in order but
    /// for what a clock change moves, by at most `slack(userZone:)`).
    func forEachAlarm(onOrAfter now: Instant, userZone: ZoneRules, _ body: (Instant) -> Bool) {
        if case .absolute(let instant) = anchor {
            for offset in offsets {
                let alarm = instant + .days(Int64(offset.days)) + .seconds(offset.seconds)
                guard alarm < now || !admitsAcknowledged(alarm) || body(alarm) else { return }
            }
            return
        }
        let (least, most) = reach
        let slack = slack(userZone: userZone)
        var pending = InstantHeap()
        var lastGiven: Instant?
        var done = false
        func flush(below bound: Instant?) -> Bool {
            while !done, let first = pending.first, bound.map({ first < $0 }) ?? true {
                pending.removeFirst()
                guard first != lastGiven else { continue }
                lastGiven = first
                done = !body(first)
            }
            return !done
        }
        forEachInstance(from: now - most - slack, userZone: userZone) { instance, instant in
            for alarm in alarms(of: instance, userZone: userZone) where alarm >= now && admitsAcknowledged(alarm) {
                pending.insert(alarm)
            }
            return flush(below: instant + least - slack - slack)
        }
        _ = flush(below: nil)
    }

    /// The last instant the alarm went off before `now`, looking back `lookBack`.
    func lastAlarm(before now: Instant, lookBack: TimeSpan, userZone: ZoneRules) -> Instant? {
        let earliest = now - lookBack
        if case .absolute(let instant) = anchor {
            return offsets.map { instant + .days(Int64($0.days)) + .seconds($0.seconds) }
                .filter { $0 < now && $0 >= earliest && admitsAcknowledged($0) }.max()
        }
        let (least, most) = reach
        let slack = slack(userZone: userZone)
        var last: Instant?
        forEachInstance(from: earliest - most - slack, userZone: userZone) { instance, instant in
            guard instant + least - slack - slack < now else { return false }
            for alarm in alarms(of: instance, userZone: userZone)
            where alarm < now && alarm >= earliest && admitsAcknowledged(alarm) {
                last = max(last ?? alarm, alarm)
            }
            return true
        }
        return last
    }

    private func admitsAcknowledged(_ alarm: Instant) -> Bool {
        acknowledged.map { alarm > $0 } ?? true
    }

    /// The instants an instance's alarm goes off at.
    private func alarms(of instance: FireTime, userZone: ZoneRules) -> [Instant] {
        var anchorTime = instance
        var exact = TimeSpan.zero
        if case .end(let length) = anchor {
            switch length {
            case .wallClock(let seconds):
                anchorTime = instance.movingWallClock(days: 0, seconds: seconds)
            case .duration(let duration):
                anchorTime = instance.movingWallClock(days: duration.days, seconds: 0)
                exact = .seconds(duration.seconds)
            }
        }
        return offsets.map { anchorTime.instant(adding: $0, userZone: userZone) + exact }
    }

    /// Calls `body` with each instance whose start is at or after about `lower`, in order of
    /// their instants (give or take a zone change), until it returns false.
    private func forEachInstance(
        from lower: Instant, userZone: ZoneRules, _ body: (FireTime, Instant) -> Bool
    ) {
        let excluded = Set(exclusions.map { $0.instant(userZone: userZone) })
        var extra = (additions + [start]).map { ($0, $0.instant(userZone: userZone)) }
            .filter { $0.1 >= lower && !excluded.contains($0.1) }
            .sorted { $0.1 < $1.1 }[...]
        let untilInstant = until?.instant(userZone: userZone)
        if let rule {
            let zone = start.zone ?? (start.kind.isAbsolute ? .utc : userZone)
            let from = zone.civil(at: lower)
            var stopped = false
            rule.forEach(from: from) { civil in
                if let lastCounted, civil > lastCounted { return false }
                let time: FireTime =
                    start.kind.isAbsolute
                    ? FireTime(.absolute(zone.instant(forFloating: civil)), zone: start.zone)
                    : FireTime(.floating(civil), zone: start.zone)
                let instant = time.instant(userZone: userZone)
                if let untilInstant, instant > untilInstant { return false }
                guard instant >= lower else { return true }
                while let next = extra.first, next.1 <= instant {
                    extra.removeFirst()
                    guard body(next.0, next.1) else {
                        stopped = true
                        return false
                    }
                }
                guard !excluded.contains(instant) else { return true }
                guard body(time, instant) else {
                    stopped = true
                    return false
                }
                return true
            }
            if stopped { return }
        }
        for (time, instant) in extra {
            guard body(time, instant) else { return }
        }
    }
}

extension AlarmSeries {
    /// The series in a few words, for `list`: `alarm -PT15M before the start of 2026-03-02T09:00
    /// Europe/Berlin, RRULE FREQ=WEEKLY, 2 RDATEs, 1 EXDATE`.
    public var summary: String {
        let offsetsText = offsets.map(\.text).joined(separator: ", ")
        var text: String
        switch anchor {
        case .absolute(let instant):
            text = "alarm at \(instant.rfc3339)" + (offsets.count > 1 ? " +\(offsetsText)" : "")
        case .start: text = "alarm \(offsetsText) from the start of \(startText)"
        case .end: text = "alarm \(offsetsText) from the end of \(startText)"
        }
        guard case .absolute = anchor else {
            if let ruleText { text += ", RRULE \(ruleText)" }
            if !additions.isEmpty { text += ", \(additions.count) RDATE\(additions.count == 1 ? "" : "s")" }
            if !exclusions.isEmpty { text += ", \(exclusions.count) excluded" }
            return text
        }
        return text
    }

    private var startText: String {
        let civil = start.wallClock
        if allDay { return civil.iCalendarText(dateOnly: true) }
        switch start.kind {
        case .absolute(let instant): return instant.rfc3339
        case .floating: return civil.iCalendarText(dateOnly: false) + " " + (start.zone?.identifier ?? "local time")
        }
    }
}

extension ICalendarDuration {
    /// `-P1DT2H`, `PT0S`.
    var text: String {
        let negative = days < 0 || seconds < 0
        var text = negative ? "-P" : "P"
        if days != 0 { text += "\(abs(days))D" }
        let seconds = abs(self.seconds)
        if seconds != 0 || days == 0 {
            text += "T"
            if seconds >= 3600 { text += "\(seconds / 3600)H" }
            if seconds % 3600 >= 60 { text += "\(seconds % 3600 / 60)M" }
            if seconds % 60 != 0 || seconds == 0 { text += "\(seconds % 60)S" }
        }
        return text
    }
}

/// Instants, the least first: a binary heap.
private struct InstantHeap {
    private var items: [Instant] = []

    var first: Instant? { items.first }

    mutating func insert(_ instant: Instant) {
        items.append(instant)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { return }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var least = parent
            if left < items.count, items[left] < items[least] { least = left }
            if right < items.count, items[right] < items[least] { least = right }
            guard least != parent else { return }
            items.swapAt(parent, least)
            parent = least
        }
    }
}

extension ZoneRules {
    /// The most two of the zone's offsets differ by: how far a wall-clock time can move
    /// against a count of hours.
    var offsetSpread: TimeSpan {
        var seconds = offsets.map(\.seconds) + [initialOffset.seconds]
        if let rule {
            seconds.append(rule.standard.seconds)
            if let daylight = rule.daylight { seconds.append(daylight.offset.seconds) }
        }
        return .seconds(Int64((seconds.max() ?? 0) - (seconds.min() ?? 0)))
    }
}

extension FireTime.Kind {
    var isAbsolute: Bool {
        if case .absolute = self { return true }
        return false
    }
}
