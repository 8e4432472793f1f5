import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched daemon`: follows the configured feeds and delivers every occurrence on time.
///
/// One thread, one GLib main loop (DESIGN §8). What to show, and when, is decided by its
/// `DaemonCore`, pure: the daemon hands it each event (`DaemonEvent`: a feed loaded, the timer
/// woke, a resume, a zone change, a server appearing, a session or posted event, an answer)
/// and carries out the effects it returns (`Daemon+Effects.swift`), then arms one
/// `WallClockTimer` at the core's next wake-up. At start the popups a previous daemon left
/// unanswered are taken over, then the session-start event runs the iNotify checks and the
/// iSmartNews display cycles; a resume, an unlock and a zone change come from
/// `SessionWatcher`. Popups, prompts and URLs go through a `HandlingExecutor`, which hands the
/// user's answers back to the core as events, and what they change goes to the `StateStore`.
public final class Daemon {
    /// How long a popup that could not be shown (no notification server) waits before a retry.
    static let retryDelay = OccurrencePlanner.retryDelay
    /// How old a popup a previous daemon left unanswered may be for a new daemon to take it over.
    static let takeOverWindow = TimeSpan.hours(24)
    /// How many of those popups a new daemon takes over, the most recent: a server shows a
    /// few, and each costs a call to it at every start (the others still answer to `handle`).
    static let takeOverLimit = 20

    let configuration: Configuration
    /// Where the configuration was read from, and how to read it again: an edit that changes it
    /// ends `run()` with `.restart`.
    let configurationSource: ConfigurationSource?
    /// Why `run()` returns.
    var exit = DaemonExit.stopped
    /// The GLib main loop every event comes from.
    let loop = MainLoop()
    /// The session bus, where the daemon owns its name.
    let bus = SessionBus()
    let notifier: DesktopNotifier
    let control: ControlObject
    let session = SessionWatcher()
    /// The local feed files (and their signatures) and the configuration file, watched for edits.
    let watchedFiles = FileWatcher()
    let timer: WallClockTimer
    let store: StateStore
    let loader: PortalFeedLoader
    /// The user's language, for the feeds' translations.
    let language: LanguagePreference
    /// Where log lines go, each with its priority.
    let log: DaemonLog
    /// Shows popups and prompts, opens URLs, and hands the user's answers to the core.
    let popups: HandlingExecutor
    /// How each source is checked, by its index among the configured sources.
    let sources: [FollowedSource]
    /// The daemon's decisions and the state they need (`DaemonCore`): it decides, the daemon
    /// carries out.
    var core: DaemonCore
    /// Feed checks the fetch workers finished, waiting for the loop.
    let checkResults: LoopMailbox<CheckResult>
    /// The listing order built after start on a worker thread (`prepareListingOrder(at:)`),
    /// with the planner revision it was built for.
    let preparedListingOrders: LoopMailbox<(order: ListingOrder, revision: Int)>
    /// Readable when SIGTERM or SIGINT came (`TerminationSignals`).
    let terminations: Int32
    var userZone: ZoneRules { core.planner.userZone }
    /// How source `index`'s feed is read: in its configured dialect, in the user's current zone
    /// (a calendar expression may end in its abbreviation), which the core holds.
    ///
    /// A feed's entries are mapped one after another: the start already reads its feeds side
    /// by side (`InOrderWork`), and threads within threads gave each their own malloc arena,
    /// 40 MB more at 10^6 entries for no quicker start.
    func parser(of index: Int) -> FeedParser {
        FeedParser(
            zones: zones, urlPolicy: configuration.urlPolicy, language: language, userZone: userZone,
            dialect: sources[index].dialect)
    }
    /// When the daemon started.
    let startedAt: Instant
    /// The wall clock: read once per event, when the loop takes it, and never by a decision.
    let clock: @Sendable () -> Instant
    /// How to answer each control call the core has waiting (`DaemonEvent.handleCalled`,
    /// `.testRequested`), by its token: each takes the occurrence id, the status and the report.
    var replies: [Int: (_ occurrenceID: String, _ status: String, _ report: String) -> Void] = [:]
    /// How to answer each `Sync` call the core has waiting for its checks, by its token
    /// (`DaemonEvent.syncRequested`).
    var syncReplies: [Int: ([SourceCheckReport]) -> Void] = [:]
    /// The token the next waiting control call gets.
    var nextCallToken = 0
    /// The recurring entries the start begins to follow (`DaemonEffect.follow`), stored once
    /// the start has read what it needs: the database is one queue, and a write in the
    /// background between two of the start's reads holds the second up. nil once the start is
    /// done.
    var followsAtStart: [(source: String, entries: [FollowedEntry], since: Instant)]? = []
    /// How many times the timer woke the daemon (`DaemonStatus.timerWakeUps`).
    var timerWakeUps = 0
    /// Popups shown whose deliveries wait for the ledger (`recordDeliveriesInBackground(at:)`).
    var unrecordedDeliveries: [StateStore.Delivery] = []
    /// The order of the last `List` call's listing, and the planner's revision it was computed
    /// at: the next call brings it forward rather than sorting every entry again.
    var listingOrder: (order: ListingOrder, revision: Int)?
    let zones = TimeZoneDatabase()

    /// Claims the daemon's bus name and prepares the daemon; nothing is shown until `run()`.
    ///
    /// - Parameters:
    ///   - configuration: The settings and sources (`--feed` already applied).
    ///   - paths: Where the state lives.
    ///   - environment: For the user's zone and language.
    ///   - configurationSource: The file `configuration` came from and how to read it again, to
    ///     follow its edits; nil not to.
    ///   - log: Where log lines go (standard error; journald reads it under systemd).
    ///   - clock: The wall clock, read once per event the loop takes.
    /// - Throws: `DaemonError` with `.alreadyRunning` when another daemon owns the name, or
    ///   `.unavailable` when the session bus, the state or the timer cannot be had.
    public init(
        configuration: Configuration, configurationSource: ConfigurationSource? = nil, paths: UserDirectories,
        environment: [String: String], log: DaemonLog, clock: @escaping @Sendable () -> Instant = WallClock.now
    ) throws(DaemonError) {
        self.clock = clock
        startedAt = clock()
        self.configuration = configuration
        self.configurationSource = configurationSource
        self.log = log
        notifier = DesktopNotifier(bus: bus, loop: loop)
        // The control object, then the name: a call that activated the daemon finds the object,
        // and a second daemon leaves before it touches the state.
        control = try ControlObject()
        do {
            guard try bus.claim(ControlInterface.busName) else {
                throw DaemonError(
                    .alreadyRunning,
                    "another notify-sched daemon is already running (it owns \(ControlInterface.busName))")
            }
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError(.unavailable, "\(error)", underlyingError: error)
        }
        do {
            timer = try WallClockTimer()
            store = try StateStore(path: paths.stateDatabase)
            checkResults = try LoopMailbox()
            preparedListingOrders = try LoopMailbox()
            terminations = try TerminationSignals.catchSignals()
            // The fetcher's thread starts only when a feed is a URL.
            let fetcher =
                configuration.sources.contains { SourceLocation.isURL($0.feed) } ? try FeedFetcher() : nil
            loader = PortalFeedLoader(fetcher: fetcher, directories: paths)
        } catch {
            // Each of these errors describes itself by its message, naming the file or the cause.
            throw DaemonError(.unavailable, "\(error)", underlyingError: error)
        }
        let userZone = SystemTimeZone.current(environment: environment, database: zones)
        language = LanguagePreference.fromEnvironment(environment)
        Self.moveStateToCanonicalLocations(in: store, log: log)
        var followed: [FollowedSource] = []
        var polled: [SourcePolling.Source] = []
        for configured in configuration.sources {
            let (source, refusal) = FollowedSource.reading(configured, log: log)
            followed.append(source)
            polled.append(
                SourcePolling.Source(
                    health: Self.storedHealth(of: configured.feed, in: store, log: log),
                    settings: configured.settings, refusal: refusal))
        }
        sources = followed
        let planner = OccurrencePlanner(
            sources: configuration.sources.map {
                OccurrencePlanner.Source(
                    location: $0.feed, applicationVersion: $0.settings.iNotify.applicationVersion,
                    remindPeriod: $0.settings.iNotify.remindPeriod)
            },
            now: startedAt, userZone: userZone, quietHours: configuration.quietHours)
        let policy = HandlingPolicy(
            catalog: TranslationCatalogs.catalog(environment: environment), urlPolicy: configuration.urlPolicy,
            customLabels: configuration.customButtonLabels, snoozeChoices: configuration.snoozeChoices)
        core = DaemonCore(
            planner: planner, polling: SourcePolling(sources: polled, seed: .random(in: .min ... .max)),
            seed: .random(in: .min ... .max), configuration: configuration,
            followsSystemZone: environment["TZ"] == nil, handlingPolicy: policy)
        popups = HandlingExecutor(policy: policy, notifier: notifier)
        popups.screen = { [unowned self] in self.core.handling }
        popups.note = { [unowned self] in self.core.note($0) }
        popups.respond = { [unowned self] in self.perform(.handling($0), at: self.clock()) }
        control.answer = { [unowned self] call in try self.answer(call) }
    }

    /// Loads the feeds, delivers what is due and runs until SIGTERM or SIGINT, or until an edit
    /// changed the configuration.
    ///
    /// - Returns: `.restart` with the new configuration when it changed: the caller releases
    ///   this daemon and starts a new one in the same process, which keeps the bus name (so that
    ///   systemd, which watches the name of a `Type=dbus` unit, sees one daemon throughout).
    public func run() -> DaemonExit {
        // AsyncHTTPClient must be shut down before it is released, whichever way this returns.
        defer {
            loader.fetcher?.shutdown()
            control.close()
        }
        loop.onTermination(terminations) { [unowned self] in
            if TerminationSignals.take() { stop(.stopped) }
        }
        loop.watchReadable(timer.fileDescriptor) { [unowned self] in self.timerWoke() }
        loop.watchReadable(checkResults.fileDescriptor) { [unowned self] in self.checkResultsArrived() }
        loop.watchReadable(preparedListingOrders.fileDescriptor) { [unowned self] in
            self.preparedListingOrderArrived()
        }
        notifier.onServerChange = { [unowned self] server in
            self.log.notice("notification server: \(server?.summary ?? "none")")
            // Popups that waited for a server go out now rather than at their next retry.
            if server != nil {
                let now = self.clock()
                self.recordPopupIDs(at: now)
                self.perform(.serverAppeared, at: now)
            }
        }
        watchSession()
        watchFeedFiles()
        watchConfiguration()
        let now = clock()
        loadSources(at: now)
        loadWaitingPopups(at: now)
        // The popups left on screen first: an iNotify check then knows its message is there.
        takeOverPopups(at: now)
        sessionEvent("session:start", countsAsRun: true, at: now)
        perform(.started, at: now)
        let held = followsAtStart.take() ?? []
        for follows in held { follow(follows.entries, of: follows.source, since: follows.since) }
        log.notice(
            "ready: \(core.planner.pendingCount) pending, next at \(core.planner.nextDeadline?.rfc3339 ?? "none")"
        )
        // Parsing a big feed peaks well above what the schedule keeps: the freed pages go back
        // once the timer is armed (unmapping those of 10^6 entries takes 10 ms), and after the
        // writes of the entries followed, which hold their ids, on their thread.
        if held.isEmpty { FreedMemory.release() } else { store.afterBackgroundWrites { FreedMemory.release() } }
        prepareListingOrder(at: now)
        loop.run()
        return exit
    }

    /// Answers what still waits, sends it and ends the loop: `run()` then returns `exit`.
    func stop(_ exit: DaemonExit) {
        log.notice(exit == .stopped ? "stopping" : "restarting to apply the new configuration")
        self.exit = exit
        // A SIGTERM gives the server a moment only, as to a call under way when it comes.
        notifier.awaitAnswers(stopping: exit == .stopped)
        perform(.stopping, at: clock())
        recordDeliveries()
        store.finishBackgroundWrites()
        bus.flush()
        loop.stop()
    }
}

/// Why `Daemon.run()` returned.
public enum DaemonExit: Sendable, Equatable {
    /// SIGTERM or SIGINT.
    case stopped
    /// The configuration file changed to this: start a new daemon to follow it.
    case restart(Configuration)
}

/// Where the daemon's configuration comes from, to follow the file's edits.
public struct ConfigurationSource: Sendable {
    /// The configuration file, which may not exist yet.
    public var path: String
    /// Reads it again as the daemon was given it (`--feed` applied): the configuration, or
    /// nil when the file has errors; and its problems, a line each.
    public var read: @Sendable () -> (configuration: Configuration?, problems: [String])

    public init(path: String, read: @escaping @Sendable () -> (configuration: Configuration?, problems: [String])) {
        self.path = path
        self.read = read
    }
}
