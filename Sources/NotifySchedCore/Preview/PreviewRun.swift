/// A preview: the daemon's own core (`DaemonCore`) started on feeds at an instant and run in
/// virtual time over a window, for one desktop (`PreviewProfile`), every popup it asks for
/// taken by a server and left unanswered. What it decides is what a daemon started then on
/// that desktop would do; the occurrences of each entry, as `list` computes them, are then
/// marked with what became of them (`Timeline`).
///
/// Pure like the core: no I/O and no clock.
public struct PreviewRun: ~Copyable {
    /// The most decisions the core makes, and the most occurrences of the window listed, in a
    /// timeline: beyond either it stops short of its window's end (`Timeline.cutShortAt`), so
    /// that a feed that fires every second cannot make a preview endless.
    public static let occurrenceLimit = 100_000

    /// The longest quiet hours can hold a popup.
    private static let heldAtMost = TimeSpan.days(1)

    private var core: DaemonCore
    private let schedules: [Schedule]
    private let profile: PreviewProfile
    /// What the core decided of each occurrence, by source index and entry id.
    private var decided: [DecisionKey: [TimelineOccurrence]] = [:]
    private var decisions = 0

    /// What the planner plans the profile's entries with.
    private var context: PlanningContext {
        PlanningContext(
            userZone: profile.zone, quietHours: profile.quietHours, applicationVersion: profile.applicationVersion)
    }

    private struct DecisionKey: Hashable {
        var source: Int
        var entryID: String
    }

    /// The timeline of `schedules`' timed entries in `window` for `profile`: every occurrence
    /// due in it after its start, at which the daemon starts, and those the daemon catches up or
    /// misses as it starts. (A series is owed only what comes after the daemon starts following it:
    /// an occurrence due at the very instant it starts is not.)
    ///
    /// - Parameters:
    ///   - schedules: The feeds, each from its own source: their `source` names them.
    ///   - limit: The most decisions, and occurrences listed, the timeline holds.
    public static func timeline(
        of schedules: [Schedule], for profile: PreviewProfile, in window: Range<Instant>,
        limit: Int = PreviewRun.occurrenceLimit
    ) -> Timeline {
        var run = PreviewRun(schedules, profile: profile, at: window.lowerBound)
        // On past the window, for the popups of its occurrences that quiet hours hold beyond it.
        let stop = run.run(from: window.lowerBound, until: window.upperBound + heldAtMost, limit: limit)
        return run.timeline(window: window, end: min(stop, window.upperBound), limit: limit)
    }

    private init(_ schedules: [Schedule], profile: PreviewProfile, at start: Instant) {
        self.schedules = schedules
        self.profile = profile
        let planner = OccurrencePlanner(
            sources: schedules.map {
                OccurrencePlanner.Source(location: $0.source, applicationVersion: profile.applicationVersion)
            }, now: start, userZone: profile.zone, quietHours: profile.quietHours)
        var configuration = Configuration()
        configuration.tags = profile.tags
        configuration.maxPopups = profile.maxPopups
        configuration.quietHours = profile.quietHours
        configuration.sources = schedules.map {
            SourceConfiguration(
                name: $0.source, feed: $0.source,
                settings: SourceSettings(iNotify: INotifySettings(applicationVersion: profile.applicationVersion)))
        }
        let polling = SourcePolling(
            sources: schedules.map { SourcePolling.Source(health: SourceHealth(location: $0.source)) }, seed: 0)
        core = DaemonCore(
            planner: planner, polling: polling, configuration: configuration, followsSystemZone: false,
            installID: profile.installID, environment: TargetingEnvironment(language: profile.language))
    }

    /// Starts the core at `start` as the daemon starts, with the feeds read, and wakes it at
    /// each instant it asks for before `end`, until its decisions reach `limit`.
    ///
    /// - Returns: Where the run stopped: `end`, or the instant the limit was reached at.
    private mutating func run(from start: Instant, until end: Instant, limit: Int) -> Instant {
        perform(.serverKnown(nil), at: start)
        for (index, schedule) in schedules.enumerated() {
            let load = FeedLoad(source: index, schedule: schedule, settled: [:])
            perform(.sourceOpened(source: index, .read(.loaded(load, etag: nil, lastModified: nil))), at: start)
        }
        perform(.started, at: start)
        var now = start
        // A wake-up that neither moves time on nor decides anything, over and over, would be a
        // core waiting for something a preview does not bring: it ends the run.
        var idleTurns = 0
        while decisions < limit, idleTurns < 1_000, let wakeUp = core.nextWakeUp, wakeUp < end {
            let before = (now, decisions)
            now = max(now, wakeUp)
            perform(.timerWoke(clockChanged: false), at: now)
            idleTurns = before == (now, decisions) ? idleTurns + 1 : 0
        }
        // Stopped at the limit, or by a core that waits for what a preview does not bring.
        return decisions < limit && idleTurns < 1_000 ? end : now
    }

    /// The timeline: what the core decided of each entry, and each occurrence `list` computes
    /// in the window up to `end` that it did not decide on its own (folded into a later popup,
    /// or after the entry's expiry), by the instant each shows or is decided at, then in feed
    /// order; the entries with none, with why.
    private func timeline(window: Range<Instant>, end: Instant, limit: Int) -> Timeline {
        var rows: [(order: Int, occurrence: TimelineOccurrence)] = []
        var quiet: [QuietEntry] = []
        var budget = limit
        // Where the occurrences `list` computes reached the limit, when they did before `end`.
        var exhaustedAt: Instant?
        var order = 0
        for (source, schedule) in schedules.enumerated() {
            for entry in schedule.entries {
                order += 1
                func quietly(_ why: QuietEntry.Why) {
                    quiet.append(QuietEntry(source: schedule.source, entryID: entry.id, why: why))
                }
                switch entry.trigger {
                case .events, .check:
                    quietly(.onEvents)
                    continue
                case .immediate, .once, .repeating, .calendar, .alarm: break
                }
                // The decisions past the window stand for occurrences in it (a popup quiet hours
                // held); those due past it are not in it. In order of the occurrences they are about.
                let decidedOnward = (self.decided[DecisionKey(source: source, entryID: entry.id)] ?? []).sorted {
                    $0.due < $1.due
                }
                let decided = decidedOnward.filter { $0.due < end }
                if decided.isEmpty,
                    let ending = EntryEnding.exclusion(of: entry, at: window.lowerBound, context: context)
                {
                    quietly(.ending(ending))
                    continue
                }
                let decidedDues = Set(decided.map(\.due))
                // An entry due at once has the one occurrence the core decided.
                let dues =
                    entry.trigger == .immediate
                    ? []
                    : entry.trigger.occurrences(
                        in: window.lowerBound.nextMicrosecond..<end, limit: max(budget, 0), userZone: profile.zone)
                budget -= dues.count
                if budget <= 0, let last = dues.last { exhaustedAt = min(exhaustedAt ?? last, last) }
                var entryRows = decided
                for due in dues where !decidedDues.contains(due) {
                    // When it could go out: its time, or the end of the quiet hours that hold it.
                    let goesOut = profile.quietHours?.end(holding: entry, at: due, in: profile.zone) ?? due
                    if let ending = EntryEnding.exclusion(of: entry, at: goesOut, context: context) {
                        entryRows.append(
                            TimelineOccurrence(
                                source: schedule.source, entryID: entry.id, due: due, at: goesOut,
                                outcome: .suppressed, reason: .ending(ending)))
                    } else if let standing = Self.decision(standingFor: due, in: decidedOnward) {
                        entryRows.append(
                            TimelineOccurrence(
                                source: schedule.source, entryID: entry.id, due: due, at: standing.at,
                                outcome: .folded, reason: .folded(into: standing.due)))
                    }
                }
                entryRows += daylightGaps(of: entry, source: schedule.source, in: window.lowerBound..<end)
                if entryRows.isEmpty {
                    // Its next occurrence, unless it expires or its version range leaves it out by then.
                    let next = entry.trigger.occurrences(onOrAfter: end, limit: 1, userZone: profile.zone).first
                    let ending = next.flatMap { EntryEnding.exclusion(of: entry, at: $0, context: context) }
                    if let next, ending == nil {
                        quietly(.nextAfter(next))
                    } else {
                        quietly(
                            .ending(
                                ending ?? EntryEnding.exclusion(of: entry, at: window.lowerBound, context: context)
                                    ?? .ended))
                    }
                }
                rows += entryRows.map { (order, $0) }
            }
        }
        // Past where the occurrences reached the limit, the timeline would hold some entries' and
        // not others': it stops there.
        let stop = exhaustedAt.map { min($0, end) } ?? end
        if stop < end { rows.removeAll { $0.occurrence.due > stop } }
        rows.sort { ($0.occurrence.at, $0.order, $0.occurrence.due) < ($1.occurrence.at, $1.order, $1.occurrence.due) }
        return Timeline(
            zone: profile.zone, window: window, occurrences: rows.map(\.occurrence), quietEntries: quiet,
            cutShortAt: stop < window.upperBound ? stop : nil)
    }

    /// The decision that stands for an occurrence due at `due` that the core did not decide on
    /// its own: the first about a later occurrence that was decided once `due` had come (the
    /// popup quiet hours held them for, shown or suppressed). `decisions` is in order of `due`.
    private static func decision(standingFor due: Instant, in decisions: [TimelineOccurrence]) -> TimelineOccurrence? {
        let later = decisions.partitioningIndex(where: { $0.due > due })
        return decisions[later...].first { $0.at >= due }
    }

    /// The times of `entry`'s calendar expression that its zone's clocks skip in `window`, each
    /// suppressed at the instant of the jump: the expression read in the offset from before the
    /// jump, past it, names a time inside it.
    private func daylightGaps(of entry: ScheduleEntry, source: String, in window: Range<Instant>)
        -> [TimelineOccurrence]
    {
        guard case .calendar(var expression, let ownZone, let notBefore, let bounds) = entry.trigger, !expression.utc
        else { return [] }
        let zone = expression.zone ?? ownZone ?? profile.zone
        // Read in the offset from before each jump, not in its own zone.
        expression.zone = nil
        var rows: [TimelineOccurrence] = []
        for change in zone.offsetChanges(in: window) where change.isGap {
            guard EntryEnding.exclusion(of: entry, at: change.at, context: context) == nil,
                notBefore.map({ $0.instant(userZone: profile.zone) <= change.at }) ?? true,
                bounds.until.map({ change.at <= $0 }) ?? true,
                bounds.count == nil
                    || !entry.trigger.occurrences(onOrAfter: change.at, limit: 1, userZone: profile.zone).isEmpty
            else { continue }
            let continuing = ZoneRules.fixed(change.before)
            var cursor = change.at.previousMicrosecond
            while rows.count < 3_600, let skipped = expression.nextElapse(after: cursor, in: continuing),
                skipped < change.at + change.jump
            {
                rows.append(
                    TimelineOccurrence(
                        source: source, entryID: entry.id, due: change.at, at: change.at, outcome: .suppressed,
                        reason: .daylightGap(change, wallClock: continuing.civil(at: skipped), zone: zone.identifier)))
                cursor = skipped
            }
        }
        return rows
    }

    /// Hands `event` at `now` to the core and carries out what it decides, answering what waits
    /// for an answer: each popup is taken by the server, each check finds the feed unchanged.
    private mutating func perform(_ event: DaemonEvent, at now: Instant) {
        for effect in core.handle(event, at: now) {
            switch effect {
            case .show(let due):
                note(due.location, due.entry.id, due: due.occurrence, at: now, .shows)
                perform(.shown(due, .shown), at: now)
            case .recordSuppressed(let record):
                note(
                    record.source, record.entryID, due: record.occurrence, at: now, .suppressed,
                    reason: record.suppression.map(TimelineReason.suppression))
            case .recordMissed(let source, let entryID, let occurrence):
                let lateness =
                    schedules.lazy.compactMap { schedule in
                        schedule.source == source ? schedule.entries.first { $0.id == entryID } : nil
                    }.first?.maxLateness ?? .zero
                note(source, entryID, due: occurrence, at: now, .suppressed, reason: .late(maxLateness: lateness))
            case .startCheck(let source):
                perform(
                    .checkFinished(
                        source: source,
                        .notModified(copy: nil, etag: nil, lastModified: nil, copyTakenAt: now)),
                    at: now)
            case .showWaiting(let item):
                perform(.waitingShown(item, .shown), at: now)
            case .storeChoice(_, let plan):
                perform(.popupsChosen(plan.popups), at: now)
            default:
                break
            }
        }
    }

    private mutating func note(
        _ location: String, _ entryID: String, due: Instant, at now: Instant, _ outcome: TimelineOutcome,
        reason: TimelineReason? = nil
    ) {
        guard let source = schedules.firstIndex(where: { $0.source == location }) else { return }
        decisions += 1
        decided[DecisionKey(source: source, entryID: entryID), default: []].append(
            TimelineOccurrence(source: location, entryID: entryID, due: due, at: now, outcome: outcome, reason: reason))
    }
}
