/// The daemon's decisions about timed entries, as a value: which occurrence to show when, which
/// to record as missed, which recurring entries to start following, and when to wake next.
///
/// Pure and deterministic: no I/O, no clock, no GLib. Each event (a feed loaded, the timer
/// expired, the clock stepped, the zone changed, a popup shown or not) comes in as a call with
/// `now`, and what the daemon must do comes back as `PlannerEffect` values for it to carry out;
/// `nextDeadline` is when to call `timerExpired(at:)` again. So a month of schedule, with
/// restarts, clock steps and a missing notification server, runs in milliseconds under test.
///
/// Each entry's occurrences are settled through one instant (`OccurrencePlan`), held here and
/// nowhere else while the daemon runs; the state database keeps it across restarts (the ledger's
/// latest record, or the instant a recurring entry was first followed), and a new planner is
/// loaded from it. So are the user's answers that hold for later occurrences (`EntryAnswer`:
/// Ignore stops an entry, "Remind Me Later" brings an occurrence back after the source's remind
/// period). Pending occurrences wait in a `TimerWheel`, one per entry.
///
///     var planner = OccurrencePlanner(sources: [.init(location: path)], now: now, userZone: zone)
///     for effect in planner.load(schedule, source: 0, settled: stored, at: now).effects { … }
///     timer.arm(at: planner.nextDeadline)
public struct OccurrencePlanner: ~Copyable {
    /// A feed the planner follows: where it is read from, which application version its
    /// entries are read for, and how long "Remind Me Later" waits.
    public struct Source: Sendable {
        /// The path or URL: the source's identity in the ledger.
        public var location: String
        /// The application version `minVersion`/`maxVersion` are compared with; nil admits all.
        public var applicationVersion: String?
        /// How long after "Remind Me Later" the occurrence comes back: the source's
        /// `remind-period`, iNotify's `remindPeriod` (one day by default).
        public var remindPeriod: TimeSpan

        public init(location: String, applicationVersion: String? = nil, remindPeriod: TimeSpan = .days(1)) {
            self.location = location
            self.applicationVersion = applicationVersion
            self.remindPeriod = remindPeriod
        }
    }

    /// How long a popup that no server took waits before it is tried again.
    public static let retryDelay = TimeSpan.seconds(30)
    /// How many entries due at one wake-up are planned before the rest wait for the next turn
    /// of the loop: a popup costs a round trip to the server and a ledger write, and SIGTERM, a
    /// button press or a control call must not wait behind a burst of thousands.
    public static let plansPerTurn = 32

    private var sources: [Source]

    /// The application version each source is read for, by location, where one is set.
    public var applicationVersions: [String: String] {
        Dictionary(
            sources.compactMap { source in source.applicationVersion.map { (source.location, $0) } },
            uniquingKeysWith: { $1 })
    }
    private var schedules: [Schedule?]
    /// Which entry each wheel element stands for, by element.
    private var references: [EntryReference] = []
    /// Each element's settled instant (`OccurrencePlan`), by element.
    private var settled = SettledInstants()
    /// Each element's pending occurrence on the wheel (stale once it fell due; `.nothing` for
    /// none), by element.
    private var handles: [TimerWheel<UInt32>.Handle] = []
    /// Elements whose entries were withdrawn, to reuse.
    private var vacant: [UInt32] = []
    /// Elements whose occurrence is being shown, with the occurrence to arm once it is.
    private var showing: [UInt32: Instant?] = [:]
    /// The answers that hold for later occurrences, by element; most entries have none.
    private var answers: [UInt32: EntryAnswer] = [:]
    private var wheel: TimerWheel<UInt32>
    /// The user's current zone, for floating times and quiet hours.
    public private(set) var userZone: ZoneRules
    /// The user's quiet hours, which hold popups that are not critical.
    public let quietHours: QuietHours?
    /// Since when the clock has been watched without a gap (`PlanningContext.watchedSince`).
    public private(set) var watchingSince: Instant

    /// A planner that follows `sources`, none loaded yet, watching the clock from `now`.
    public init(sources: [Source], now: Instant, userZone: ZoneRules, quietHours: QuietHours? = nil) {
        self.sources = sources
        schedules = Array(repeating: nil, count: sources.count)
        wheel = TimerWheel(now: now)
        self.userZone = userZone
        self.quietHours = quietHours
        watchingSince = now
    }

    /// When `timerExpired(at:)` must be called next; nil when nothing is pending.
    ///
    /// - Complexity: O(levels) (`TimerWheel.nextDeadline`).
    public var nextDeadline: Instant? { wheel.nextDeadline }

    /// How many occurrences are pending.
    public var pendingCount: Int { wheel.count }

    /// The schedule in force for source `index`, if its feed was loaded.
    public func schedule(source index: Int) -> Schedule? { schedules[index] }

    /// Where source `index`'s feed comes from.
    public func location(of index: Int) -> String { sources[index].location }

    /// How many sources it follows.
    public var sourceCount: Int { sources.count }

    /// Changes whenever a schedule is put in force or everything is planned again (a clock
    /// step, a zone change): what was derived from the schedules and the clock before, such as
    /// a listing's order (`ListingOrder`), is stale. Deliveries do not change it: they settle
    /// only what has come.
    public private(set) var revision = 0

    /// What each entry is settled through (`OccurrencePlan`), by source index and then entry
    /// position in the source's schedule; nil for an entry with nothing settled.
    ///
    /// - Complexity: O(*n*) for *n* entries of all sources.
    public func settledThrough() -> [[Instant?]] {
        var bySource = schedules.map { [Instant?](repeating: nil, count: $0?.entries.count ?? 0) }
        for (element, reference) in references.enumerated() where !reference.isVacant {
            bySource[reference.source][reference.entry] = settled[element]
        }
        return bySource
    }

    /// The schedule in force for the source at `location`, if its feed was loaded.
    public func schedule(at location: String) -> Schedule? {
        sources.firstIndex { $0.location == location }.flatMap { schedules[$0] }
    }

    /// Puts `schedule` in force for source `index`: an added entry is planned, a changed one
    /// planned again, a withdrawn one's pending occurrence cancelled; unchanged entries keep
    /// theirs as they are.
    ///
    /// - Parameters:
    ///   - settled: What the state database says each entry is settled through; read for the
    ///     entries the planner does not know yet.
    ///   - answers: The answers the state database holds for entries, by entry id; read for the
    ///     entries the planner does not know yet. A changed entry keeps its answer.
    /// - Returns: What changed (for the popups on screen), and the effects.
    /// - Complexity: O(*n*) for *n* entries of all sources, plus one plan per added or changed entry.
    public mutating func load(
        _ schedule: Schedule, source index: Int, settled stored: StoredSettledInstants,
        answers storedAnswers: [String: EntryAnswer] = [:], at now: Instant
    ) -> (changes: ScheduleChanges, effects: [PlannerEffect]) {
        revision += 1
        let old = schedules[index]?.entries ?? []
        let changes = ScheduleChanges(from: old, to: schedule.entries)
        var elements = [UInt32?](repeating: nil, count: old.count)
        for (element, reference) in references.enumerated() where reference.source == index && !reference.isVacant {
            elements[reference.entry] = UInt32(element)
        }
        schedules[index] = schedule
        for match in changes.unchanged {
            if let element = elements[match.old] { references[Int(element)].entry = match.new }
        }
        var planned: [UInt32] = []
        for match in changes.changed {
            guard let element = elements[match.old] else { continue }
            references[Int(element)].entry = match.new
            cancelPending(element)
            planned.append(element)
        }
        for position in changes.withdrawn {
            guard let element = elements[position] else { continue }
            cancelPending(element)
            references[Int(element)] = .vacant
            settled[Int(element)] = nil
            answers[element] = nil
            vacant.append(element)
        }
        let storedByPosition = changes.added.isEmpty ? [] : stored.settledThrough(schedule.entries)
        for position in changes.added {
            let entry = schedule.entries[position]
            let element = allocate(EntryReference(source: index, entry: position))
            settled[Int(element)] = storedByPosition[position]
            // A new element has no answer: only a stored one is written (writing nil looks the key up).
            if EntryAnswer.applies(to: entry), let answer = storedAnswers[entry.id] { answers[element] = answer }
            planned.append(element)
        }
        var followed: [FollowedEntry] = []
        var memo = ElapseMemo()
        for element in planned {
            if let entry = place(element, at: now, memo: &memo) { followed.append(entry) }
        }
        let effects: [PlannerEffect] =
            followed.isEmpty ? [] : [.follow(source: sources[index].location, entries: followed, since: now)]
        return (changes, effects)
    }

    /// The timer expired: plans the first `plansPerTurn` entries that fell due by `now` and
    /// puts the rest back on the wheel, overdue, in their order, for the loop's next turn.
    ///
    /// - Returns: The popups to show (answer each with `shown(_:_:at:)`), the occurrences to
    ///   record as missed and the entries to follow.
    public mutating func timerExpired(at now: Instant) -> [PlannerEffect] {
        let due = wheel.advance(to: now)
        var effects: [PlannerEffect] = []
        var memo = ElapseMemo()
        for (_, element) in due.prefix(Self.plansPerTurn) {
            plan(element, at: now, memo: &memo, into: &effects)
        }
        for (dueAt, element) in due.dropFirst(Self.plansPerTurn) {
            schedule(element, at: dueAt)
        }
        return effects
    }

    /// The wall clock stepped, or the machine resumed from suspend: what fell due meanwhile
    /// was not watched, so it is late; everything is planned again.
    public mutating func clockChanged(at now: Instant) -> [PlannerEffect] {
        watchingSince = now
        return replan(at: now)
    }

    /// The user's zone changed: floating times are read in `zone` from now on.
    public mutating func zoneChanged(to zone: ZoneRules, at now: Instant) -> [PlannerEffect] {
        userZone = zone
        return replan(at: now)
    }

    /// A notification server appeared: what waited for one is tried now rather than at its
    /// next retry.
    public mutating func serverAppeared(at now: Instant) -> [PlannerEffect] {
        replan(at: now)
    }

    /// What became of a `show` effect: the planner settles the occurrence and arms the entry's
    /// next one, or tries it again after `retryDelay`.
    public mutating func shown(_ due: DueOccurrence, _ result: ShowResult, at now: Instant) {
        let element = due.element
        guard let next = showing.removeValue(forKey: element), entry(element)?.id == due.entry.id else { return }
        switch result {
        case .shown, .passedOver:
            settled[Int(element)] = max(settled[Int(element)] ?? due.occurrence, due.occurrence)
            // Shown again, or superseded by a later occurrence: a reminder is answered either way.
            if case .remind? = answers[element] { answers[element] = nil }
            if let next { schedule(element, at: next) }
        case .failed:
            schedule(element, at: now + Self.retryDelay)
        }
    }

    /// Whether `due`'s popup, asked for with a `show` effect, still waits for `shown(_:_:at:)`:
    /// no feed change, clock step or zone change has planned its entry again since.
    public func isShowing(_ due: DueOccurrence) -> Bool {
        showing[due.element] != nil && entry(due.element)?.id == due.entry.id
    }

    /// The user answered a popup of the occurrence of `entryID` in the source at `location` due
    /// at `occurrence`, and the answer changed its state: Ignore stops the entry, "Remind Me
    /// Later" brings the occurrence back after the source's remind period (or at `remindUntil`,
    /// a snooze's end), acting on it ends a reminder. Other dialects' answers, and entries the
    /// planner does not follow, change nothing.
    ///
    /// - Complexity: O(*n*) in the entries of all sources, to find the entry: answers are rare.
    public mutating func answered(
        _ change: StateChange, remindUntil: Instant? = nil, entryID: String, source location: String,
        occurrence: Instant, at now: Instant
    ) {
        guard let index = sources.firstIndex(where: { $0.location == location }),
            let position = schedules[index]?.entries.firstIndex(where: { $0.id == entryID }),
            let element = references.firstIndex(of: EntryReference(source: index, entry: position)).map(UInt32.init),
            let entry = entry(element), EntryAnswer.applies(to: entry)
        else { return }
        switch change {
        case .ignored: answers[element] = .ignored
        case .reminded:
            answers[element] = .remind(occurrence: occurrence, Reminder(requestedAt: now, until: remindUntil))
        case .viewed: answers[element] = nil
        case .newsShown, .metaOK, .metaCancelled: return
        }
        guard showing[element] == nil else { return }
        cancelPending(element)
        var memo = ElapseMemo(keeping: 0)
        _ = place(element, at: now, memo: &memo)
    }

    /// Plans every entry anew from what is settled.
    private mutating func replan(at now: Instant) -> [PlannerEffect] {
        revision += 1
        wheel = TimerWheel(now: now)
        handles = Array(repeating: .nothing, count: references.count)
        showing = [:]
        var followed: [Int: [FollowedEntry]] = [:]
        var memo = ElapseMemo()
        for element in references.indices where !references[element].isVacant {
            if let entry = place(UInt32(element), at: now, memo: &memo) {
                followed[references[element].source, default: []].append(entry)
            }
        }
        return followed.keys.sorted().map { index in
            .follow(source: sources[index].location, entries: followed[index] ?? [], since: now)
        }
    }

    /// Puts an element on the wheel at its entry's next occurrence, or at `now` when something
    /// of it is due or missed (`timerExpired(at:)` then plans it).
    ///
    /// - Returns: The entry when the planner begins following it now.
    private mutating func place(_ element: UInt32, at now: Instant, memo: inout ElapseMemo) -> FollowedEntry? {
        guard let entry = entry(element), answers[element] != .ignored else { return nil }
        let plan = OccurrencePlan(
            for: entry, settledThrough: settled[Int(element)], now: now, context: context(of: element), memo: &memo)
        if let followsFrom = plan.followsFrom { settled[Int(element)] = followsFrom }
        if plan.deliver != nil || plan.missed != nil {
            schedule(element, at: now)
        } else if let next = Self.earlier(plan.next, reminder(of: element, entry, at: now)?.due) {
            schedule(element, at: max(next, now))
        }
        return plan.followsFrom != nil ? followed(entry, of: element) : nil
    }

    /// `entry`, element `element`'s, as the planner begins to follow it: with its position.
    private func followed(_ entry: ScheduleEntry, of element: UInt32) -> FollowedEntry {
        FollowedEntry(id: entry.id, position: references[Int(element)].entry)
    }

    /// Delivers or records what is due of one element's entry and schedules its next occurrence.
    private mutating func plan(
        _ element: UInt32, at now: Instant, memo: inout ElapseMemo, into effects: inout [PlannerEffect]
    ) {
        guard let entry = entry(element), answers[element] != .ignored else { return }
        let location = sources[references[Int(element)].source].location
        let plan = OccurrencePlan(
            for: entry, settledThrough: settled[Int(element)], now: now, context: context(of: element), memo: &memo)
        if let followsFrom = plan.followsFrom {
            settled[Int(element)] = followsFrom
            effects.append(.follow(source: location, entries: [followed(entry, of: element)], since: now))
        }
        if let missed = plan.missed {
            settled[Int(element)] = missed
            effects.append(.recordMissed(source: location, entryID: entry.id, occurrence: missed))
        }
        let reminder = reminder(of: element, entry, at: now)
        // What is owed comes first; a reminder only when nothing is, since an owed occurrence
        // takes the reminded one's place.
        let due =
            plan.deliver.map { (occurrence: $0, foldsEarlier: plan.foldsEarlier) }
            ?? reminder.flatMap { $0.due <= now ? (occurrence: $0.occurrence, foldsEarlier: false) : nil }
        if let due {
            if let quietEnd = quietHours?.end(holding: entry, at: now, in: userZone) {
                schedule(element, at: quietEnd)
                return
            }
            showing[element] = plan.next
            effects.append(
                .show(
                    DueOccurrence(
                        element: element, location: location, entry: entry, occurrence: due.occurrence,
                        foldsEarlier: due.foldsEarlier)))
            return
        }
        if let next = Self.earlier(plan.next, reminder?.due) { schedule(element, at: next) }
    }

    /// When an entry's element wakes next: its next occurrence or its reminder, whichever comes
    /// first. Planning every entry at start calls it once per entry, so it builds no array.
    private static func earlier(_ next: Instant?, _ reminder: Instant?) -> Instant? {
        guard let next else { return reminder }
        guard let reminder else { return next }
        return min(next, reminder)
    }

    /// The occurrence a "Remind Me Later" brings back, and when: nil when there is none, when a
    /// later occurrence of the entry took its place (it is settled beyond it), or when the entry
    /// may no longer be shown by then (expired, or outside the application version).
    private func reminder(
        of element: UInt32, _ entry: ScheduleEntry, at now: Instant
    ) -> (occurrence: Instant, due: Instant)? {
        guard case .remind(let occurrence, let reminder)? = answers[element],
            settled[Int(element)].map({ $0 <= occurrence }) ?? true
        else { return nil }
        let due = reminder.due(remindPeriod: sources[references[Int(element)].source].remindPeriod)
        return OccurrencePlan.admits(entry, at: max(due, now), context: context(of: element)) ? (occurrence, due) : nil
    }

    private func context(of element: UInt32) -> PlanningContext {
        PlanningContext(
            userZone: userZone, quietHours: quietHours,
            applicationVersion: sources[references[Int(element)].source].applicationVersion,
            watchedSince: watchingSince)
    }

    private func entry(_ element: UInt32) -> ScheduleEntry? {
        let reference = references[Int(element)]
        guard !reference.isVacant, let entries = schedules[reference.source]?.entries,
            entries.indices.contains(reference.entry)
        else { return nil }
        return entries[reference.entry]
    }

    private mutating func schedule(_ element: UInt32, at due: Instant) {
        handles[Int(element)] = wheel.schedule(element, at: due)
    }

    private mutating func cancelPending(_ element: UInt32) {
        showing[element] = nil
        let handle = handles[Int(element)]
        guard handle != .nothing else { return }
        // A handle whose entry already fell due is stale; the wheel checks its generation.
        _ = wheel.cancel(handle)
        handles[Int(element)] = .nothing
    }

    private mutating func allocate(_ reference: EntryReference) -> UInt32 {
        if let element = vacant.popLast() {
            references[Int(element)] = reference
            return element
        }
        references.append(reference)
        settled.append(nil)
        handles.append(.nothing)
        return UInt32(references.count - 1)
    }
}

/// Each planner element's settled instant (`OccurrencePlan`), nil for none: 8 bytes an element
/// where `[Instant?]` takes 16 (the optional's flag pads each to the next 8), and a planner holds
/// one per entry, up to 10^6.
struct SettledInstants {
    /// Stands for nil: no instant is that far back (the clock's and the feeds' years are 1 to 9999).
    private static let none = Int64.min
    private var microseconds: [Int64] = []

    subscript(element: Int) -> Instant? {
        get { microseconds[element] == Self.none ? nil : Instant(microseconds: microseconds[element]) }
        set {
            assert(newValue?.microseconds != Self.none, "an instant that stands for none")
            microseconds[element] = newValue?.microseconds ?? Self.none
        }
    }

    mutating func append(_ instant: Instant?) {
        microseconds.append(instant?.microseconds ?? Self.none)
    }
}

/// Which entry a planner's wheel element stands for: its source and its position in the
/// source's schedule.
///
/// Kept in 32 bits each (a planner holds one per entry, up to 10^6): a feed's entries are
/// bounded far below 2^31 by its size limit (`FeedReadLimits`).
struct EntryReference: Equatable {
    private var sourceIndex: Int32
    private var entryIndex: Int32

    init(source: Int, entry: Int) {
        sourceIndex = Int32(source)
        entryIndex = Int32(entry)
    }

    var source: Int { Int(sourceIndex) }

    var entry: Int {
        get { Int(entryIndex) }
        set { entryIndex = Int32(newValue) }
    }

    /// An element whose entry was withdrawn, waiting to be reused.
    static let vacant = EntryReference(source: -1, entry: -1)

    var isVacant: Bool { sourceIndex < 0 }
}

/// What the planner asks the daemon to do.
public enum PlannerEffect: Sendable, Equatable {
    /// Show this occurrence's popup and record its delivery, then tell the planner how that
    /// went (`OccurrencePlanner.shown(_:_:at:)`).
    case show(DueOccurrence)
    /// Record in the ledger that this occurrence was too late to show.
    case recordMissed(source: String, entryID: String, occurrence: Instant)
    /// Store that these recurring entries of `source` are followed from `since` on.
    case follow(source: String, entries: [FollowedEntry], since: Instant)
}

/// An occurrence due to be shown.
public struct DueOccurrence: Sendable, Equatable {
    /// The planner's element for the entry.
    let element: UInt32
    /// The source's location.
    public let location: String
    public let entry: ScheduleEntry
    /// The instant it was due.
    public let occurrence: Instant
    /// Whether it stands for earlier occurrences too (a catch-up).
    public let foldsEarlier: Bool

    public static func == (lhs: DueOccurrence, rhs: DueOccurrence) -> Bool {
        lhs.element == rhs.element && lhs.location == rhs.location
            && lhs.entry.hasSameMeaning(as: rhs.entry) && lhs.occurrence == rhs.occurrence
            && lhs.foldsEarlier == rhs.foldsEarlier
    }
}

/// What became of showing an occurrence.
public enum ShowResult: Sendable, Equatable {
    /// The server took the popup, and the ledger recorded it.
    case shown
    /// Nothing opens its action: it is passed over, not retried (seed semantics §5.20).
    case passedOver
    /// No notification server took it: it is tried again later.
    case failed

    /// What a showing that came to `outcome` (the occurrence id, or why not) means for the
    /// schedule: a popup refused because nothing opens its action (`.cannotOpen`: iNotify's
    /// `canOpenURL`) is passed over; any other failure (no server, a refusal, a server that does
    /// not answer) is tried again.
    public init(_ outcome: Result<String, CoreError>) {
        switch outcome {
        case .success: self = .shown
        case .failure(let error): self = error.code == .cannotOpen ? .passedOver : .failed
        }
    }
}
