/// The daemon's decisions and the state they need, held once, as one value: the daemon holds a
/// `DaemonCore` beside its I/O (GLib loop, timer, notifier, state database, fetch workers) and
/// only carries out what it decides.
///
/// Pure and deterministic like its parts: no I/O, no clock, no GLib; the time comes in as an
/// argument. Its parts decide each kind of event:
/// - `planner` (`OccurrencePlanner`): timed entries, through feed loads, timer expiries, clock
///   steps, zone changes, a server appearing and the user's answers;
/// - `waiting` (`PopupQueue`): when each popup chosen by a session event, a posted event or a
///   check goes out;
/// - `SourceEventPlan`, `ScreenPlan` and `ControlCall` take what they decide from as
///   arguments and hold nothing;
/// and it holds what joins them: which sources still owe a session start, which control calls
/// wait for an occurrence's outcome, when the ledger was last pruned, and when to wake next.
public struct DaemonCore: ~Copyable {
    /// How long the ledger keeps every record; older ones go, but each entry's latest stays.
    public static let ledgerRetention = TimeSpan.days(90)

    /// The decisions about timed entries, and the schedule of each source in force.
    public var planner: OccurrencePlanner
    /// Popups chosen by events and checks, waiting to be shown.
    public var waiting: PopupQueue
    /// Sources whose feed had not arrived when the session started: they take the session
    /// start when it does.
    private var owingSessionStart: Set<Int> = []
    /// The control calls waiting for an occurrence's outcome (`Handle`, `Test` with wait), by
    /// occurrence id, as tokens; the daemon keeps how to reply to each.
    private var waitingCalls: [String: [Int]] = [:]
    /// The token the next waiting control call gets.
    private var nextCallToken = 0
    /// When the ledger was last pruned.
    private var ledgerPrunedAt: Instant?

    /// A core deciding with `planner`, and `waiting` the popups a previous daemon left waiting.
    public init(planner: consuming OccurrencePlanner, waiting: PopupQueue = PopupQueue()) {
        self.planner = planner
        self.waiting = waiting
    }

    /// When the daemon must wake next: the planner's next deadline, the next check of a source
    /// (`nextCheck`, the sources' health decides it) or the next waiting popup, whichever is
    /// first; nil when nothing is ahead.
    public func nextWakeUp(nextCheck: Instant?) -> Instant? {
        [planner.nextDeadline, nextCheck, waiting.nextDeadline].compactMap { $0 }.min()
    }

    /// Whether the ledger is pruned at `now`: once a day, when the timer wakes the daemon
    /// anyway (it would otherwise grow by a record per occurrence forever), and again when the
    /// clock went back.
    ///
    /// - Returns: The instant before which records go, when a prune is due; nil otherwise.
    public mutating func ledgerPruneCutOff(at now: Instant) -> Instant? {
        if let last = ledgerPrunedAt, now >= last, now - last < .days(1) { return nil }
        ledgerPrunedAt = now
        return now - Self.ledgerRetention
    }

    /// The session started while `sources` had no feed yet (a portal URL's first start): each
    /// takes the session start when its first feed arrives, as iNotify checks after downloading.
    public mutating func sessionStarted(withoutFeed sources: some Sequence<Int>) {
        owingSessionStart.formUnion(sources)
    }

    /// Whether source `index`, whose feed just arrived, takes the session start now: once, and
    /// only if it had no feed when the session started.
    public mutating func takesSessionStart(source index: Int) -> Bool {
        owingSessionStart.remove(index) != nil
    }

    /// The user answered a popup (or notify-sched acted at once): an answer that holds for later
    /// occurrences (Ignore, "Remind Me Later", or the action ending a reminder) goes to the
    /// planner, and the control calls waiting for this outcome are answered.
    ///
    /// - Parameters:
    ///   - outcome: What was handled, and the state change it made.
    ///   - occurrence: When the answered occurrence was due, as the ledger recorded it; nil when
    ///     the ledger has no record of it (the planner then learns nothing).
    ///   - now: The time of the answer.
    /// - Returns: The tokens of the control calls to answer with `outcome.callAnswer`.
    public mutating func answered(_ outcome: HandlingOutcome, occurrence: Instant?, at now: Instant) -> [Int] {
        if let change = outcome.change, let occurrence {
            planner.answered(
                change, entryID: outcome.occurrence.entryID, source: outcome.occurrence.source,
                occurrence: occurrence, at: now)
        }
        return calls(answeredBy: outcome.occurrence.id)
    }

    /// A notification server appeared: the waiting popups held for want of one go out now, and
    /// what the planner retries is planned again.
    ///
    /// - Returns: The planner's effects; the daemon then shows the waiting popups now ready.
    public mutating func serverAppeared(at now: Instant) -> [PlannerEffect] {
        waiting.releaseHeld()
        return planner.serverAppeared(at: now)
    }

    /// A control call waits for the outcome of the occurrence `occurrenceID`.
    ///
    /// - Returns: The call's token: `answered` names it when the outcome comes.
    public mutating func callWaits(for occurrenceID: String) -> Int {
        let token = nextCallToken
        nextCallToken += 1
        waitingCalls[occurrenceID, default: []].append(token)
        return token
    }

    /// Control call `token` no longer waits (its occurrence was not one notify-sched delivered).
    public mutating func callGaveUp(_ token: Int, on occurrenceID: String) {
        waitingCalls[occurrenceID]?.removeAll { $0 == token }
        if waitingCalls[occurrenceID]?.isEmpty == true { waitingCalls[occurrenceID] = nil }
    }

    /// The control calls an outcome of the occurrence `occurrenceID` answers, in the order they
    /// came: each is answered once.
    private mutating func calls(answeredBy occurrenceID: String) -> [Int] {
        waitingCalls.removeValue(forKey: occurrenceID) ?? []
    }
}
