import NotifySchedControl
import NotifySchedCore
import NotifySchedDaemon
import NotifySchedTesting

/// Runs an `EventScenario` through the real driver (`EmbeddedDaemon`) in virtual time: its
/// three feeds as files, the session's events handed to the driver as its host would (a
/// resume, an unlock), `event` and `sync` as control calls, the feeds edited, the daemon
/// stopped or killed and started again on the same state, a server that goes away. Each of the
/// core's source events is seen as it is decided (`DaemonPorts.decisions`) and its choice
/// compared with the `EventOracle`'s, told the same facts; every popup the server takes is
/// checked against the rules of delivery (never before its occurrence, never in quiet hours
/// unless critical, never twice, none lost). The user answers the popups on screen, those a
/// new daemon took over included, on the popup itself or through `handle`'s prompt.
final class EmbeddedEventRun: DecisionObserver {
    typealias Answer = EventOracle.Answer

    /// A popup of an occurrence the server took.
    struct Shown: CustomStringConvertible {
        var id: String
        var name: String
        var occurrence: Instant
        var at: Instant

        var description: String { "\(name) due \(occurrence.rfc3339) at \(at.rfc3339)" }
    }

    /// An answer the user will give to a popup on screen.
    private struct PendingAnswer {
        var at: Instant
        var key: PopupKey
        /// nil: ask with `handle` first, and answer its prompt.
        var answer: Answer?
    }

    /// The feeds' files, by source: iNotify, iSmartNews, the portal's event-driven entries.
    static let feedNames = ["inotify.json", "news.json", "events.json"]

    private let scenario: EventScenario
    /// Each version's schedules, by source, as the test parsed them.
    private let versions: [[Schedule]]
    /// The version of the feeds in force.
    private var version = 0
    private var oracle: EventOracle
    private var daemon: EmbeddedDaemon?
    private var answers: [PendingAnswer] = []
    private var serverBack: Instant?
    private var user: SplitMix64
    /// How many of the desktop's popups were looked at.
    private var seen = 0

    private(set) var chosen: [String: (source: Int, name: String, occurrence: Instant)] = [:]
    private(set) var shown: [Shown] = []
    private(set) var answered = 0
    private(set) var prompted = 0
    private(set) var events = 0
    private(set) var kills = 0
    private(set) var failures: [String] = []
    /// What the drivers logged, a line each.
    private(set) var log: [String] = []

    init(_ scenario: EventScenario, versions: [[Schedule]]) {
        self.scenario = scenario
        self.versions = versions
        oracle = EventOracle(scenario)
        user = SplitMix64(seed: scenario.seed ^ 0x05E5_5107)
    }

    /// Runs the month, then up to ten more days without happenings, for what waits to go out.
    func run() throws {
        let scenario = scenario
        let daemon = try EmbeddedDaemon(
            feeds: zip(Self.feedNames, scenario.versions[0].json).map { ($0, $1) }, at: scenario.start,
            zone: scenario.zone.identifier, decisions: self
        ) { configuration in
            configuration.quietHours = scenario.quietHours
            for index in configuration.sources.indices {
                configuration.sources[index].settings.iNotify = scenario.iNotifySettings
                // The feeds change when the scenario edits them, not at their checks.
                configuration.sources[index].settings.fetchPeriod = .days(400)
            }
        }
        self.daemon = daemon
        defer {
            log = daemon.log
            self.daemon = nil
        }
        let end = scenario.start + scenario.length
        var happenings = scenario.happenings[...]
        var restartAt: Instant?
        lookAtTheScreen(daemon)
        while failures.isEmpty {
            let nextHappening = happenings.first.map { scenario.start + $0.after }
            let candidates: [Instant?] = [
                nextHappening, daemon.running ? daemon.timer.deadline : nil, answers.map(\.at).min(), restartAt,
                serverBack,
            ]
            // Past the month, only what still waits: a restart, the queue, the end of quiet hours.
            let draining = restartAt != nil || !daemon.driver.core.waiting.items.isEmpty
            guard let next = candidates.compactMap({ $0 }).min(), next <= end + (draining ? .days(10) : .days(3))
            else { break }
            if next > daemon.clock.now { daemon.clock.set(next) }
            let now = daemon.clock.now
            if let back = serverBack, back <= now {
                serverBack = nil
                daemon.desktop.serverComes()
                // The popups show there again, and the user may answer them.
                for key in daemon.desktop.waitingKeys where key.role == .scheduled {
                    if let shown = daemon.desktop.shown.last(where: { $0.popup.key == key }) {
                        drawAnswer(to: shown.popup, at: now)
                    }
                }
            } else if let at = restartAt, at <= now {
                restartAt = nil
                try daemon.start()
            } else if let index = answers.indices.first(where: { answers[$0].at <= now }) {
                try answer(answers.remove(at: index), daemon, at: now)
            } else if let happening = happenings.first, scenario.start + happening.after <= now {
                happenings.removeFirst()
                try happen(happening.happening, daemon, at: now, restartAt: &restartAt)
            } else {
                daemon.fireTimer()
            }
            lookAtTheScreen(daemon)
        }
        guard failures.isEmpty else { return }
        let shownIDs = Set(shown.map(\.id))
        for (id, choice) in chosen where !shownIDs.contains(id) {
            failures.append("\(choice.name) due \(choice.occurrence.rfc3339) was chosen and never shown")
        }
    }

    private func happen(
        _ happening: EventScenario.Happening, _ daemon: EmbeddedDaemon, at now: Instant, restartAt: inout Instant?
    ) throws {
        switch happening {
        case .serverAbsent(let span):
            serverBack = max(serverBack ?? now, now + span)
            if daemon.desktop.server != nil { daemon.desktop.serverGoes() }
            // The popups went with the server, and their answers.
            answers = []
            return
        case .feedChange(let version):
            // A running daemon reads it at once (a file monitor); a stopped one at its start.
            let old = scenario.versions[self.version].json
            self.version = version
            oracle.feedsChanged(to: version)
            for (index, json) in scenario.versions[version].json.enumerated() where json != old[index] {
                if daemon.running {
                    try daemon.edit(Self.feedNames[index], to: json)
                } else {
                    try daemon.write(Self.feedNames[index], json)
                }
            }
            return
        default:
            break
        }
        // A daemon that is not running sees no session event, and `event` and `sync` fail.
        guard daemon.running else { return }
        switch happening {
        case .restart(let downtime):
            // Half the stops are kill -9; either way the popups stay on screen, unheard, until a
            // new daemon takes them over.
            if Bool.random(using: &user) {
                kills += 1
                daemon.kill()
            } else {
                daemon.stop()
            }
            answers = []
            restartAt = now + downtime
        case .resume: daemon.resume()
        case .unlock: daemon.unlock()
        case .posted(let name): try daemon.call(.postEvent(name: name))
        case .manualCheck: try daemon.call(.sync)
        case .serverAbsent, .feedChange: break
        }
    }

    /// The oracle's choices for the source event being decided, by source.
    private var expected: (event: SourceEvent, at: Instant, choices: [Int: [EventOracle.Choice]])?

    func deciding(_ event: DaemonEvent, at now: Instant, core: borrowing DaemonCore) {
        guard failures.isEmpty, case .sourceEvent(let event, let contexts, _) = event else { return }
        events += 1
        if let desktop = daemon?.desktop {
            let seen = Set(desktop.waitingKeys.filter { $0.role == .scheduled }.map(\.occurrenceID))
            if Set(core.handling.popups.keys) != seen {
                failures.append(
                    "on screen: the core holds \(core.handling.popups.keys.sorted()), the user sees \(seen.sorted())")
                return
            }
        }
        var choices: [Int: [EventOracle.Choice]] = [:]
        for index in contexts.map(\.source) {
            let location = core.planner.location(of: index)
            let waiting = Set(
                core.waiting.items.filter { $0.popup.source == location }.map {
                    name(of: $0.popup.entryID, source: index)
                })
            switch (index, event) {
            case (0, .session), (0, .manualCheck):
                choices[index] = oracle.iNotifyCheck(
                    force: event == .manualCheck,
                    hasPopup: core.handling.hasPopup(of: location) || !waiting.isEmpty, now: now)
            case (1, .session(let name, let countsAsRun)):
                choices[index] = oracle.newsCycle(name, countsAsRun: countsAsRun, waiting: waiting, now: now)
            case (1, .posted(let name)):
                choices[index] = oracle.newsCycle(name, countsAsRun: false, waiting: waiting, now: now)
            case (2, .session(let name, _)), (2, .posted(let name)):
                choices[index] = oracle.eventEntries(name, waiting: waiting, now: now)
            default:
                choices[index] = []
            }
        }
        expected = (event, now, choices)
    }

    /// Compares what a source event chose for each source with what the oracle said, from the
    /// facts the core had before (what was on screen, which must be what the user sees, and
    /// what waited); notes the waiting popups dropped.
    func decided(_ effects: [DaemonEffect]) {
        guard failures.isEmpty else { return }
        if let (event, now, choices) = expected.take() {
            for (index, expected) in choices.sorted(by: { $0.key < $1.key }) {
                let plan = effects.lazy.compactMap { effect -> SourceEventPlan? in
                    guard case .storeChoice(index, let plan) = effect else { return nil }
                    return plan
                }.first
                let actual = (plan?.popups ?? []).map {
                    EventOracle.Choice(name: name(of: $0.popup.entryID, source: index), occurrence: $0.popup.occurrence)
                }
                guard actual == expected else {
                    failures.append(
                        "\(event) at \(now.rfc3339) chose \(actual) of \(Self.feedNames[index]), the seeds say \(expected)"
                    )
                    return
                }
                for item in plan?.popups ?? [] {
                    chosen[item.popup.occurrenceID] = (
                        index, name(of: item.popup.entryID, source: index), item.popup.occurrence
                    )
                }
            }
        }
        for effect in effects {
            guard case .dropWaiting(let popup, _) = effect, let index = source(of: popup.source) else { continue }
            guard !versions[version][index].entries.contains(where: { $0.id == popup.entryID }) else {
                failures.append("a waiting popup of \(popup.entryID) was dropped though its entry is in the feed")
                return
            }
            chosen[popup.occurrenceID] = nil
        }
    }

    /// Takes the popups the server took since the last look: checks each delivery, and draws
    /// the user's answers.
    private func lookAtTheScreen(_ daemon: EmbeddedDaemon) {
        let new = daemon.desktop.shown[seen...]
        seen = daemon.desktop.shown.count
        for shownPopup in new where failures.isEmpty {
            let popup = shownPopup.popup
            let id = popup.occurrenceID
            if popup.role == .scheduled, shownPopup.isDelivery {
                guard let choice = chosen[id] else {
                    failures.append("\(popup.summary) (\(id)) was shown at \(shownPopup.at.rfc3339), never chosen")
                    return
                }
                let record = Shown(
                    id: id, name: choice.name, occurrence: choice.occurrence, at: shownPopup.at)
                if shown.contains(where: { $0.id == id }) { failures.append("\(record) shown twice") }
                if record.at < record.occurrence { failures.append("\(record) came early") }
                if popup.urgency != .critical, isQuiet(record.at) { failures.append("\(record) in quiet hours") }
                shown.append(record)
            }
            drawAnswer(to: popup, at: shownPopup.at)
        }
    }

    /// Draws what the user will do with `popup`, if anything: a button of its, a close, or (for
    /// a scheduled popup) `handle` and an answer to its prompt.
    private func drawAnswer(to popup: Popup, at now: Instant) {
        let key = popup.key
        guard let source = occurrence(of: key).flatMap({ source(of: $0.source) }) else { return }
        let buttons = Set(popup.buttons.map(\.key))
        let kinds: [Answer] =
            switch source {
            case 0: [.open, .ok, .remind, .ignore]
            case 1: [.open, .cancel]
            default: [.open, .ok, .ignore]
            }
        var choices: [Answer?] = kinds.filter { buttons.contains($0.rawValue) } + [.close]
        if key.role == .scheduled { choices.append(nil) }
        let delay = TimeSpan.seconds(Int64.random(in: 60...21_600, using: &user))
        switch Int.random(in: 0..<8, using: &user) {
        case 0: return
        case 1 where key.role == .scheduled:
            answers.append(PendingAnswer(at: now + delay, key: key, answer: nil))
        default:
            if let answer = choices.randomElement(using: &user)! {
                answers.append(PendingAnswer(at: now + delay, key: key, answer: answer))
            }
        }
    }

    /// The user answers a popup still on screen, or asks about it with `handle`; the core
    /// decides what that changes, and the oracle is told what was answered.
    private func answer(_ pending: PendingAnswer, _ daemon: EmbeddedDaemon, at now: Instant) throws {
        guard daemon.desktop.waitingKeys.contains(pending.key) else { return }
        guard let occurrence = occurrence(of: pending.key), let source = source(of: occurrence.source) else {
            failures.append("\(pending.key) is on screen, and the core does not hold it")
            return
        }
        guard let answer = pending.answer else {
            prompted += 1
            try daemon.call(.handle(occurrenceID: occurrence.id, showAlert: true))
            return
        }
        answered += 1
        daemon.answer(pending.key, answer == .close ? .closed(.dismissed) : .action(answer.rawValue))
        oracle.answered(answer, name: name(of: occurrence.entryID, source: source), source: source, now: now)
    }

    /// The occurrence of a popup or a prompt on screen, as the core holds it.
    private func occurrence(of key: PopupKey) -> DeliveredOccurrence? {
        guard let handling = daemon?.driver.core.handling else { return nil }
        return key.role == .scheduled ? handling.popups[key.occurrenceID] : handling.prompts[key.occurrenceID]
    }

    /// The index of the source whose feed is at `location`.
    private func source(of location: String) -> Int? {
        Self.feedNames.firstIndex { location.hasSuffix("/" + $0) }
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
        return versions[version][source].entries.first { $0.id == entryID }?.content.title ?? entryID
    }
}
