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
        self.ruleText = ruleText
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

    /// How far from its instance's start the alarm goes off at `offset`, counting a day as 24
    /// hours: the offset, and the instance's length for an alarm at its end.
    private func reach(of offset: ICalendarDuration) -> TimeSpan {
        guard case .end(let length) = anchor else { return offset.roughSpan }
        switch length {
        case .wallClock(let seconds): return offset.roughSpan + .seconds(seconds)
        case .duration(let duration): return offset.roughSpan + duration.roughSpan
        }
    }

    /// Calls `body` with each instant the alarm goes off at or after `now`, ascending, until it
    /// returns false or the series ends.
    ///
    /// Each offset (the trigger, each repeat) is a stream of its own over the instances, from
    /// the first whose alarm can reach `now`; the streams are merged, so the work per alarm is
    /// the same however many repeats there are and however close the instances.
    func forEachAlarm(onOrAfter now: Instant, userZone: ZoneRules, _ body: (Instant) -> Bool) {
        if case .absolute(let instant) = anchor {
            for offset in offsets {
                let alarm = instant + .days(Int64(offset.days)) + .seconds(offset.seconds)
                guard alarm < now || !admitsAcknowledged(alarm) || body(alarm) else { return }
            }
            return
        }
        let resolved = ResolvedInstances(self, userZone: userZone)
        var streams = offsets.map { OffsetStream(resolved, offset: $0, reach: reach(of: $0), from: now) }
        var heads = streams.indices.map { streams[$0].next(notBefore: now) }
        var lastGiven: Instant?
        while true {
            var earliest: (index: Int, alarm: Instant)?
            for (index, head) in heads.enumerated() {
                if let head, earliest.map({ head < $0.alarm }) ?? true { earliest = (index, head) }
            }
            guard let (index, alarm) = earliest else { return }
            heads[index] = streams[index].next(notBefore: now)
            guard alarm != lastGiven, admitsAcknowledged(alarm) else { continue }
            lastGiven = alarm
            guard body(alarm) else { return }
        }
    }

    /// The last instant the alarm went off before `now`, looking back `lookBack`: for each
    /// offset, the instances of a window before `now` that grows fourfold from a minute.
    func lastAlarm(before now: Instant, lookBack: TimeSpan, userZone: ZoneRules) -> Instant? {
        let earliest = now - lookBack
        if case .absolute(let instant) = anchor {
            return offsets.map { instant + .days(Int64($0.days)) + .seconds($0.seconds) }
                .filter { $0 < now && $0 >= earliest && admitsAcknowledged($0) }.max()
        }
        let resolved = ResolvedInstances(self, userZone: userZone)
        var last: Instant?
        for offset in offsets {
            var window = min(TimeSpan.minutes(1), lookBack)
            while true {
                let from = now - window
                var stream = OffsetStream(resolved, offset: offset, reach: reach(of: offset), from: from)
                var found: Instant?
                while let alarm = stream.next(notBefore: max(from, earliest)), alarm < now {
                    if admitsAcknowledged(alarm) { found = alarm }
                }
                if let found {
                    last = max(last ?? found, found)
                    break
                }
                guard window < lookBack else { break }
                window = min(window * 4, lookBack)
            }
        }
        return last
    }

    private func admitsAcknowledged(_ alarm: Instant) -> Bool {
        acknowledged.map { alarm > $0 } ?? true
    }

    /// The instant an instance's alarm goes off at `offset`.
    fileprivate func alarm(of instance: FireTime, offset: ICalendarDuration, userZone: ZoneRules) -> Instant {
        guard case .end(let length) = anchor else { return instance.instant(adding: offset, userZone: userZone) }
        switch length {
        case .wallClock(let seconds):
            return instance.movingWallClock(days: 0, seconds: seconds).instant(adding: offset, userZone: userZone)
        case .duration(let duration):
            return instance.movingWallClock(days: duration.days, seconds: 0).instant(adding: offset, userZone: userZone)
                + .seconds(duration.seconds)
        }
    }
}

/// What every walk of one query over a series' instances shares, read in the user's zone:
/// the start and the `RDATE`s with their instants, sorted, the excluded instants and `UNTIL`.
private struct ResolvedInstances {
    let series: AlarmSeries
    let userZone: ZoneRules
    /// The zone the rule's wall-clock times are read in.
    let zone: ZoneRules
    /// How far zone changes can move an instant from where a rough count puts it: the spread
    /// of `zone`'s offsets, nothing for times with `Z`.
    let slack: TimeSpan
    let extra: [(FireTime, Instant)]
    let excluded: Set<Instant>
    let until: Instant?
    /// The rule's times, walked once for all the query's cursors.
    let ruleTimes: SharedRuleWalk?

    init(_ series: AlarmSeries, userZone: ZoneRules) {
        self.series = series
        self.userZone = userZone
        zone = series.start.zone ?? (series.start.kind.isAbsolute ? .utc : userZone)
        slack = zone.offsetSpread + .seconds(1)
        ruleTimes = series.rule.map(SharedRuleWalk.init)
        let excluded = Set(series.exclusions.map { $0.instant(userZone: userZone) })
        self.excluded = excluded
        extra =
            (series.additions + [series.start]).map { ($0, $0.instant(userZone: userZone)) }
            .filter { !excluded.contains($0.1) }
            .sorted { $0.1 < $1.1 }
        until = series.until?.instant(userZone: userZone)
    }
}

/// A rule's times as one query's cursors find them, each walked once: a cursor that starts
/// where an earlier one has walked reads what it found, and a walk that reaches where another
/// began goes on with it, so a rule with long stretches without a time (29 February on a
/// Monday) is walked once however many offsets and look-back windows the query has.
private final class SharedRuleWalk {
    /// The rule's times from `from`'s period on: every one up to the last of `times`; after it,
    /// those of run `continuation`, or none when `cursor` and `continuation` are both nil.
    private struct Run {
        let from: CivilDateTime
        var times: [CivilDateTime] = []
        var cursor: RecurrenceExpansion.Cursor?
        var continuation: Int?
        /// The run beginning soonest after this one's walk, among the first `limitsSeen` runs.
        var limit: Int?
        var limitsSeen = 0
    }

    /// Where a cursor is: a run and the index of its next time.
    struct Position {
        fileprivate var run: Int
        fileprivate var index: Int
    }

    private let expansion: RecurrenceExpansion
    private var runs: [Run] = []

    init(_ expansion: RecurrenceExpansion) {
        self.expansion = expansion
    }

    /// A position from which `next` gives the times from the period that holds `time` on, as
    /// a `RecurrenceExpansion.Cursor` from `time` would (times a little before `time` can still
    /// resolve to instants after it, across a clock change).
    func position(atOrAfter time: CivilDateTime) -> Position {
        for (index, run) in runs.enumerated() where run.from <= time {
            let complete = run.cursor == nil && run.continuation == nil
            guard complete || run.times.last.map({ $0 >= time }) == true else { continue }
            let periodBegins = expansion.beginning(ofPeriodHolding: time)
            return Position(run: index, index: run.times.partitioningIndex { $0 >= periodBegins })
        }
        runs.append(Run(from: time, cursor: RecurrenceExpansion.Cursor(expansion, from: time)))
        return Position(run: runs.count - 1, index: 0)
    }

    /// The time at `position`, which then moves on; nil when the rule's times have ended.
    func next(_ position: inout Position) -> CivilDateTime? {
        while position.index >= runs[position.run].times.count {
            if let following = runs[position.run].continuation {
                let index =
                    runs[position.run].times.last.map { last in runs[following].times.partitioningIndex { $0 > last } }
                    ?? 0
                position = Position(run: following, index: index)
                continue
            }
            guard var cursor = runs[position.run].cursor.take() else { return nil }
            let limit = limit(of: position.run)
            if let time = cursor.next(before: limit.map { runs[$0].from }) {
                runs[position.run].times.append(time)
                runs[position.run].cursor = cursor
            } else if !cursor.isExhausted, let limit {
                runs[position.run].continuation = limit
            }
        }
        defer { position.index += 1 }
        return runs[position.run].times[position.index]
    }

    /// The run that begins soonest after where run `index`'s walk has reached.
    private func limit(of index: Int) -> Int? {
        let reached = runs[index].times.last ?? runs[index].from
        var limit = runs[index].limit
        for other in runs[index].limitsSeen..<runs.count
        where runs[other].from > reached && limit.map({ runs[other].from < runs[$0].from }) ?? true {
            limit = other
        }
        runs[index].limit = limit
        runs[index].limitsSeen = runs.count
        return limit
    }
}

/// The instances of a series from about an instant on, in order of their instants but for
/// what a clock change moves: the rule's times, merged with the start and the `RDATE`s, less
/// the exclusions, up to `UNTIL` and `COUNT`.
private struct InstanceCursor {
    let resolved: ResolvedInstances
    private let lower: Instant
    private var rule: SharedRuleWalk.Position?
    private var extra: ArraySlice<(FireTime, Instant)>
    private var pending: (FireTime, Instant)?

    init(_ resolved: ResolvedInstances, from lower: Instant) {
        self.resolved = resolved
        self.lower = lower
        extra = resolved.extra[resolved.extra.partitioningIndex { $0.1 >= lower }...]
        rule = resolved.ruleTimes?.position(atOrAfter: resolved.zone.civil(at: lower))
    }

    mutating func next() -> (FireTime, Instant)? {
        if pending == nil { pending = nextOfRule() }
        if let first = extra.first, pending.map({ first.1 <= $0.1 }) ?? true {
            extra.removeFirst()
            return first
        }
        defer { pending = nil }
        return pending
    }

    /// The rule's next instance at or after `lower` that is not excluded.
    private mutating func nextOfRule() -> (FireTime, Instant)? {
        let series = resolved.series
        while var position = rule, let civil = resolved.ruleTimes?.next(&position) {
            rule = position
            if let last = series.lastCounted, civil > last { break }
            let time: FireTime =
                series.start.kind.isAbsolute
                ? FireTime(.absolute(resolved.zone.instant(forFloating: civil)), zone: series.start.zone)
                : FireTime(.floating(civil), zone: series.start.zone)
            let instant = time.instant(userZone: resolved.userZone)
            if let until = resolved.until, instant > until { break }
            if instant >= lower, !resolved.excluded.contains(instant) { return (time, instant) }
        }
        rule = nil
        return nil
    }
}

/// One offset's alarms over the instances, ascending: each waits in a heap until the instances
/// still to come, out of order by at most twice the zone's slack, cannot go off before it.
/// Where the zone keeps one offset around the alarms waiting and a reach either side, the
/// instances come in order and an alarm waits for no more than the next one.
private struct OffsetStream {
    private var instances: InstanceCursor
    private let offset: ICalendarDuration
    /// How far an alarm is from its instance, either way.
    private let reach: TimeSpan
    private var waiting = InstantHeap()
    private var latest: Instant?
    private var exhausted = false
    /// The zone's first change after `changeSearchedFrom` (nil: none).
    private var nextChange: Instant?
    private var changeSearchedFrom: Instant?

    /// The alarms at `offset`, which goes off `reach` from its instance, over the instances
    /// whose alarms can go off at or after `lower`.
    init(_ resolved: ResolvedInstances, offset: ICalendarDuration, reach: TimeSpan, from lower: Instant) {
        instances = InstanceCursor(resolved, from: lower - reach - resolved.slack)
        self.offset = offset
        self.reach = reach < .zero ? .zero - reach : reach
    }

    /// The next alarm at or after `notBefore`.
    mutating func next(notBefore: Instant) -> Instant? {
        while true {
            while !exhausted, mayComeBefore(waiting.first) {
                guard let (instance, _) = instances.next() else {
                    exhausted = true
                    break
                }
                let resolved = instances.resolved
                let alarm = resolved.series.alarm(of: instance, offset: offset, userZone: resolved.userZone)
                waiting.insert(alarm)
                latest = max(latest ?? alarm, alarm)
            }
            guard let first = waiting.first else { return nil }
            waiting.removeFirst()
            if first >= notBefore { return first }
        }
    }

    /// Whether an instance still to come could go off before `first`.
    private mutating func mayComeBefore(_ first: Instant?) -> Bool {
        guard let first, let latest else { return true }
        let slack = instances.resolved.slack
        guard first >= latest - slack - slack else { return false }
        let margin = slack + slack + reach
        return changes(from: first - margin, through: latest + margin)
    }

    /// Whether the zone changes its offset between the two instants.
    private mutating func changes(from start: Instant, through end: Instant) -> Bool {
        if changeSearchedFrom.map({ start < $0 }) ?? true || nextChange.map({ $0 <= start }) == true {
            nextChange = instances.resolved.zone.nextTransition(after: start)
            changeSearchedFrom = start
        }
        return nextChange.map { $0 <= end } ?? false
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
