import NotifySchedCore

/// Runs a `ConformanceScenario` through the real `OccurrencePlanner` in virtual time, as the
/// daemon's interpreter would: a state database that survives restarts, a notification server
/// that comes and goes and answers some popups up to its limit of 3 s late (the daemon's timer
/// goes on meanwhile), a wall clock that steps, a user who answers some popups. It records what
/// was shown, and the facts of the daemon's life the oracle needs (when it watched the clock, in
/// which zone, what the user answered when).
struct SimulatedDaemon {
    /// A popup the server took.
    struct Shown: Equatable, CustomStringConvertible {
        var entryID: String
        var occurrence: Instant
        /// The wall-clock instant it was shown at.
        var at: Instant
        /// Shown by a daemon that crashed before recording it.
        var unrecorded = false

        var description: String {
            "\(entryID) due \(occurrence.rfc3339) at \(at.rfc3339)\(unrecorded ? " (crash)" : "")"
        }
    }

    /// The user's answer to a popup on screen.
    struct Answer: CustomStringConvertible {
        enum Choice: String {
            case act, remind, ignore, close
        }

        var entryID: String
        /// The occurrence the popup showed.
        var occurrence: Instant
        var choice: Choice
        /// For a `remind`: a snooze of this length (`handle --snooze`) instead of the remind period.
        var snooze: TimeSpan?
        /// The wall-clock instant of the answer.
        var at: Instant
        /// How many popups (of any entry) were shown before it: its place in the daemon's life,
        /// which the wall clock does not tell once it stepped back.
        var shownBefore = 0

        /// What the user does to the popup for it: a button (a snooze's of its length), or its closing.
        var response: PopupResponse {
            switch choice {
            case .act: .action(UserChoice.ok.rawValue)
            case .remind: .action(snooze.map { Snooze.after($0).buttonKey } ?? UserChoice.remindLater.rawValue)
            case .ignore: .action(UserChoice.ignore.rawValue)
            case .close: .closed(.dismissed)
            }
        }

        /// When a `remind` brings the occurrence back, for a snooze.
        var remindUntil: Instant? { snooze.map { at + $0 } }

        var description: String {
            "\(choice)\(snooze.map { " for \($0.seconds) s" } ?? "") \(entryID) due \(occurrence.rfc3339) at \(at.rfc3339)"
        }
    }

    /// A span of wall-clock time in which one daemon watched the clock without a gap, in one zone,
    /// with one version of the feed.
    struct Segment: CustomStringConvertible {
        var start: Instant
        var end: Instant
        var zone: ZoneRules
        /// Which of `ConformanceScenario.feeds` was in force.
        var feedVersion: Int
        /// `PlanningContext.watchedSince`: the start, or an earlier start a zone change kept.
        var watchedFrom: Instant
        /// The wall-clock instants inside the segment at which the server went away or came back.
        var serverChanges: [(at: Instant, present: Bool)]
        var serverPresentAtStart: Bool
        /// Whether the segment ended with a crash in the middle of a popup.
        var endsInCrash = false
        /// What the user answered in the segment, in order.
        var answers: [Answer] = []

        var description: String {
            let changes = serverChanges.map { "\($0.present ? "back" : "gone") \($0.at.rfc3339)" }
            return "\(start.rfc3339) to \(end.rfc3339) in \(zone.identifier), feed \(feedVersion), "
                + "watched from \(watchedFrom.rfc3339)"
                + "\(endsInCrash ? ", crash" : ""), server \(serverPresentAtStart ? "there" : "away") \(changes)"
        }
    }

    /// What the state database keeps (`StateStore.settledThrough`, `follow`, `entryAnswers`).
    private struct Store {
        var recorded: [String: Instant] = [:]
        /// Each batch of entries followed together, with their positions then, as the state
        /// database keeps them.
        var followed: [(entries: [FollowedEntry], since: Instant)] = []
        var answers: [String: EntryAnswer] = [:]

        func settled() -> StoredSettledInstants {
            var settled = StoredSettledInstants()
            for batch in followed { settled.addFollowed(batch.entries, since: batch.since) }
            for (id, occurrence) in recorded { settled.addRecorded(id: id, occurrence: occurrence) }
            return settled
        }
    }

    private(set) var shown: [Shown] = []
    private(set) var missed: [(entryID: String, occurrence: Instant)] = []
    private(set) var segments: [Segment] = []
    private(set) var crashes = 0
    /// How many times the core was handed an event: a bound on the work, and a figure to report.
    private(set) var steps = 0
    /// How many timer events the core was handed while the server's answers were still to come.
    private(set) var timerEventsBeforeAnswers = 0

    /// The schedule of each version of the feed.
    let schedules: [Schedule]
    private let scenario: ConformanceScenario

    init(_ scenario: ConformanceScenario, schedules: [Schedule]) {
        self.scenario = scenario
        self.schedules = schedules
    }

    /// Runs the scenario to its end.
    mutating func run() throws(SimulationError) {
        var store = Store()
        var zone = scenario.zone
        var feedVersion = 0
        var offset = TimeSpan.zero
        var serverBack: TimeSpan?
        var trueTime = TimeSpan.zero
        var pending = scenario.disruptions[...]
        let source = OccurrencePlanner.Source(
            location: "feed", applicationVersion: scenario.applicationVersion, remindPeriod: scenario.remindPeriod)
        // The user: answers half the popups, within four hours, as long as they are on screen.
        var user = SplitMix64(seed: scenario.seed ^ 0xA115_0E75)
        var answers: [String: (due: TimeSpan, answer: Answer)] = [:]
        // The server's answers still to come, and when: the timer's events on time may come
        // first; any other event waits for them, as the daemon does.
        var server = SplitMix64(seed: scenario.seed ^ 0x5E_4BE4)
        var answersToCome: [(due: DueOccurrence, popup: Shown, arrives: TimeSpan)] = []
        func recordShown(_ popup: Shown) {
            store.recorded[popup.entryID] = max(store.recorded[popup.entryID] ?? popup.occurrence, popup.occurrence)
            if case .remind? = store.answers[popup.entryID] { store.answers[popup.entryID] = nil }
        }
        func wall() -> Instant { scenario.start + trueTime + offset }
        func serverPresent() -> Bool { serverBack.map { trueTime >= $0 } ?? true }
        func newSegment(watchedFrom: Instant? = nil) -> Segment {
            Segment(
                start: wall(), end: wall(), zone: zone, feedVersion: feedVersion, watchedFrom: watchedFrom ?? wall(),
                serverChanges: [], serverPresentAtStart: serverPresent())
        }

        while trueTime < scenario.length {
            // One daemon's life: from its start to a restart, a crash or the end.
            var core = DaemonCore(
                following: OccurrencePlanner(
                    sources: [source], now: wall(), userZone: zone, quietHours: scenario.quietHours))
            var segment = newSegment()
            var effects = core.handle(
                .opened(
                    FeedLoad(
                        source: 0, schedule: schedules[feedVersion], settled: store.settled(), answers: store.answers)),
                at: wall())
            // The popups of the previous daemon are gone, and with them the answers to come.
            answers = [:]
            // A crash to come, with the downtime after it: it strikes in the middle of a popup.
            var crash: TimeSpan?
            var downtime: TimeSpan?
            while downtime == nil {
                steps += 1
                guard steps < 2_000_000 else { throw SimulationError("no end in sight after \(steps) steps") }
                var position = 0
                while position < effects.count {
                    let effect = effects[position]
                    position += 1
                    switch effect {
                    case .showWaiting, .dropWaiting, .storeChoice, .changeScreen, .takeOver, .takeOverPrompt,
                        .takeSessionStart,
                        .takeManualCheck, .pruneLedger, .answerCalls, .showTest, .restart, .startCheck, .saveHealth,
                        .answerSync, .showPrompt, .openURL, .closePopup, .storeHandling,
                        .releaseFreedMemory, .log:
                        // Waiting popups, session starts and calls are the event suite's; the
                        // screen, the ledger's age and the feed's checks (the feed changes when
                        // the scenario says) are not what this suite checks.
                        break
                    case .follow(_, let entries, let since):
                        store.followed.append((entries, since))
                    case .recordMissed(_, let entryID, let occurrence):
                        store.recorded[entryID] = max(store.recorded[entryID] ?? occurrence, occurrence)
                        missed.append((entryID, occurrence))
                    case .show(let due):
                        guard downtime == nil else { break }
                        guard serverPresent() else {
                            effects.insert(contentsOf: core.handle(.shown(due, .failed), at: wall()), at: position)
                            break
                        }
                        let popup = Shown(
                            entryID: due.entry.id, occurrence: due.occurrence, at: wall(), unrecorded: crash != nil)
                        shown.append(popup)
                        if let crashDowntime = crash {
                            // Shown, and the daemon dies before the ledger has it: the rest is lost.
                            crashes += 1
                            segment.endsInCrash = true
                            downtime = crashDowntime
                            break
                        }
                        if crash == nil, Int.random(in: 0..<3, using: &server) == 0 {
                            // Before the entry's next occurrence, which the planner arms on the
                            // answer: the oracle knows no server that slow.
                            let following = due.entry.trigger.occurrences(
                                onOrAfter: wall().nextMicrosecond, limit: 1, userZone: zone
                            ).first
                            let delay = min(
                                TimeSpan(microseconds: Int64.random(in: 0...3_000_000, using: &server)),
                                following.map { $0 - wall() - TimeSpan(microseconds: 1) } ?? .seconds(3))
                            answersToCome.append((due, popup, trueTime + delay))
                        } else {
                            recordShown(popup)
                            effects.insert(contentsOf: core.handle(.shown(due, .shown), at: wall()), at: position)
                        }
                        // It replaces the entry's popup on screen, whose answer will not come.
                        answers[popup.entryID] = nil
                        if Bool.random(using: &user) {
                            let choice = [Answer.Choice.act, .act, .remind, .remind, .remind, .ignore, .close, .close]
                                .randomElement(using: &user)!
                            let delay = TimeSpan(
                                microseconds: Int64.random(in: 1_000_000...14_400_000_000, using: &user))
                            // Half the reminders are snoozes of their own length.
                            let snooze: TimeSpan? =
                                choice == .remind && Bool.random(using: &user)
                                ? [.minutes(1), .minutes(10), .hours(1), .hours(9), .days(1)].randomElement(
                                    using: &user)
                                : nil
                            answers[popup.entryID] = (
                                trueTime + delay,
                                Answer(
                                    entryID: popup.entryID, occurrence: popup.occurrence, choice: choice,
                                    snooze: snooze, at: wall())
                            )
                        }
                    }
                    if downtime != nil { break }
                }
                effects = []
                guard downtime == nil else { break }
                // What comes next: the planner's deadline, a disruption, the server's return, the end.
                let deadline = core.nextWakeUp.map { max($0 - scenario.start - offset, trueTime) }
                let disruption = pending.first?.after
                let back = serverBack.flatMap { $0 > trueTime ? $0 : nil }
                let answer = answers.values.min { $0.due < $1.due }
                let next = [deadline, disruption, back, answer?.due, scenario.length].compactMap { $0 }.min()!
                let onTimeTimer = next != scenario.length && next != disruption && next != back && next != answer?.due
                if let arrival = answersToCome.map(\.arrives).min(), arrival <= next || !onTimeTimer {
                    // The server's answers come in, each an event of its own.
                    trueTime = max(trueTime, min(arrival, next))
                    for (due, popup, _) in answersToCome {
                        recordShown(popup)
                        effects += core.handle(.shown(due, .shown), at: wall())
                    }
                    answersToCome = []
                    continue
                }
                if onTimeTimer, !answersToCome.isEmpty { timerEventsBeforeAnswers += 1 }
                trueTime = next
                if next == scenario.length {
                    downtime = .zero
                } else if next == disruption {
                    switch pending.removeFirst().disruption {
                    case .restart(let span, crash: true):
                        crash = span
                    case .restart(let span, crash: false):
                        downtime = span
                    case .clockStep(let step):
                        segment.end = wall()
                        segments.append(segment)
                        offset = offset + step
                        segment = newSegment()
                        effects = core.handle(.timerWoke(clockChanged: true), at: wall())
                    case .zoneChange(let newZone):
                        segment.end = wall()
                        segments.append(segment)
                        zone = newZone
                        segment = newSegment(watchedFrom: segment.watchedFrom)
                        effects = core.handle(.zoneChanged(zone), at: wall())
                    case .serverAbsent(let span):
                        if serverPresent() { segment.serverChanges.append((wall(), false)) }
                        serverBack = max(serverBack ?? .zero, trueTime + span)
                        // The popups went with the server.
                        answers = [:]
                    case .feedChange(let version):
                        segment.end = wall()
                        segments.append(segment)
                        feedVersion = version
                        segment = newSegment(watchedFrom: segment.watchedFrom)
                        effects = core.handle(
                            .checked(
                                FeedLoad(
                                    source: 0, schedule: schedules[version], settled: store.settled(),
                                    answers: store.answers)),
                            at: wall())
                        // A withdrawn entry's popup is closed: its answer will not come.
                        let kept = Set(schedules[version].entries.map(\.id))
                        answers = answers.filter { kept.contains($0.key) }
                    }
                } else if next == back {
                    serverBack = nil
                    segment.serverChanges.append((wall(), true))
                    effects = core.handle(.serverAppeared, at: wall())
                } else if let pending = answer, next == pending.due {
                    var answer = pending.answer
                    answers[answer.entryID] = nil
                    answer.at = wall()
                    answer.shownBefore = shown.count
                    segment.answers.append(answer)
                    switch answer.choice {
                    case .remind where store.answers[answer.entryID] != .ignored:
                        store.answers[answer.entryID] = .remind(
                            occurrence: answer.occurrence, Reminder(requestedAt: answer.at, until: answer.remindUntil))
                    case .ignore: store.answers[answer.entryID] = .ignored
                    case .act where store.answers[answer.entryID] != .ignored: store.answers[answer.entryID] = nil
                    default: break
                    }
                    if let entry = schedules[feedVersion].entries.first(where: { $0.id == answer.entryID }) {
                        let delivered = DeliveredOccurrence(
                            id: answer.entryID, entry: entry, source: "feed", deliveredAt: answer.at,
                            due: answer.occurrence)
                        effects = core.handle(
                            .handling(.answered(delivered, .scheduled, answer.response)), at: answer.at)
                    }
                } else {
                    effects = core.handle(.timerWoke(clockChanged: false), at: wall())
                }
            }
            segment.end = wall()
            segments.append(segment)
            trueTime = min(trueTime + (downtime ?? .zero), scenario.length)
            // The world goes on while the daemon is down: its clock steps, its zone changes, the
            // server comes and goes; a restart of a daemon that is not running is no event.
            while let (after, happening) = pending.first, after <= trueTime {
                pending.removeFirst()
                switch happening {
                case .clockStep(let step): offset = offset + step
                case .zoneChange(let newZone): zone = newZone
                case .serverAbsent(let span): serverBack = max(serverBack ?? .zero, after + span)
                case .feedChange(let version): feedVersion = version
                case .restart: break
                }
            }
            if let back = serverBack, back <= trueTime { serverBack = nil }
        }
    }
}

/// The simulation could not go on.
struct SimulationError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
