/// The daemon's decisions and the state they need, held once, as one value: the daemon holds a
/// `DaemonCore` beside its I/O (GLib loop, timer, notifier, state database, fetch workers),
/// hands it each event (`handle(_:at:)`) and only carries out the effects it returns.
///
/// Pure and deterministic like its parts: no I/O, no clock, no GLib; the time comes in as an
/// argument. Its parts decide each kind of event:
/// - `planner` (`OccurrencePlanner`): timed entries, through feed loads, timer expiries, clock
///   steps, zone changes, a server appearing and the user's answers;
/// - `polling` (`SourcePolling`): when each source is checked, which checks run, and which
///   `notify-sched sync` calls they answer (`DaemonCore+Polling.swift`);
/// - `SourceEventPlan`: what a session event, a posted event or a check chooses for a source;
/// - `waiting` (`PopupQueue`): when each popup so chosen goes out;
/// - `ScreenPlan`: the popups on screen after a feed change, and those a new daemon takes over;
/// - `handling` (`HandlingCore`): what an answer, a `handle` and a `snooze` do, with the popups
///   and prompts on screen (`DaemonCore+Handling.swift`);
/// and it holds what joins them: which sources still owe a session start, which control calls
/// wait for an occurrence's outcome, when the ledger was last pruned, and when to wake next.
public struct DaemonCore: ~Copyable {
    /// How long the ledger keeps every record; older ones go, but each entry's latest stays.
    public static let ledgerRetention = TimeSpan.days(90)
    /// How long before a wake-up the daemon's timer fires (`timerDeadline`). The core decides
    /// the wake-up at its instant and the popups are laid out at once; their calls then wait on
    /// their threads and go out at the instant. Deciding and laying out take about a quarter of
    /// a millisecond, which would otherwise come between the due time and the popup.
    public static let sendingLead = TimeSpan.milliseconds(2)

    /// The decisions about timed entries, and the schedule of each source in force.
    public internal(set) var planner: OccurrencePlanner
    /// The sources' checks and health.
    public internal(set) var polling: SourcePolling
    /// Popups chosen by events and checks, waiting to be shown.
    public private(set) var waiting: PopupQueue
    /// What handling decides, and the popups and prompts on screen waiting for an answer.
    public internal(set) var handling: HandlingCore
    /// The popups shown that the caps count (`DaemonEvent.impressionsLoaded` at start).
    public internal(set) var impressions = ImpressionLog()
    /// The user's bounds and the desktop's install id, which with each feed's rules decide
    /// whether a popup goes out.
    public private(set) var capGate: CapGate
    /// The entries whose targeting could not be evaluated, by source and id: logged once each.
    var targetingFailuresLogged: Set<String> = []
    /// The impressions counted as their popups went out, by occurrence id, until the server's
    /// answer says whether they were shown.
    var inFlight: [String: Impression] = [:]
    /// Timed popups a cap holds back only with those in flight counted: decided again once
    /// the answers came (`DaemonCore+Caps.swift`).
    var awaitingAnswers: [DueOccurrence] = []
    /// Whether the next waiting popup to go out waits, as `awaitingAnswers`, for the answers to
    /// the popups in flight; it is last in `goingOut`.
    private var waitingForAnswers = false
    /// The waiting popups whose time came, taken from `waiting` and going out one at a time
    /// (each after the previous one's `waitingShown`), the next last.
    private var goingOut: [PopupQueue.Ready] = []
    /// Whether a waiting popup is being shown: the next one waits for its `waitingShown`.
    private var waitingInFlight = false
    /// Sources whose feed had not arrived when the session started: they take the session
    /// start when it does.
    private var owingSessionStart: Set<Int> = []
    /// The control calls waiting for an occurrence's outcome (`Handle`, `Test` with wait), by
    /// occurrence id, in the order they came.
    var waitingCalls: [String: [WaitingCall]] = [:]
    /// The test popups waiting for their time (`DaemonEvent.testRequested`), in the order they came.
    var pendingTests: [PendingTest] = []
    /// The test popups being shown, by their call's token: whether the call waits for the outcome.
    var showingTests: [Int: Bool] = [:]
    /// When the ledger was last pruned.
    private var ledgerPrunedAt: Instant?
    /// The instant the timer's last event on time was handled at: its wake-up, up to
    /// `sendingLead` ahead of the clock (`instant(for:)`).
    private var timerEventHandledAt: Instant?
    /// Seeds each source event's random choices (iSmartNews's pick among meta items).
    private var generator: SplitMix64
    /// When each source's receipts go (`DaemonCore+Receipts.swift`).
    var uploads: ReceiptUploads
    /// The configuration the daemon runs on: an edit of the file that changes it restarts it.
    private let configuration: Configuration
    /// Whether the user's zone is the system's and follows its changes (`TZ` is unset).
    private let followsSystemZone: Bool

    /// A core deciding with `planner` and `polling`, which follow the same sources in the same
    /// order; no feed in force yet (`DaemonEvent.sourceOpened`) and no popup waiting
    /// (`DaemonEvent.waitingLoaded`).
    ///
    /// - Parameters:
    ///   - seed: Seeds the random choices of source events.
    ///   - configuration: The configuration the daemon runs on.
    ///   - followsSystemZone: Whether the user's zone follows the system's (`TZ` is unset).
    ///   - handlingPolicy: The labels, allowed URL schemes and snooze choices handling follows.
    ///   - installID: The desktop's install id, which places it in rollouts (`CapGate`).
    ///   - environment: What targeting expressions may ask of the desktop.
    public init(
        planner: consuming OccurrencePlanner, polling: SourcePolling, seed: UInt64 = 0,
        configuration: Configuration = Configuration(), followsSystemZone: Bool = true,
        handlingPolicy: HandlingPolicy = HandlingPolicy(), installID: String? = nil,
        environment: TargetingEnvironment = TargetingEnvironment()
    ) {
        precondition(
            planner.sourceCount == polling.sources.count, "the planner and the polling follow the same sources")
        self.planner = planner
        self.polling = polling
        waiting = PopupQueue()
        handling = HandlingCore(policy: handlingPolicy)
        generator = SplitMix64(seed: seed)
        uploads = ReceiptUploads(
            on: polling.sources.map { $0.settings.receipts.mode == .counts },
            seed: seed ^ 0x5EC2_1975_0000_0044)
        capGate = CapGate(configuration, installID: installID, environment: environment)
        self.configuration = configuration
        self.followsSystemZone = followsSystemZone
    }

    /// When the daemon must wake next: the planner's next deadline, the next check of a source,
    /// the next waiting popup or the next test popup, whichever is first; nil when nothing is ahead.
    public var nextWakeUp: Instant? {
        [planner.nextDeadline, polling.nextCheck, waiting.nextDeadline, pendingTests.map(\.due).min()]
            .compactMap { $0 }.min()
    }

    /// How close the next wake-up may be for the deliveries just shown to wait for the ledger
    /// (`deliveriesWait(_:at:)`): a write and its sync to disk take milliseconds, which a popup
    /// due that soon must not wait behind.
    public static let ledgerWriteGap = TimeSpan.milliseconds(10)
    /// The most deliveries that wait for the ledger during a burst, so that a crash in one
    /// shows only so many again.
    public static let unrecordedLimit = 256

    /// Whether `count` deliveries shown and not yet in the ledger wait for the popups due next
    /// rather than be written at `now`: while the next wake-up is within `ledgerWriteGap` and
    /// fewer than `unrecordedLimit` wait. The ledger is written after the server took a popup,
    /// and off the firing path: a crash in between shows it once more on restart, never not.
    public func deliveriesWait(_ count: Int, at now: Instant) -> Bool {
        guard let nextWakeUp, count < Self.unrecordedLimit else { return false }
        return nextWakeUp - now <= Self.ledgerWriteGap
    }

    /// When the daemon's timer fires: `sendingLead` ahead of `nextWakeUp`.
    public var timerDeadline: Instant? { nextWakeUp.map { $0 - Self.sendingLead } }

    /// The instant a timer event that fired at `now`, not for a clock change, is handled at:
    /// the wake-up it fired `sendingLead` ahead of, or `now` when it fired late; nil when it
    /// fired early for a wake-up that has moved later since (the timer is armed again).
    public func timerEventInstant(firedAt now: Instant) -> Instant? {
        guard let wakeUp = nextWakeUp, now < wakeUp else { return now }
        return wakeUp - now <= Self.sendingLead ? wakeUp : nil
    }

    /// The instant an event that comes at `now` is decided at: the timer's last event was
    /// handled at its wake-up, up to `sendingLead` ahead of the clock, and the core's time steps
    /// back only with the clock, so an event meanwhile counts from that wake-up.
    public func instant(for now: Instant) -> Instant {
        guard let held = timerEventHandledAt, now < held, held - now <= Self.sendingLead else { return now }
        return held
    }

    /// Decides what `event` at `now` makes the daemon do, and keeps what it changes.
    ///
    /// - Returns: The effects to carry out, in order. Some are answered with an event before
    ///   the next effect: `.show` with `.shown`, `.showWaiting` with `.waitingShown`, a stored
    ///   `.storeChoice` with `.popupsChosen`; `.startCheck` is answered later, with
    ///   `.checkFinished`.
    public mutating func handle(_ event: DaemonEvent, at now: Instant) -> [DaemonEffect] {
        if case .timerWoke(clockChanged: false) = event { timerEventHandledAt = now }
        switch event {
        case .started:
            return ledgerPrune(at: now)
        case .timerWoke(let clockChanged):
            if clockChanged { replanChecks(at: now) }
            let checks = startDueChecks(at: now)
            let waitingOut = takeReadyWaiting(at: now)
            let tests = showDueTests(at: now)
            let planned = clockChanged ? planner.clockChanged(at: now) : planner.timerExpired(at: now)
            return checks + waitingOut + tests + gated(planned, at: now) + ledgerPrune(at: now)
        case .resumed:
            replanChecks(at: now)
            return gated(planner.clockChanged(at: now), at: now)
        case .zoneChanged(let zone):
            guard followsSystemZone, zone != planner.userZone else { return [] }
            return [.log(.notice, "the time zone is now \(zone.identifier); planning again")]
                + gated(planner.zoneChanged(to: zone, at: now), at: now)
        case .configurationEdited(let edited, let problems, let file):
            let warnings = problems.map { DaemonEffect.log(.warning, $0) }
            guard let edited else {
                return warnings + [.log(.error, "\(file) has errors; the configuration in force stays")]
            }
            return warnings + (edited == configuration ? [] : [.log(.notice, "\(file) changed"), .restart(edited)])
        case .serverKnown(let server):
            capGate.environment.server = server
            return []
        case .serverAppeared(let server):
            capGate.environment.server = server
            // The popups held for want of a server go out now rather than at their next retry.
            waiting.releaseHeld()
            return takeReadyWaiting(at: now) + gated(planner.serverAppeared(at: now), at: now)
        case .leftOnScreen(let unanswered, let prompts):
            var entries: [String: [ScheduleEntry]] = [:]
            for location in Set(unanswered.map(\.occurrence.source)) {
                entries[location] = planner.schedule(at: location)?.entries
            }
            return ScreenPlan.takeOver(unanswered, shownAlready: Set(handling.popups.keys), entries: entries).map(
                DaemonEffect.takeOver)
                + prompts.filter { handling.prompts[$0.occurrence.id] == nil }.map(DaemonEffect.takeOverPrompt)
        case .sourceOpened(let source, let opening):
            return sourceOpened(source, opening, at: now)
        case .checkFinished(let source, let outcome):
            return checkFinished(source, outcome, at: now)
        case .syncRequested(let token):
            polling.requestSync(token: token)
            return startDueChecks(at: now)
        case .sourceFileChanged(let source):
            polling.checkSoon(source, at: now)
            return startDueChecks(at: now)
        case .shown(let due, let result):
            planner.shown(due, result, at: now)
            return settleImpression(
                occurrenceID: LedgerRecord.occurrenceID(
                    source: due.location, entryID: due.entry.id, occurrence: due.occurrence),
                result, at: now)
        case .impressionsLoaded(let loaded):
            impressions = ImpressionLog(loaded)
            return []
        case .receiptsLoaded(let queue):
            receiptsLoaded(queue)
            return []
        case .receiptsPosted(let source, let posts):
            return receiptsPosted(source, posts, at: now)
        case .waitingLoaded(let popups):
            waiting = PopupQueue(popups)
            goingOut = []
            waitingInFlight = false
            waitingForAnswers = false
            return []
        case .sourceEvent(let event, let contexts, let urlHandlers):
            return sourceEvent(event, contexts, urlHandlers: urlHandlers, at: now)
        case .popupsChosen(let items):
            waiting.add(Self.byPrecedence(items, entry: \.entry))
            return takeReadyWaiting(at: now)
        case .waitingShown(let item, let result):
            return waitingShown(item, result, at: now)
        case .handling(let event):
            return handled(event, at: now)
        case .handleCalled(let token, let request):
            waitingCalls[request.occurrence.id, default: []].append(WaitingCall(token: token, answerOnly: true))
            return handled(request, at: now)
        case .testRequested(let token, let entry, let due, let wait):
            pendingTests.append(PendingTest(token: token, entry: entry, due: due, wait: wait))
            return showDueTests(at: now)
        case .testShown(let token, let result):
            return testShown(token, result)
        case .stopping:
            return stopping()
        }
    }

    /// Puts a new feed in force: the planner plans added and changed entries and cancels
    /// withdrawn ones; a changed entry's popup on screen is replaced in place, a withdrawn
    /// one's closed; the source's waiting popups are looked up again when they go out; a source
    /// that owed the session start takes it.
    mutating func putInForce(_ load: FeedLoad, at now: Instant) -> (changes: ScheduleChanges, effects: [DaemonEffect]) {
        let location = planner.location(of: load.source)
        let old = planner.schedule(source: load.source)?.entries ?? []
        let (changes, planned) = planner.load(
            load.schedule, source: load.source, settled: load.settled, answers: load.answers, at: now)
        waiting.forgetEntries(of: location)
        let screen = ScreenPlan.afterFeedChange(
            changes, old: old, new: load.schedule.entries, source: location, onScreen: handling.onScreen(.scheduled))
        let sessionStart: [DaemonEffect] =
            owingSessionStart.remove(load.source) != nil ? [.takeSessionStart(source: load.source)] : []
        return (changes, gated(planned, at: now) + screen.map(DaemonEffect.changeScreen) + sessionStart)
    }

    /// Takes the waiting popups whose time came (`PopupQueue.takeReady`), looking up in the
    /// feeds in force the entries of those whose feed changed since they were chosen.
    ///
    /// - Returns: The popups to drop, up to the first to show: the others follow one at a time.
    private mutating func takeReadyWaiting(at now: Instant) -> [DaemonEffect] {
        var entries: [String: [String: ScheduleEntry]] = [:]
        for item in waiting.items where item.entry == nil && item.readyAt <= now && entries[item.popup.source] == nil {
            entries[item.popup.source] = Dictionary(
                (planner.schedule(at: item.popup.source)?.entries ?? []).map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
        }
        let ready = waiting.takeReady(at: now, quietHours: planner.quietHours, userZone: planner.userZone) {
            entries[$0.source]?[$0.entryID]
        }
        // Kept last first, so that each goes out with a `popLast`.
        goingOut.insert(contentsOf: ready.reversed(), at: 0)
        return nextWaitingOut(at: now)
    }

    /// The waiting popups taken to drop or suppress, up to the next one to show: none while
    /// one is being shown.
    private mutating func nextWaitingOut(at now: Instant) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        while !waitingInFlight, !waitingForAnswers, let ready = goingOut.popLast() {
            switch ready {
            case .drop(let popup):
                effects.append(Self.withdrawn(popup))
            case .show(var item, let entry):
                let popup = item.popup
                switch admit(entry, of: popup.source, occurrence: popup.occurrence, at: now) {
                case .show:
                    item.entry = entry
                    waitingInFlight = true
                    effects.append(.showWaiting(item))
                case .suppress(let suppression):
                    effects += suppressed(
                        popup.entryID, of: popup.source, occurrence: popup.occurrence, because: suppression, at: now)
                case .wait:
                    goingOut.append(ready)
                    waitingForAnswers = true
                }
            }
        }
        return effects
    }

    /// The waiting popups to go out after the one that waited for the answers to the popups in
    /// flight: they came.
    mutating func resumeWaitingPopups(at now: Instant) -> [DaemonEffect] {
        guard waitingForAnswers else { return [] }
        waitingForAnswers = false
        return nextWaitingOut(at: now)
    }

    /// A waiting popup went out, or was passed over (nothing opens its action): the next one
    /// follows. The server did not take it: it and those still to go out are held for a retry.
    private mutating func waitingShown(_ item: PopupQueue.Item, _ result: ShowResult, at now: Instant)
        -> [DaemonEffect]
    {
        waitingInFlight = false
        let settled = settleImpression(occurrenceID: item.popup.occurrenceID, result, at: now)
        switch result {
        case .shown:
            return settled + nextWaitingOut(at: now)
        case .passedOver:
            return settled + [.dropWaiting(item.popup, reason: nil)] + nextWaitingOut(at: now)
        case .failed:
            var held = [item]
            var dropped: [DaemonEffect] = []
            for ready in goingOut.reversed() {
                switch ready {
                case .show(let item, _): held.append(item)
                case .drop(let popup):
                    dropped.append(Self.withdrawn(popup))
                }
            }
            goingOut = []
            waiting.putBack(held, heldUntil: now + OccurrencePlanner.retryDelay)
            return settled + dropped
        }
    }

    /// A waiting popup dropped because its entry left its feed.
    private static func withdrawn(_ popup: WaitingPopup) -> DaemonEffect {
        .dropWaiting(popup, reason: "\(popup.entryID) is no longer in its feed")
    }

    /// What `event` decides for each source (`SourceEventPlan`), to store; the popups join the
    /// waiting ones once stored (`popupsChosen`). A source without its feed at the session start
    /// takes it when the feed arrives.
    private mutating func sourceEvent(
        _ event: SourceEvent, _ contexts: [SourceContext], urlHandlers: URLHandlers, at now: Instant
    ) -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        for context in contexts {
            guard let schedule = planner.schedule(source: context.source) else {
                if case .session("session:start", _) = event { owingSessionStart.insert(context.source) }
                continue
            }
            let plan = SourceEventPlan(
                event, schedule: schedule, memory: context.memory, settings: context.settings,
                location: planner.location(of: context.source), waiting: waiting,
                onScreen: handling.hasPopup(of: planner.location(of: context.source)),
                urlHandlers: urlHandlers, now: now, zone: planner.userZone, seed: generator.next())
            effects.append(.storeChoice(source: context.source, plan))
        }
        // Those waiting already whose time came go out too, first.
        return effects + takeReadyWaiting(at: now)
    }

    /// The test popups whose time came, to show, in the order they were asked for.
    private mutating func showDueTests(at now: Instant) -> [DaemonEffect] {
        let due = pendingTests.filter { $0.due <= now }
        guard !due.isEmpty else { return [] }
        pendingTests.removeAll { $0.due <= now }
        return due.map { test in
            showingTests[test.token] = test.wait
            return .showTest(token: test.token, test.entry)
        }
    }

    /// A test popup was shown, or not: its call is answered now, or, with wait, once the popup's
    /// outcome comes.
    private mutating func testShown(_ token: Int, _ result: Result<String, CoreError>) -> [DaemonEffect] {
        guard let wait = showingTests.removeValue(forKey: token) else { return [] }
        switch result {
        case .success(let id) where wait:
            waitingCalls[id, default: []].append(WaitingCall(token: token, answerOnly: false))
            return []
        case .success(let id):
            return [.answerCalls([token], about: id, status: "delivered", report: "")]
        case .failure(let error):
            return [.answerCalls([token], about: "", status: "failed", report: error.message)]
        }
    }

    /// The daemon stops: the calls still waiting are answered now, since no answer would reach
    /// them later, each group of an occurrence once, in the order of the occurrence ids.
    private mutating func stopping() -> [DaemonEffect] {
        var effects: [DaemonEffect] = []
        for (occurrenceID, calls) in waitingCalls.sorted(by: { $0.key < $1.key }) {
            for answerOnly in [false, true] {
                let tokens = calls.filter { $0.answerOnly == answerOnly }.map(\.token)
                // A prompt is taken over by the next daemon; a test popup is not.
                let report =
                    answerOnly
                    ? "the daemon stopped before the prompt was answered; it stays on screen, "
                        + "and the next daemon takes it over"
                    : "the daemon stopped before the popup was answered"
                if !tokens.isEmpty {
                    effects.append(.answerCalls(tokens, about: occurrenceID, status: "failed", report: report))
                }
            }
        }
        waitingCalls = [:]
        let unshown = pendingTests.map(\.token)
        pendingTests = []
        if !unshown.isEmpty {
            effects.append(
                .answerCalls(
                    unshown, about: "", status: "failed", report: "the daemon stopped before the test popup was shown"))
        }
        return effects
    }

    /// The ledger is pruned once a day, when the daemon wakes anyway (it would otherwise grow
    /// by a record per occurrence forever), and again when the clock went back.
    private mutating func ledgerPrune(at now: Instant) -> [DaemonEffect] {
        if let last = ledgerPrunedAt, now >= last, now - last < .days(1) { return [] }
        ledgerPrunedAt = now
        impressions.prune(before: now - FrequencyCap.longestPeriod)
        return [.pruneLedger(before: now - Self.ledgerRetention)]
    }
}

/// A control call waiting for an occurrence's outcome (`DaemonEvent.handleCalled`, or a `.testRequested` with wait).
struct WaitingCall {
    var token: Int
    var answerOnly: Bool
}

/// A test popup waiting for its time (`DaemonEvent.testRequested`).
struct PendingTest {
    var token: Int
    var entry: ScheduleEntry
    var due: Instant
    var wait: Bool
}
