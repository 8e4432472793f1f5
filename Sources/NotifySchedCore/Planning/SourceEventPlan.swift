/// Something that happens to a source besides the clock: the session starting, resuming or
/// being unlocked, an event posted with `notify-sched event`, or a check asked for by `sync`.
public enum SourceEvent: Sendable, Equatable {
    /// A session event (`session:start`, `session:resume`, `session:unlock`): iNotify sources are
    /// checked, iSmartNews sources run a display cycle (counting a run when `countsAsRun`), and
    /// entries of other sources whose `events` name it take a step.
    case session(String, countsAsRun: Bool)
    /// An event posted by name: iSmartNews sources run a display cycle, and entries of native
    /// and ZBiM sources whose `events` name it take a step; iNotify sources are not concerned.
    case posted(String)
    /// iNotify's manual check: the periods and the first-start rule are skipped.
    case manualCheck
}

/// What the state database remembers of one source that its events read: the iNotify check
/// state, the iSmartNews and event-pattern state, and what the user answered.
public struct SourceMemory: Sendable, Equatable {
    public var check: SourceState
    public var news: NewsState
    public var handling: SourceHandlingState

    public init(
        check: SourceState = SourceState(), news: NewsState = NewsState(), handling: SourceHandlingState = .init()
    ) {
        self.check = check
        self.news = news
        self.handling = handling
    }
}

/// The daemon's decision about one `SourceEvent` for one source, as a value: the popups it
/// chooses, which wait among the waiting popups (`PopupQueue`), and the state it leaves, which
/// the daemon stores with them in one transaction.
///
/// Pure and deterministic, like `OccurrencePlanner`: the source's schedule, what the state
/// database remembers of it, what is on screen and `now` come in as arguments. The rules are the
/// dialects' own (seed semantics §1.3–§1.5 and §2.4–§2.7): `INotifyCheck`, `NewsCycle` and
/// `EventFiring` decide; this type applies them to one source and adds the daemon's rules around
/// them: an iNotify source shows one message at a time, an entry waiting already is not chosen
/// again, an iSmartNews queue's timeout puts its message later.
///
///     let plan = SourceEventPlan(.session("session:start", countsAsRun: true), schedule: schedule,
///                                memory: stored, settings: settings, location: path, waiting: queue,
///                                onScreen: false, canOpen: { _ in true }, now: now)
///     store(plan.check ?? …, plan.news ?? …, waiting: plan.popups.map(\.popup)); queue.add(plan.popups)
public struct SourceEventPlan: Sendable, Equatable {
    /// The popups chosen, not yet among the waiting ones: the daemon stores them first.
    public private(set) var popups: [PopupQueue.Item] = []
    /// The iNotify check state to store; nil when it did not change.
    public private(set) var check: SourceState?
    /// Empty the source's viewed and ignored lists, with `check` (a check in debug mode that
    /// found every message seen).
    public private(set) var forgettingSeen = false
    /// The iSmartNews or event-pattern state to store with `popups`; nil when it did not change
    /// and nothing was chosen.
    public private(set) var news: NewsState?
    /// What the daemon should log, in words, without the source's location.
    public private(set) var notes: [String] = []

    /// Decides what `event` does to the source at `location`.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - schedule: The source's schedule in force.
    ///   - memory: What the state database remembers of the source.
    ///   - settings: The source's iNotify settings.
    ///   - location: The source's location: the identity of its waiting popups.
    ///   - waiting: The popups waiting to be shown, of every source.
    ///   - onScreen: Whether a popup of the source is on screen, unanswered.
    ///   - urlHandlers: What on the desktop opens an action URL.
    ///   - now: The current time.
    ///   - zone: The user's zone, for iSmartNews's wall-clock rules.
    ///   - seed: Seeds iSmartNews's random pick among meta items.
    public init(
        _ event: SourceEvent, schedule: Schedule, memory: SourceMemory, settings: INotifySettings, location: String,
        waiting: PopupQueue, onScreen: Bool, urlHandlers: URLHandlers, now: Instant, zone: ZoneRules = .utc,
        seed: UInt64 = 0
    ) {
        var memory = memory
        if case .session("session:start", _) = event, schedule.dialect != .iNotify {
            let stored = memory.news
            memory.news.startSession(version: settings.applicationVersion, at: now)
            // The first start and a new version are kept, whatever the event then chooses.
            if memory.news != stored { news = memory.news }
            if memory.news.upgraded {
                notes.append("the application version is now \(settings.applicationVersion ?? "")")
            }
        }
        switch (schedule.dialect, event) {
        case (.iNotify, .session), (.iNotify, .manualCheck):
            checkINotify(
                schedule, memory, settings, force: event == .manualCheck, location: location, waiting: waiting,
                hasPopup: onScreen || waiting.hasPopup(of: location), urlHandlers: urlHandlers, now: now)
        case (.iSmartNews, .session(let name, let countsAsRun)):
            runNewsCycle(
                name, countsAsRun: countsAsRun, schedule, memory, location: location, waiting: waiting, now: now,
                zone: zone, seed: seed)
        case (.iSmartNews, .posted(let name)):
            runNewsCycle(
                name, countsAsRun: false, schedule, memory, location: location, waiting: waiting, now: now, zone: zone,
                seed: seed)
        case (.native, .session(let name, _)), (.native, .posted(let name)), (.zbim, .session(let name, _)),
            (.zbim, .posted(let name)):
            fireEventEntries(name, schedule, memory, location: location, waiting: waiting, now: now)
        case (.iNotify, .posted), (.iSmartNews, .manualCheck), (.native, .manualCheck), (.zbim, .manualCheck),
            (.iCalendar, _):
            break
        }
    }

    /// iNotify's check (seed semantics §1.3–§1.4): when the check is due, it picks one message,
    /// and only while no popup of the source is on screen or waiting (§5.29: one at a time).
    private mutating func checkINotify(
        _ schedule: Schedule, _ memory: SourceMemory, _ settings: INotifySettings, force: Bool, location: String,
        waiting: PopupQueue, hasPopup: Bool, urlHandlers: URLHandlers, now: Instant
    ) {
        if !force, !settings.checkAtLaunch {
            notes.append("check-at-launch is off: only notify-sched sync checks it")
            return
        }
        var state = memory.check
        let decision =
            force
            ? .check
            : INotifyCheck.decision(
                at: now, settings: settings, hasRunBefore: state.hasRun, lastChecked: state.lastChecked,
                lastReminded: memory.handling.lastReminded)
        switch decision {
        case .firstLaunch:
            notes.append("first start, not checking (show-on-first-launch is off)")
        case .throttled(let until):
            notes.append("next check from \(until.rfc3339)")
        case .check where hasPopup:
            notes.append("its last message is on screen or waiting; none more")
            state.lastChecked = now
        case .check:
            let selection = INotifyCheck.select(
                from: schedule.entries, viewed: memory.handling.viewed, ignored: memory.handling.ignored,
                settings: settings, canOpen: urlHandlers.open)
            if selection.detected.isEmpty { notes.append("no new notifications") }
            if let key = selection.key, let entry = schedule.entries.first(where: { $0.id == key }) {
                popups = waiting.popups(for: [entry], of: location, at: now)
            }
            forgettingSeen = selection.resetsSeenLists
            state.lastChecked = now
        }
        state.hasRun = true
        check = state
    }

    /// One iSmartNews display cycle of `event`: its messages wait to be shown, a queue's until
    /// the queue's timeout after the message before it.
    private mutating func runNewsCycle(
        _ event: String, countsAsRun: Bool, _ schedule: Schedule, _ memory: SourceMemory, location: String,
        waiting: PopupQueue, now: Instant, zone: ZoneRules, seed: UInt64
    ) {
        var state = memory.news
        if countsAsRun { state.runCounter += 1 }
        let cycle = NewsCycle(
            event: event, schedule: schedule, state: state, handling: memory.handling, now: now, zone: zone, seed: seed)
        var wait = TimeSpan.zero
        for item in cycle.items {
            guard let entry = schedule.entries.first(where: { $0.id == item.entryID }) else { continue }
            wait = wait + item.delay
            popups += waiting.popups(for: [entry], of: location, at: now + wait)
        }
        news = cycle.state
    }

    /// Lets the entries of a native or ZBiM source whose `events` patterns are on for `event`
    /// wait to be shown. The state is stored when a pattern took a step or an entry was chosen:
    /// an `ON=1` pattern's progress stays the same from one step to the next.
    private mutating func fireEventEntries(
        _ event: String, _ schedule: Schedule, _ memory: SourceMemory, location: String, waiting: PopupQueue,
        now: Instant
    ) {
        let firing = EventFiring(
            event: event, schedule: schedule, progress: memory.news.eventProgress,
            ignored: Set(memory.handling.ignored), now: now, upgraded: memory.news.upgraded)
        popups = waiting.popups(for: firing.entries, of: location, at: now)
        guard firing.progress != memory.news.eventProgress || !popups.isEmpty else { return }
        var state = memory.news
        state.eventProgress = firing.progress
        news = state
    }
}

extension SourceEventPlan {
    /// The URL schemes a source event of `schedule` may need `URLHandlers` for: those of an
    /// iNotify feed's action URLs, which its check passes over when nothing opens them; none for
    /// the other dialects, whose events never ask. The daemon asks the desktop about these alone,
    /// so that a session without iNotify sources never loads GIO's handler index.
    ///
    /// - Complexity: O(*n*) in the entries of an iNotify schedule; O(1) for another.
    public static func schemesAskedAbout(in schedule: Schedule) -> Set<String> {
        guard schedule.dialect == .iNotify else { return [] }
        return Set(schedule.entries.compactMap { $0.content.action?.url.scheme })
    }
}
