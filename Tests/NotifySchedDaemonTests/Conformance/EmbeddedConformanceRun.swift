import NotifySchedCore
import NotifySchedDaemon
import NotifySchedStore
import NotifySchedTesting

/// Runs a `ConformanceScenario` through the real daemon driver (`EmbeddedDaemon`) in virtual
/// time: its state database, which survives restarts and kills, a notification server that
/// comes and goes and answers some popups up to its limit of 3 s late (the daemon's timer goes
/// on meanwhile), a wall clock that steps, the system's zone changing, the feed file edited, a
/// user who answers some popups. It records what was shown, and the facts of the daemon's life
/// the oracle needs (when it watched the clock, in which zone, what the user answered when).
final class EmbeddedConformanceRun {
    /// A popup the server took.
    struct Shown: Equatable, CustomStringConvertible {
        var entryID: String
        var occurrence: Instant
        /// The wall-clock instant it was shown at.
        var at: Instant
        /// Shown by a daemon that crashed before recording it.
        var unrecorded = false
        /// Which of `ConformanceScenario.feeds` was in force.
        var feedVersion = 0
        /// Its place among every popup the server took (`RecordingDesktop.shown`).
        var place = 0
        /// Not a popup: an occurrence a cap held back (`Suppressed`), where the schedule says one.
        var suppressed = false

        /// The same popup: the same occurrence shown at the same instant (the oracle knows
        /// nothing of versions and places).
        static func == (lhs: Shown, rhs: Shown) -> Bool {
            (lhs.entryID, lhs.occurrence, lhs.at, lhs.unrecorded) == (
                rhs.entryID, rhs.occurrence, rhs.at, rhs.unrecorded
            )
        }

        var description: String {
            "\(entryID) due \(occurrence.rfc3339) \(suppressed ? "suppressed" : "") at \(at.rfc3339)"
                + (unrecorded ? " (crash)" : "")
        }

        /// Whether it is what the oracle expected (`expected`): the same, or for a suppression,
        /// the same occurrence decided no later than the popup was expected, or up to
        /// `answerDelay` later, when it waited for the server's answers to the popups in flight.
        /// A suppression needs no notification server: it comes while none is there, when the
        /// popup would wait for one; an entry due at once is then due when it is suppressed.
        func stands(for expected: Shown) -> Bool {
            guard suppressed else { return self == expected }
            let atOnce = occurrence == at && expected.occurrence == expected.at
            return entryID == expected.entryID && (occurrence == expected.occurrence || atOnce)
                && at - expected.at <= EmbeddedConformanceRun.answerDelay
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
        /// The popup's occurrence id, which names it.
        var occurrenceID = ""
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

    /// An occurrence a cap held back, as the core decided it.
    struct Suppressed: CustomStringConvertible {
        var entryID: String
        var occurrence: Instant
        /// The wall-clock instant it was decided at.
        var at: Instant
        var reason: Suppression
        /// Which of `ConformanceScenario.feeds` was in force.
        var feedVersion: Int
        /// How many popups the server had taken when it was decided (`Shown.place`).
        var shownBefore: Int

        var description: String {
            "\(entryID) due \(occurrence.rfc3339) suppressed at \(at.rfc3339): \(reason.words)"
        }
    }

    /// Sees each suppression the core decides, with how many popups went out before it.
    private final class SuppressionTrace: DecisionObserver {
        var suppressed: [Suppressed] = []
        var feedVersion = 0
        weak var desktop: RecordingDesktop?

        func deciding(_ event: DaemonEvent, at instant: Instant, core: borrowing DaemonCore) {}

        func decided(_ effects: [DaemonEffect]) {
            for case .recordSuppressed(let record) in effects {
                guard let reason = record.suppression else { continue }
                suppressed.append(
                    Suppressed(
                        entryID: record.entryID, occurrence: record.occurrence, at: record.recordedAt, reason: reason,
                        feedVersion: feedVersion, shownBefore: desktop?.shown.count ?? 0))
            }
        }
    }

    /// The longest the server takes to answer.
    static let answerDelay = TimeSpan.seconds(3)

    private(set) var shown: [Shown] = []
    /// The occurrences the caps held back, in the order decided.
    var suppressed: [Suppressed] { trace.suppressed }
    private let trace = SuppressionTrace()
    private(set) var segments: [Segment] = []
    private(set) var crashes = 0
    /// How many events the driver was handed: a bound on the work, and a figure to report.
    private(set) var steps = 0
    /// How many timer events the driver was handed while the server's answers were still to come.
    private(set) var timerEventsBeforeAnswers = 0

    /// The schedule of each version of the feed.
    let schedules: [Schedule]
    private let scenario: ConformanceScenario
    /// The occurrence each popup shows, by its occurrence id, as the driver said it on screen.
    private var occurrences: [String: Instant] = [:]

    init(_ scenario: ConformanceScenario, schedules: [Schedule]) {
        self.scenario = scenario
        self.schedules = schedules
    }

    /// Runs the scenario to its end.
    func run() throws {
        var zone = scenario.zone
        var feedVersion = 0
        var offset = TimeSpan.zero
        var serverBack: TimeSpan?
        var trueTime = TimeSpan.zero
        var pending = scenario.disruptions[...]
        // The user: answers half the popups, within four hours, as long as they are on screen.
        var user = SplitMix64(seed: scenario.seed ^ 0xA115_0E75)
        var answers: [String: (due: TimeSpan, answer: Answer, key: PopupKey)] = [:]
        // When the server's answers held now come in: the timer's events on time may come
        // first; any other event takes them first, as the daemon does.
        var server = SplitMix64(seed: scenario.seed ^ 0x5E_4BE4)
        var answersArrive: TimeSpan?
        func wall() -> Instant { scenario.start + trueTime + offset }
        func serverPresent() -> Bool { serverBack == nil }
        func newSegment(watchedFrom: Instant? = nil) -> Segment {
            Segment(
                start: wall(), end: wall(), zone: zone, feedVersion: feedVersion, watchedFrom: watchedFrom ?? wall(),
                serverChanges: [], serverPresentAtStart: serverPresent())
        }
        let scenario = scenario
        let daemon = try EmbeddedDaemon(
            feeds: [("feed", scenario.feeds[0])], at: scenario.start, zone: zone.identifier, decisions: trace
        ) {
            $0.extraSchemes = ["zbimdb"]
            $0.quietHours = scenario.quietHours
            $0.sources[0].settings.iNotify.remindPeriod = scenario.remindPeriod
            $0.sources[0].settings.iNotify.applicationVersion = scenario.applicationVersion
            // The feed changes when the scenario edits it, not at its checks.
            $0.sources[0].settings.fetchPeriod = .days(400)
            $0.maxPopups = scenario.maxPopups
            $0.tags = ConformanceScenario.tags
        }
        let desktop = daemon.desktop
        trace.desktop = desktop
        let source = daemon.path(of: "feed")
        var seen = 0
        var unresolved: [(place: Int, id: String, entryID: String, zone: ZoneRules)] = []
        /// Takes the popups the server took since the last look, and draws the user's answers.
        func lookAtTheScreen() {
            for occurrence in daemon.driver.core.handling.onScreen(.scheduled) {
                occurrences[occurrence.id] = occurrence.due
            }
            let new = desktop.shown.enumerated().dropFirst(seen).filter {
                $0.element.popup.role == .scheduled && $0.element.isDelivery
            }
            seen = desktop.shown.count
            for (index, (place, popup)) in new.enumerated() {
                let entryID = entryID(of: popup.popup)
                let atCrash = desktop.crashed && index == new.count - 1
                // Which occurrence it shows is known once the driver hears the server took it.
                let occurrence = occurrences[popup.popup.occurrenceID] ?? popup.at
                if occurrences[popup.popup.occurrenceID] == nil {
                    unresolved.append((shown.count, popup.popup.occurrenceID, entryID, zone))
                }
                shown.append(
                    Shown(
                        entryID: entryID, occurrence: occurrence, at: popup.at, unrecorded: atCrash,
                        feedVersion: feedVersion, place: place))
                // It replaces the entry's popup on screen, whose answer will not come.
                answers[entryID] = nil
                guard !atCrash, Bool.random(using: &user) else { continue }
                let choice = [Answer.Choice.act, .act, .remind, .remind, .remind, .ignore, .close, .close]
                    .randomElement(using: &user)!
                let delay = TimeSpan(microseconds: Int64.random(in: 1_000_000...14_400_000_000, using: &user))
                // Half the reminders are snoozes of their own length.
                let snooze: TimeSpan? =
                    choice == .remind && Bool.random(using: &user)
                    ? [.minutes(1), .minutes(10), .hours(1), .hours(9), .days(1)].randomElement(using: &user) : nil
                answers[entryID] = (
                    trueTime + delay,
                    Answer(
                        entryID: entryID, occurrence: occurrence, occurrenceID: popup.popup.occurrenceID,
                        choice: choice, snooze: snooze, at: popup.at),
                    popup.popup.key
                )
            }
            guard desktop.hasHeldAnswers else {
                answersArrive = nil
                return
            }
            guard answersArrive == nil else { return }
            // The server answers once the calls reached it: at the due time they were held for.
            let sent = new.map(\.element.at).max() ?? wall()
            if sent > wall() { trueTime = sent - scenario.start - offset }
            // A third of the server's answers come late, up to 3 s, and before the next
            // occurrence of the entries they show, which the planner arms on the answer: the
            // oracle knows no server that slow.
            guard Int.random(in: 0..<3, using: &server) == 0 else {
                daemon.clock.set(wall())
                desktop.giveAnswers()
                return lookAtTheScreen()
            }
            let following = new.compactMap { _, popup -> Instant? in
                let entry = schedules[feedVersion].entries.first { $0.id == entryID(of: popup.popup) }
                return entry?.trigger.occurrences(onOrAfter: wall().nextMicrosecond, limit: 1, userZone: zone).first
            }.min()
            let delay = min(
                TimeSpan(microseconds: Int64.random(in: 0...Self.answerDelay.microseconds, using: &server)),
                following.map { $0 - wall() - TimeSpan(microseconds: 1) } ?? .seconds(3))
            answersArrive = trueTime + max(delay, .zero)
        }

        desktop.holdsAnswers = true
        lookAtTheScreen()
        while trueTime < scenario.length {
            // One daemon's life: from its start to a restart, a crash or the end.
            var segment = newSegment()
            var downtime: TimeSpan?
            var crashDowntime: TimeSpan?
            while downtime == nil {
                steps += 1
                guard steps < 2_000_000 else { throw TestSupportError("no end in sight after \(steps) steps") }
                // What comes next: the timer, a disruption, the server's return, an answer, the
                // end; one that fell between the timer's firing and the wake-up it fired ahead
                // of comes at once.
                let deadline = daemon.timer.deadline.map { max($0 - scenario.start - offset, trueTime) }
                let disruption = pending.first.map { max($0.after, trueTime) }
                let back = serverBack.map { max($0, trueTime) }
                let answer = answers.values.min { $0.due < $1.due }
                let answerDue = answer.map { max($0.due, trueTime) }
                let next = [deadline, disruption, back, answerDue, scenario.length].compactMap { $0 }.min()!
                let onTimeTimer = next != scenario.length && next != disruption && next != back && next != answerDue
                if let arrival = answersArrive, arrival <= next || !onTimeTimer {
                    // The server's answers come in, an event of their own.
                    trueTime = max(trueTime, min(arrival, next))
                    daemon.clock.set(wall())
                    answersArrive = nil
                    desktop.giveAnswers()
                    lookAtTheScreen()
                    continue
                }
                if onTimeTimer, answersArrive != nil { timerEventsBeforeAnswers += 1 }
                trueTime = next
                daemon.clock.set(max(wall(), daemon.clock.now))
                if next == scenario.length {
                    downtime = .zero
                    break
                } else if next == disruption {
                    switch pending.removeFirst().disruption {
                    case .restart(let span, crash: true):
                        // It strikes in the middle of the next popup; the answers to those
                        // shown with it come at once, as the ledger has them.
                        crashDowntime = span
                        desktop.crashesOnNextPopup = true
                        desktop.holdsAnswers = false
                    case .restart(let span, crash: false):
                        downtime = span
                    case .clockStep(let step):
                        segment.end = wall()
                        segments.append(segment)
                        offset = offset + step
                        segment = newSegment()
                        daemon.stepClock(by: step)
                    case .zoneChange(let newZone):
                        segment.end = wall()
                        segments.append(segment)
                        zone = newZone
                        segment = newSegment(watchedFrom: segment.watchedFrom)
                        try daemon.changeSystemZone(to: newZone.identifier)
                    case .serverAbsent(let span):
                        if serverPresent() {
                            segment.serverChanges.append((wall(), false))
                            desktop.serverGoes()
                        }
                        serverBack = max(serverBack ?? .zero, trueTime + span)
                        // The popups went with the server.
                        answers = [:]
                    case .feedChange(let version):
                        segment.end = wall()
                        segments.append(segment)
                        feedVersion = version
                        trace.feedVersion = version
                        segment = newSegment(watchedFrom: segment.watchedFrom)
                        try daemon.edit("feed", to: scenario.feeds[version])
                        // A withdrawn entry's popup is closed: its answer will not come.
                        let kept = Set(schedules[version].entries.map(\.id))
                        answers = answers.filter { kept.contains($0.key) }
                    }
                } else if next == back {
                    serverBack = nil
                    segment.serverChanges.append((wall(), true))
                    desktop.serverComes()
                } else if let pending = answer, next == answerDue {
                    var answer = pending.answer
                    answers[answer.entryID] = nil
                    if desktop.waitingKeys.contains(pending.key) {
                        answer.at = wall()
                        answer.shownBefore = shown.count
                        segment.answers.append(answer)
                        daemon.answer(pending.key, answer.response)
                    }
                } else {
                    daemon.fireTimer()
                }
                lookAtTheScreen()
                if desktop.crashed, let popup = shown.last {
                    // It died at the popup's instant, the wake-up the timer fired ahead of.
                    trueTime = max(trueTime, popup.at - scenario.start - offset)
                    crashes += 1
                    segment.endsInCrash = true
                    downtime = crashDowntime
                }
            }
            segment.end = wall()
            segments.append(segment)
            if segment.endsInCrash { daemon.kill() } else { daemon.stop() }
            desktop.holdsAnswers = true
            desktop.crashesOnNextPopup = false
            answersArrive = nil
            trueTime = min(trueTime + (downtime ?? .zero), scenario.length)
            // The world goes on while the daemon is down: its clock steps, its zone changes, the
            // server comes and goes, the feed changes; a restart of a daemon that is not running
            // is no event.
            while let (after, happening) = pending.first, after <= trueTime {
                pending.removeFirst()
                switch happening {
                case .clockStep(let step): offset = offset + step
                case .zoneChange(let newZone):
                    zone = newZone
                    try daemon.changeSystemZone(to: newZone.identifier, running: false)
                case .serverAbsent(let span): serverBack = max(serverBack ?? .zero, after + span)
                case .feedChange(let version):
                    feedVersion = version
                    trace.feedVersion = version
                    try daemon.write("feed", scenario.feeds[version])
                case .restart: break
                }
            }
            if let back = serverBack, back <= trueTime { serverBack = nil }
            guard trueTime < scenario.length else { break }
            daemon.clock.set(wall())
            if serverPresent() != (desktop.server != nil) {
                serverPresent() ? desktop.serverComes() : desktop.serverGoes()
            }
            // The popups of the previous daemon are unheard, and with them the answers to come.
            answers = [:]
            try daemon.start()
            lookAtTheScreen()
        }
        // The occurrences of the popups the driver never said on screen: from the ledger, or
        // for the one shown at a crash, which nothing recorded, from the entry's occurrences.
        for (place, id, entryID, zone) in unresolved {
            let popup = shown[place]
            let occurrence =
                try occurrences[id] ?? daemon.store.ledgerRecord(occurrenceID: id)?.occurrence
                ?? occurrence(of: id, entryID: entryID, at: popup.at, source: source, in: zone)
            occurrences[id] = occurrence
            shown[place].occurrence = occurrence
        }
        for index in segments.indices {
            for answer in segments[index].answers.indices {
                if let occurrence = occurrences[segments[index].answers[answer].occurrenceID] {
                    segments[index].answers[answer].occurrence = occurrence
                }
            }
        }
    }

    /// The entry a popup shows: its title is "Entry N" for the entry "eN".
    private func entryID(of popup: Popup) -> String {
        "e" + popup.summary.dropFirst("Entry ".count)
    }

    /// The occurrence of `entryID` a popup shown at `at` with the occurrence id `id` shows,
    /// for a popup the driver did not say on screen (shown at a crash): the instant itself
    /// (an entry due at once), or one of the entry's occurrences before it.
    private func occurrence(
        of id: String, entryID: String, at: Instant, source: String, in zone: ZoneRules
    ) -> Instant {
        let matches = { (occurrence: Instant) in
            LedgerRecord.occurrenceID(source: source, entryID: entryID, occurrence: occurrence) == id
        }
        if matches(at) { return at }
        for schedule in schedules {
            guard let entry = schedule.entries.first(where: { $0.id == entryID }) else { continue }
            var cursor = at - .days(90)
            while cursor <= at {
                let batch = entry.trigger.occurrences(onOrAfter: cursor, limit: 64, userZone: zone)
                if let found = batch.first(where: { $0 <= at && matches($0) }) { return found }
                guard let last = batch.last, batch.count == 64 else { break }
                cursor = last.nextMicrosecond
            }
        }
        return at
    }
}
