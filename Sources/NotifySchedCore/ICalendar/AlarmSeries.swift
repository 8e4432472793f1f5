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
        var seen = 0
        var last: CivilDateTime?
        expansion.forEach { time in
            last = time
            seen += 1
            return seen < count
        }
        lastCounted = last
    }

    /// How far before or after its anchor an alarm can go off, roughly, with room for zone
    /// changes: the instances to look at for alarms in a span.
    private var reach: TimeSpan {
        var reach = TimeSpan.days(2)
        if let last = offsets.last, let first = offsets.first {
            reach = reach + max(abs(first.roughSpan.microseconds), abs(last.roughSpan.microseconds)).span
        }
        if case .end(let length) = anchor {
            switch length {
            case .wallClock(let seconds): reach = reach + .seconds(abs(seconds))
            case .duration(let duration): reach = reach + abs(duration.roughSpan.microseconds).span
            }
        }
        return reach
    }

    /// Calls `body` with each instant the alarm goes off at or after `now`, ascending, until it
    /// returns false or the series ends.
    func forEachAlarm(onOrAfter now: Instant, userZone: ZoneRules, _ body: (Instant) -> Bool) {
        if case .absolute(let instant) = anchor {
            for offset in offsets {
                let alarm = instant + .days(Int64(offset.days)) + .seconds(offset.seconds)
                guard alarm < now || admitsAcknowledged(alarm) == false || body(alarm) else { return }
            }
            return
        }
        let reach = self.reach
        var pending: [Instant] = []
        var lastGiven: Instant?
        var done = false
        // An alarm is final once every instance still to come goes off later.
        func flush(below bound: Instant?) -> Bool {
            while !done, let first = pending.first, bound.map({ first < $0 }) ?? true {
                pending.removeFirst()
                guard first >= now, admitsAcknowledged(first), first != lastGiven else { continue }
                lastGiven = first
                done = !body(first)
            }
            return !done
        }
        forEachInstance(from: now - reach, userZone: userZone) { instance, instant in
            for alarm in alarms(of: instance, userZone: userZone) {
                let index = pending.firstIndex { $0 > alarm } ?? pending.endIndex
                pending.insert(alarm, at: index)
            }
            return flush(below: instant - reach)
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
        let reach = self.reach
        var last: Instant?
        forEachInstance(from: earliest - reach, userZone: userZone) { instance, instant in
            guard instant < now + reach else { return false }
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
            let from = zone.civil(at: lower).addingDays(-1)
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

extension FireTime.Kind {
    var isAbsolute: Bool {
        if case .absolute = self { return true }
        return false
    }
}

extension Int64 {
    fileprivate var span: TimeSpan { TimeSpan(microseconds: self) }
}
