/// What `DaemonCore.handle(_:at:)` decides the daemon does, in order: the daemon carries each
/// out and decides nothing.
public enum DaemonEffect: Sendable, Equatable {
    /// Show a timed entry's occurrence, record it in the ledger once the server took it, and
    /// tell the core how it went (`DaemonEvent.shown`).
    case show(DueOccurrence)
    /// Show a waiting popup with its `entry` (set: the entry as the feed in force has it),
    /// record its delivery (which removes it from the stored waiting popups), and tell the core
    /// how it went (`DaemonEvent.waitingShown`): the next waiting popup comes then, or, when the
    /// server did not take this one, it and the rest are held for a retry.
    case showWaiting(PopupQueue.Item)
    /// Remove a waiting popup that will not be shown from the stored ones, saying why when
    /// there is a reason to log.
    case dropWaiting(WaitingPopup, reason: String?)
    /// Record an occurrence nobody saw as missed.
    case recordMissed(source: String, entryID: String, occurrence: Instant)
    /// Record an occurrence a cap held back (`LedgerOutcome.suppressed`, with its reason), and
    /// remove its popup from the stored waiting ones if it was one, in one transaction.
    case recordSuppressed(LedgerRecord)
    /// Store that these entries of `source` are followed from `since` (`PlannerEffect.follow`).
    case follow(source: String, entries: [FollowedEntry], since: Instant)
    /// Replace or close a popup on screen after its feed changed (`ScreenPlan.afterFeedChange`).
    case changeScreen(ScreenPlan.Change)
    /// Show again, in place of the server's popup, a popup a previous daemon left unanswered,
    /// and store the id the server gives it.
    case takeOver(PopupOnServer)
    /// Show again, in place of the server's popup, a prompt a previous daemon left unanswered
    /// (the `handle` call that asked got its answer when that daemon stopped), and store the id
    /// the server gives it.
    case takeOverPrompt(PopupOnServer)
    /// Run the session start for `source`, whose first feed just arrived (hand the core a
    /// `sourceEvent` for it).
    case takeSessionStart(source: Int)
    /// Run iNotify's manual check for every source (hand the core a `sourceEvent` of
    /// `.manualCheck`): `notify-sched sync` fetched them.
    case takeManualCheck
    /// Check source `source` (fetch or read its feed, off the loop) and hand the core what it
    /// found (`DaemonEvent.checkFinished`).
    case startCheck(source: Int)
    /// Store a source's health.
    case saveHealth(SourceHealth)
    /// Upload source `source`'s receipts to `endpoint`, off the loop, and hand the core how
    /// each body went (`DaemonEvent.receiptsPosted`): seal what was counted into a body when
    /// none of the source's waits, note that an upload started today, and post each body waiting.
    case uploadReceipts(source: Int, endpoint: String)
    /// Record how posting a body went: taken, it leaves the queue; refused, it stays, to go
    /// again from `retryAt` on.
    case recordReceiptPost(ReceiptPost, retryAt: Instant?)
    /// Answer the `sync` control call `token` with what each check found.
    case answerSync(token: Int, [SourceCheckReport])
    /// The checks are over: give the pages their parses freed back to the system.
    case releaseFreedMemory
    /// Stop, and start a new daemon in this process on `configuration` (which keeps the bus name):
    /// the configuration file changed.
    case restart(Configuration)
    /// Log a line at a priority.
    case log(LogPriority, String)
    /// Store what a source event decided for `source` (the state it leaves and the popups it
    /// chose, in one transaction), log its notes, then hand the core the popups
    /// (`DaemonEvent.popupsChosen`); when the store fails, the popups are not chosen.
    case storeChoice(source: Int, SourceEventPlan)
    /// Remove the ledger's records from before the instant (each entry's latest stays).
    case pruneLedger(before: Instant)
    /// Answer the control calls with these tokens, about the occurrence with the id `about`
    /// (empty when none was shown).
    case answerCalls([Int], about: String, status: String, report: String)
    /// Show the prompt about the occurrence, store its id on the server (a restarted daemon
    /// takes it over), and tell the core when it could not be (`HandlingEvent.promptFailed`).
    case showPrompt(DeliveredOccurrence)
    /// Open the URL with the desktop's default handler, then tell the core how it went
    /// (`HandlingEvent.urlOpened`, handing `then` back).
    case openURL(ActionURL, then: HandlingOutcome)
    /// Close the popup, unless it is gone; its closing is not an answer.
    case closePopup(PopupKey)
    /// Store what handling came to: the state change it makes and the occurrence's outcome in
    /// the ledger (`StateStore.recordHandling`).
    case storeHandling(HandlingOutcome)
    /// Show the test popup of control call `token` now, as a delivered occurrence of
    /// `DeliveredOccurrence.testSource`, and tell the core how it went (`DaemonEvent.testShown`).
    case showTest(token: Int, ScheduleEntry)

    init(_ effect: PlannerEffect) {
        switch effect {
        case .show(let due): self = .show(due)
        case .recordMissed(let source, let entryID, let occurrence):
            self = .recordMissed(source: source, entryID: entryID, occurrence: occurrence)
        case .follow(let source, let entries, let since):
            self = .follow(source: source, entries: entries, since: since)
        }
    }
}
