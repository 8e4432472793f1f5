import NotifySchedCore

/// Runs an `EventScenario` through the real core in virtual time, as the daemon's interpreter
/// would: each event goes to `SourceEventPlan` for each source, what it chose goes to the
/// `DaemonCore` and goes out when its effects say, the user answers popups through
/// `HandlingPolicy` and `HandlingState`, and a state database (the values the daemon stores)
/// survives restarts. Beside it the `EventOracle` is told the same facts; every choice the core
/// makes is compared with the oracle's, and every popup shown is checked against the rules of
/// delivery (never before its occurrence, never in quiet hours unless critical, never twice,
/// none lost).
struct SimulatedEventDaemon: ~Copyable {
    /// What the user does with a popup.
    enum Answer: String {
        case open, ok, remind, ignore, cancel, close
    }

    /// A popup the server took.
    struct Shown: CustomStringConvertible {
        /// The occurrence's id.
        var id: String
        var source: Int
        var name: String
        var occurrence: Instant
        var at: Instant

        var description: String { "\(name) due \(occurrence.rfc3339) at \(at.rfc3339)" }
    }

    static let locations = ["inotify", "news", "events"]

    private let scenario: EventScenario
    /// Each version's schedules, by source.
    private let versions: [[Schedule]]
    /// The schedules in force, by source.
    private var schedules: [Schedule]
    private var oracle: EventOracle
    // What the state database keeps.
    private var checks: [SourceState]
    private var news: [NewsState]
    private var handling = HandlingState()
    /// In the order they were stored, as the database's rows.
    private var storedWaiting: [WaitingPopup] = []
    // What a running daemon holds.
    private var running = true
    /// The running daemon's core.
    private var core: DaemonCore
    /// The popups on screen, unanswered, by occurrence id, as the user sees them: what the core
    /// holds (`DaemonCore.handling`) must match.
    private var onScreen: [String: (source: Int, entryID: String)] = [:]
    /// Answers to come, by when.
    private var answers: [(at: Instant, occurrenceID: String, answer: Answer)] = []
    private var serverBack: Instant?
    private var user: SplitMix64

    private(set) var chosen: [String: (source: Int, name: String, occurrence: Instant)] = [:]
    private(set) var shown: [Shown] = []
    private(set) var answered = 0
    private(set) var events = 0
    private(set) var failures: [String] = []

    init(_ scenario: EventScenario, versions: [[Schedule]]) {
        self.scenario = scenario
        self.versions = versions
        schedules = versions[0]
        oracle = EventOracle(scenario)
        checks = Array(repeating: SourceState(), count: schedules.count)
        news = Array(repeating: NewsState(), count: schedules.count)
        user = SplitMix64(seed: scenario.seed ^ 0x05E5_5107)
        core = Self.startedCore(scenario, schedules: versions[0], at: scenario.start)
    }

    /// A daemon's core at its start, with `schedules` loaded, as `Daemon.run()` makes it.
    private static func startedCore(_ scenario: EventScenario, schedules: [Schedule], at now: Instant) -> DaemonCore {
        var core = DaemonCore(
            following: OccurrencePlanner(
                sources: locations.map { .init(location: $0) }, now: now, userZone: scenario.zone,
                quietHours: scenario.quietHours))
        for (index, schedule) in schedules.enumerated() {
            _ = core.handle(.opened(FeedLoad(source: index, schedule: schedule, settled: [:])), at: now)
        }
        return core
    }

    /// Runs the month, then up to ten more days without happenings, for what waits to go out.
    mutating func run() {
        let end = scenario.start + scenario.length
        var now = scenario.start
        var happenings = scenario.happenings[...]
        var restartAt: Instant?
        sourceEvent(.session("session:start", countsAsRun: true), at: now)
        while failures.isEmpty {
            let nextHappening = happenings.first.map { scenario.start + $0.after }
            let candidates: [Instant?] = [
                nextHappening, running ? core.nextWakeUp : nil, answers.map(\.at).min(), restartAt,
                running ? serverBack : nil,
            ]
            // Past the month, only what still waits: a restart, the queue, the end of quiet hours.
            let draining = restartAt != nil || !core.waiting.items.isEmpty
            guard let next = candidates.compactMap({ $0 }).min(), next <= end + (draining ? .days(10) : .days(3))
            else { break }
            now = max(now, next)
            if let back = serverBack, back <= now {
                serverBack = nil
                if running { carryOut(core.handle(.serverAppeared, at: now), at: now) }
            }
            if let at = restartAt, at <= now {
                restartAt = nil
                running = true
                core = Self.startedCore(scenario, schedules: schedules, at: now)
                // `StateStore.waitingPopups()`: by occurrence, then in the order stored.
                let stored = storedWaiting.enumerated().sorted {
                    ($0.element.occurrence, $0.offset) < ($1.element.occurrence, $1.offset)
                }
                _ = core.handle(.waitingLoaded(stored.map(\.element)), at: now)
                sourceEvent(.session("session:start", countsAsRun: true), at: now)
                continue
            }
            if let index = answers.indices.first(where: { answers[$0].at <= now }) {
                let due = answers.remove(at: index)
                answer(due.occurrenceID, due.answer, at: now)
                continue
            }
            if let happening = happenings.first, scenario.start + happening.after <= now {
                happenings.removeFirst()
                happen(happening.happening, at: now, restartAt: &restartAt)
                continue
            }
            if running { carryOut(core.handle(.timerWoke(clockChanged: false), at: now), at: now) }
        }
        guard failures.isEmpty else { return }
        let shownIDs = Set(shown.map(\.id))
        for (id, choice) in chosen where !shownIDs.contains(id) {
            failures.append("\(choice.name) due \(choice.occurrence.rfc3339) was chosen and never shown")
        }
    }

    private mutating func happen(_ happening: EventScenario.Happening, at now: Instant, restartAt: inout Instant?) {
        switch happening {
        case .serverAbsent(let span):
            serverBack = max(serverBack ?? now, now + span)
            return
        case .feedChange(let version):
            // A running daemon reads it at once (a file monitor, a check); a stopped one at its start.
            changeFeeds(to: version, at: now)
            return
        default:
            break
        }
        // A daemon that is not running sees no session event, and `event` and `sync` fail.
        guard running else { return }
        switch happening {
        case .restart(let downtime):
            running = false
            // The session ends: its popups go with it, unanswered.
            onScreen = [:]
            answers = []
            restartAt = now + downtime
        case .resume: sourceEvent(.session("session:resume", countsAsRun: true), at: now)
        case .unlock: sourceEvent(.session("session:unlock", countsAsRun: false), at: now)
        case .posted(let name): sourceEvent(.posted(name), at: now)
        case .manualCheck: sourceEvent(.manualCheck, at: now)
        case .serverAbsent, .feedChange: break
        }
    }

    /// Puts a version of the feeds in force, as a check that found it does: the waiting popups look
    /// their entries up again, and a withdrawn entry's popup on screen is closed. A daemon that
    /// is not running reads them at its start.
    private mutating func changeFeeds(to version: Int, at now: Instant) {
        schedules = versions[version]
        oracle.feedsChanged(to: version)
        for index in Self.locations.indices {
            if running {
                let effects = core.handle(
                    .checked(FeedLoad(source: index, schedule: schedules[index], settled: [:])), at: now)
                carryOut(effects, at: now)
            }
            onScreen = onScreen.filter { popup in
                popup.value.source != index || schedules[index].entries.contains { $0.id == popup.value.entryID }
            }
        }
    }

    /// One event for every source, as `Daemon.choose(_:source:at:)` does, compared with the
    /// oracle; then what is ready goes out.
    private mutating func sourceEvent(_ event: SourceEvent, at now: Instant) {
        events += 1
        var contexts: [SourceContext] = []
        var expected: [[EventOracle.Choice]] = []
        if Set(core.handling.popups.keys) != Set(onScreen.keys) {
            failures.append(
                "on screen: the core holds \(core.handling.popups.keys.sorted()), the user sees \(onScreen.keys.sorted())"
            )
        }
        for index in schedules.indices {
            let location = Self.locations[index]
            let hasOnScreen = onScreen.values.contains { $0.source == index }
            contexts.append(
                SourceContext(
                    source: index,
                    memory: SourceMemory(check: checks[index], news: news[index], handling: handling[location]),
                    settings: scenario.iNotifySettings))
            let waitingNames = Set(
                core.waiting.items.filter { $0.popup.source == location }.map {
                    name(of: $0.popup.entryID, source: index)
                })
            switch (index, event) {
            case (0, .session), (0, .manualCheck):
                expected.append(
                    oracle.iNotifyCheck(
                        force: event == .manualCheck, hasPopup: hasOnScreen || !waitingNames.isEmpty, now: now))
            case (1, .session(let name, let countsAsRun)):
                expected.append(oracle.newsCycle(name, countsAsRun: countsAsRun, waiting: waitingNames, now: now))
            case (1, .posted(let name)):
                expected.append(oracle.newsCycle(name, countsAsRun: false, waiting: waitingNames, now: now))
            case (2, .session(let name, _)), (2, .posted(let name)):
                expected.append(oracle.eventEntries(name, waiting: waitingNames, now: now))
            default:
                expected.append([])
            }
        }
        let effects = core.handle(.sourceEvent(event, sources: contexts, urlHandlers: .everyScheme), at: now)
        for effect in effects {
            guard case .storeChoice(let index, let plan) = effect else { continue }
            let actual = plan.popups.map {
                EventOracle.Choice(name: name(of: $0.popup.entryID, source: index), occurrence: $0.popup.occurrence)
            }
            if actual != expected[index] {
                failures.append(
                    "\(event) at \(now.rfc3339) chose \(actual) of \(Self.locations[index]), the seeds say \(expected[index])"
                )
                return
            }
        }
        carryOut(effects, at: now)
    }

    /// Stores a source event's choice, as `Daemon.storeChoice(_:source:at:)` does, then hands
    /// the popups to the core.
    private mutating func storeChoice(_ plan: SourceEventPlan, source index: Int, at now: Instant) {
        let location = Self.locations[index]
        if let check = plan.check {
            checks[index] = check
            if plan.forgettingSeen {
                handling[location].viewed = []
                handling[location].ignored = []
            }
        } else if let state = plan.news {
            news[index] = state
        }
        for item in plan.popups {
            storedWaiting.append(item.popup)
            chosen[item.popup.occurrenceID] = (
                index, name(of: item.popup.entryID, source: index), item.popup.occurrence
            )
        }
        carryOut(core.handle(.popupsChosen(plan.popups), at: now), at: now)
    }

    /// Carries out the core's effects as `Daemon.carryOut(_:at:)` does: with no server, a
    /// waiting popup fails and the core holds the rest.
    private mutating func carryOut(_ effects: [DaemonEffect], at now: Instant) {
        for effect in effects {
            switch effect {
            case .showWaiting(let item):
                guard let entry = item.entry else {
                    failures.append("a waiting popup was sent out without its entry")
                    return
                }
                let result: ShowResult = serverBack == nil ? .shown : .failed
                if result == .shown { show(item.popup, entry, at: now) }
                carryOut(core.handle(.waitingShown(item, result), at: now), at: now)
            case .dropWaiting(let popup, _):
                let source = Self.locations.firstIndex(of: popup.source)!
                guard !schedules[source].entries.contains(where: { $0.id == popup.entryID }) else {
                    failures.append("a waiting popup was dropped though its entry is in the feed")
                    return
                }
                storedWaiting.removeAll { $0.occurrenceID == popup.occurrenceID }
                chosen[popup.occurrenceID] = nil
            case .show(let due):
                failures.append("\(due.entry.id) is timed: these feeds have none")
                return
            case .storeChoice(let index, let plan):
                storeChoice(plan, source: index, at: now)
            case .changeScreen(.close(let shown)):
                core.note(.popupGone(shown.id))
            case .changeScreen(.replace(let updated)):
                core.note(.popupShown(updated, replacing: nil))
            case .openURL(_, let outcome):
                carryOut(core.handle(.handling(.urlOpened(outcome, failure: nil)), at: now), at: now)
            case .storeHandling(let outcome):
                if let change = outcome.change { handling.apply(change, to: outcome.occurrence, at: now) }
            case .recordMissed, .follow, .takeOver, .takeOverPrompt, .takeSessionStart, .takeManualCheck, .pruneLedger,
                .answerCalls,
                .showTest, .restart, .startCheck, .saveHealth, .answerSync, .releaseFreedMemory, .log, .showPrompt,
                .closePopup:
                // Timed entries are the planner suite's; the sources here all have their feeds,
                // which change when the scenario says.
                break
            }
        }
    }

    private mutating func show(_ popup: WaitingPopup, _ entry: ScheduleEntry, at now: Instant) {
        let source = Self.locations.firstIndex(of: popup.source)!
        let id = popup.occurrenceID
        storedWaiting.removeAll { $0.occurrenceID == id }
        let record = Shown(
            id: id, source: source, name: name(of: entry.id, source: source), occurrence: popup.occurrence, at: now)
        if shown.contains(where: { $0.id == id }) { failures.append("\(record) shown twice") }
        if now < popup.occurrence { failures.append("\(record) came early") }
        if entry.content.urgency != .critical, isQuiet(now) { failures.append("\(record) in quiet hours") }
        shown.append(record)
        // One popup per entry: the entry's popup still on screen is replaced in place.
        onScreen = onScreen.filter { !($0.value.source == source && $0.value.entryID == entry.id) }
        onScreen[id] = (source, entry.id)
        let delivered = DeliveredOccurrence(
            id: id, entry: entry, source: popup.source, deliveredAt: now, due: popup.occurrence)
        core.note(.popupShown(delivered, replacing: core.handling.earlierOnScreen(delivered)?.id))
        let choices: [Answer?]
        switch source {
        case 0: choices = entry.content.action != nil ? [.open, .remind, .ignore, .close, nil] : [.ok, .close, nil]
        case 1: choices = entry.content.action != nil ? [.open, .cancel, .close, nil] : [.cancel, .close, nil]
        default: choices = [entry.content.action != nil ? .open : .ok, .ignore, .close, nil]
        }
        if let answer = choices.randomElement(using: &user)! {
            let delay = TimeSpan.seconds(Int64.random(in: 60...21_600, using: &user))
            answers.append((now + delay, id, answer))
        }
    }

    /// The user answers a popup still on screen; the core decides what that changes.
    private mutating func answer(_ id: String, _ answer: Answer, at now: Instant) {
        guard onScreen.removeValue(forKey: id) != nil else { return }
        guard let occurrence = core.handling.popups[id], let source = Self.locations.firstIndex(of: occurrence.source)
        else {
            failures.append("\(id) is on screen, and the core does not hold it")
            return
        }
        answered += 1
        let response: PopupResponse = answer == .close ? .closed(.dismissed) : .action(answer.rawValue)
        carryOut(core.handle(.handling(.answered(occurrence, .scheduled, response)), at: now), at: now)
        oracle.answered(answer, name: name(of: occurrence.entryID, source: source), source: source, now: now)
    }

    /// Whether `instant` is inside the scenario's quiet hours, read off the local clock.
    private func isQuiet(_ instant: Instant) -> Bool {
        guard let quietHours = scenario.quietHours else { return false }
        let local = scenario.zone.civil(at: instant)
        let minute = local.hour * 60 + local.minute
        return quietHours.description == "22:00-07:00"
            ? minute >= 22 * 60 || minute < 7 * 60 : (720..<810).contains(minute)
    }

    /// The name the oracle knows an entry by: an iSmartNews message's title, else its id.
    private func name(of entryID: String, source: Int) -> String {
        guard source == 1 else { return entryID }
        return schedules[source].entries.first { $0.id == entryID }?.content.title ?? entryID
    }
}
