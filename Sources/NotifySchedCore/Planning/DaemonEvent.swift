/// What happens to the daemon, as `DaemonCore.handle(_:at:)` takes it: the I/O around the core
/// turns each timer wake-up, signal, bus message and store read into one of these.
///
/// A value, like the effects: what the daemon reads of the desktop comes as data (`URLHandlers`),
/// so that a run's events can be logged, compared and replayed.
public enum DaemonEvent: Sendable, Equatable {
    /// The daemon started and loaded its feeds.
    case started
    /// The timer woke the daemon: on time, or early because the wall clock stepped
    /// (`clockChanged`), after which everything is planned again.
    case timerWoke(clockChanged: Bool)
    /// The machine resumed from suspend: everything is planned again.
    case resumed
    /// The system's zone is now `zone`: the user's zone follows it, unless `TZ` fixes it
    /// (`DaemonCore.init`'s `followsSystemZone`), and floating times follow the user's zone.
    case zoneChanged(ZoneRules)
    /// The configuration file `file` was edited and read again: the configuration it holds
    /// (nil when it has errors), and the problems reading it found, a line each. A configuration
    /// other than the one in force restarts the daemon on it (`DaemonEffect.restart`).
    case configurationEdited(Configuration?, problems: [String], file: String)
    /// A notification server appeared on the bus: this one.
    case serverAppeared(NotificationServer)
    /// At start, the notification server that runs, if one does: targeting may ask its name
    /// and capabilities.
    case serverKnown(NotificationServer?)
    /// At start, on the notification server that runs now: the popups and the prompts a
    /// previous daemon left unanswered there (the state database's candidates, each with its id
    /// on the server). The popups this daemon does not show itself, of entries still in their
    /// feed, are taken over (`DaemonEffect.takeOver`), and the prompts
    /// (`DaemonEffect.takeOverPrompt`), so that their buttons work again.
    case leftOnScreen([PopupOnServer], prompts: [PopupOnServer])
    /// At start, source `source` opened: a file read, a portal URL's cached copy, or nothing
    /// usable cached. What it read goes in force, and its first check is planned.
    case sourceOpened(source: Int, SourceOpening)
    /// A check of source `source` the core asked for (`DaemonEffect.startCheck`) finished:
    /// what it found goes in force, its health records it, and the `sync` calls it completes
    /// are answered.
    case checkFinished(source: Int, CheckOutcome)
    /// `notify-sched sync`, control call `token`: every source is checked now, whatever its
    /// period and backoff (a check under way is followed by a fresh one), and the call is
    /// answered once all are done (`DaemonEffect.answerSync`).
    case syncRequested(token: Int)
    /// The file of source `source`, a local feed, changed on disk: it is checked at once (once
    /// more after the check under way, when one is).
    case sourceFileChanged(source: Int)
    /// A popup the core asked for (`DaemonEffect.show`) was shown, passed over or failed.
    case shown(DueOccurrence, ShowResult)
    /// The popups a previous daemon left waiting, as the state database holds them (at start).
    case waitingLoaded([WaitingPopup])
    /// The impressions the caps count, as the state database holds them (at start, before the
    /// feeds are opened).
    case impressionsLoaded([Impression])
    /// What the state database remembers of each source's receipts, by location (at start):
    /// when an upload last started, and when a refused body may go again.
    case receiptsLoaded([String: ReceiptQueueState])
    /// An upload of source `source`'s receipts (`DaemonEffect.uploadReceipts`) ended: how
    /// posting each body went.
    case receiptsPosted(source: Int, [ReceiptPost])
    /// A session event (`session:start`, `session:resume`, `session:unlock`), an event posted
    /// with `notify-sched event` or `sync`'s manual check, for `sources`, with what the state
    /// database remembers of each: `SourceEventPlan` decides for each source with a feed
    /// (`DaemonEffect.storeChoice`). A source without its feed at the session start takes it
    /// when its feed arrives (`DaemonEffect.takeSessionStart`). `urlHandlers` says what on this
    /// desktop opens an action URL.
    case sourceEvent(SourceEvent, sources: [SourceContext], urlHandlers: URLHandlers)
    /// The popups of a `storeChoice`, stored with the state it left: they wait their turn, and
    /// those whose time came go out.
    case popupsChosen([PopupQueue.Item])
    /// A waiting popup the core asked for (`DaemonEffect.showWaiting`) was shown, passed over
    /// or failed.
    case waitingShown(PopupQueue.Item, ShowResult)
    /// Handling: the user answered a popup or a prompt, or an effect of handling went as it says
    /// (a prompt not shown, a URL opened or not); a `handle` or `snooze` no call waits for.
    case handling(HandlingEvent)
    /// `notify-sched handle` or `snooze`, control call `token`: `request` (`.handleRequested`,
    /// `.snoozeRequested`), the call waiting for the occurrence's answer; the daemon keeps how to
    /// reply to it under the token. Only an answer ends the wait, not the scheduled popup's
    /// closing: the prompt may still be up.
    case handleCalled(token: Int, HandlingEvent)
    /// `notify-sched test`, control call `token`: a test popup of `entry`, due at `due` (when the
    /// call came, or after its delay), on the core's own timer. The core asks for it when it is
    /// due (`DaemonEffect.showTest`); with `wait` the call then waits for the popup's outcome,
    /// else it is answered once the popup is shown.
    case testRequested(token: Int, entry: ScheduleEntry, due: Instant, wait: Bool)
    /// The test popup of control call `token` (`DaemonEffect.showTest`) was shown, under the
    /// occurrence id given, or could not be.
    case testShown(token: Int, Result<String, CoreError>)
    /// The daemon is stopping (SIGTERM or SIGINT): the control calls still waiting are answered
    /// now, since no answer would reach them later.
    case stopping
}

/// One source as a `DaemonEvent.sourceEvent` finds it.
public struct SourceContext: Sendable, Equatable {
    /// The source's index among the configured sources.
    public var source: Int
    /// What the state database remembers of it.
    public var memory: SourceMemory
    /// Its iNotify settings (periods, application version, debug).
    public var settings: INotifySettings

    public init(source: Int, memory: SourceMemory = SourceMemory(), settings: INotifySettings) {
        self.source = source
        self.memory = memory
        self.settings = settings
    }
}

/// A source's new feed, with what the state database remembers of its entries
/// (`CheckOutcome.loaded`, `SourceOpening.cachedCopy`).
public struct FeedLoad: Sendable, Equatable {
    /// The source's index among the configured sources.
    public var source: Int
    /// The schedule the feed parsed to.
    public var schedule: Schedule
    /// What each entry is settled through (`OccurrencePlanner.load`).
    public var settled: StoredSettledInstants
    /// The answers that hold for later occurrences, by entry id.
    public var answers: [String: EntryAnswer]

    public init(
        source: Int, schedule: Schedule, settled: StoredSettledInstants, answers: [String: EntryAnswer] = [:]
    ) {
        self.source = source
        self.schedule = schedule
        self.settled = settled
        self.answers = answers
    }
}
