import NotifySchedControl
import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// The daemon's driver: it hands the core (`DaemonCore`, pure, where every decision is) each
/// event with the wall clock read once, and carries out the effects it returns
/// (`DaemonDriver+Effects.swift`), then arms its one timer at the core's next wake-up.
///
/// Everything it acts through is a port (`DaemonPorts`): `Daemon` runs it on the GLib loop
/// with the desktop's notifier, a wall-clock timer and the state database; a test runs the
/// same driver with a recording desktop and a manual clock, in virtual time. At start the
/// popups a previous daemon left unanswered are taken over, then the session-start event runs
/// the iNotify checks and the iSmartNews display cycles. Popups, prompts and URLs go through a
/// `HandlingExecutor`, which hands the user's answers back to the core as events, and what
/// they change goes to the `StateStore`.
public final class DaemonDriver {
    /// How long a popup that could not be shown (no notification server) waits before a retry.
    static let retryDelay = OccurrencePlanner.retryDelay
    /// How old a popup a previous daemon left unanswered may be for a new daemon to take it over.
    static let takeOverWindow = TimeSpan.hours(24)
    /// How many of those popups a new daemon takes over, the most recent: a server shows a
    /// few, and each costs a call to it at every start (the others still answer to `handle`).
    static let takeOverLimit = 20

    let configuration: Configuration
    /// Where the configuration was read from, and how to read it again: an edit that changes it
    /// stops the driver with `.restart`.
    let configurationSource: ConfigurationSource?
    /// Why the driver stopped (`stop(_:)`).
    public private(set) var exit = DaemonExit.stopped
    let notifier: any DesktopPort
    let timer: any WakeUpTimer
    /// The local feed files (and their signatures) and the configuration file, watched for edits.
    let watchedFiles: any FileWatching
    let store: StateStore
    let loader: PortalFeedLoader
    /// Where receipts are posted; nil when no source's receipts are on.
    let collector: (any ReceiptCollector)?
    let stopLoop: () -> Void
    /// Sees each decision (`DaemonPorts.decisions`).
    let decisions: (any DecisionObserver)?
    /// The link that names the system's zone (`DaemonPorts.localtimePath`).
    let localtimePath: String
    /// The user's language, for the feeds' translations.
    let language: LanguagePreference
    /// Where log lines go, each with its priority.
    let log: DaemonLog
    /// Shows popups and prompts, opens URLs, and hands the user's answers to the core.
    let popups: HandlingExecutor
    /// How each source is checked, by its index among the configured sources.
    let sources: [FollowedSource]
    /// The daemon's decisions and the state they need (`DaemonCore`): it decides, the driver
    /// carries out.
    public internal(set) var core: DaemonCore
    /// Feed checks and receipts' uploads the workers finished, waiting for the loop (`workResultsArrived()`).
    public let workResults: LoopMailbox<WorkResult>
    /// The listing order built after start on a worker thread (`prepareListingOrder(at:)`),
    /// with the planner revision it was built for (`preparedListingOrderArrived()`).
    public let preparedListingOrders: LoopMailbox<(order: ListingOrder, revision: Int)>
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
            dialect: sources[index].dialect, alarmPolicy: sources[index].alarms)
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

    /// Prepares the driver; nothing is read or shown until `start()`.
    ///
    /// - Parameters:
    ///   - configuration: The settings and sources (`--feed` already applied).
    ///   - configurationSource: The file `configuration` came from and how to read it again, to
    ///     follow its edits; nil not to.
    ///   - environment: For the user's zone and language.
    ///   - log: Where log lines go (standard error; journald reads it under systemd).
    ///   - ports: What it acts through.
    ///   - install: The desktop's install id, which places it in rollouts; nil when it could
    ///     not be had: no entry with a rollout shows.
    /// - Throws: `DaemonError` with `.unavailable` when its mailboxes cannot be had.
    public init(
        configuration: Configuration, configurationSource: ConfigurationSource? = nil,
        environment: [String: String], log: DaemonLog, ports: DaemonPorts, install: InstallIdentity?
    ) throws(DaemonError) {
        clock = ports.clock
        startedAt = clock()
        self.configuration = configuration
        self.configurationSource = configurationSource
        self.log = log
        notifier = ports.desktop
        timer = ports.timer
        watchedFiles = ports.files
        store = ports.store
        loader = ports.loader
        collector = ports.collector
        stopLoop = ports.stopLoop
        decisions = ports.decisions
        do {
            workResults = try LoopMailbox()
            preparedListingOrders = try LoopMailbox()
        } catch {
            throw DaemonError(.unavailable, error.message, underlyingError: error)
        }
        localtimePath = ports.localtimePath
        let userZone = SystemTimeZone.current(environment: environment, database: zones, localtimePath: localtimePath)
        language = LanguagePreference.fromEnvironment(environment)
        Self.moveStateToCanonicalLocations(in: store, log: log)
        // Nothing queued for a source whose receipts are off now is ever sent.
        do {
            try store.discardReceipts(keeping: configuration.receiptSources)
        } catch {
            log.error(error.message)
        }
        var followed: [FollowedSource] = []
        var polled: [SourcePolling.Source] = []
        for configured in configuration.sources {
            let (source, refusal) = FollowedSource.reading(configured, log: log)
            followed.append(source)
            polled.append(
                SourcePolling.Source(
                    health: Self.storedHealth(of: configured.feed, in: store, log: log),
                    settings: configured.settings, refusal: refusal, isSigned: configured.publicKey != nil))
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
            followsSystemZone: environment["TZ"] == nil, handlingPolicy: policy, installID: install?.id,
            environment: Self.targetingEnvironment(environment, language: language, install: install))
        popups = HandlingExecutor(policy: policy, notifier: notifier)
        popups.screen = { [unowned self] in self.core.handling }
        popups.note = { [unowned self] in self.core.note($0) }
        popups.respond = { [unowned self] in self.perform(.handling($0), at: self.clock()) }
    }

    /// Loads the feeds, takes over the popups a previous daemon left, runs the session-start
    /// event, delivers what is due and arms the timer: the loop's events follow.
    public func start() {
        notifier.onServerChange = { [unowned self] server in
            self.log.notice("notification server: \(server?.summary ?? "none")")
            // Popups that waited for a server go out now rather than at their next retry.
            if let server {
                let now = self.clock()
                self.recordPopupIDs(at: now)
                self.perform(.serverAppeared(server), at: now)
            }
        }
        watchFeedFiles()
        watchConfiguration()
        let now = clock()
        perform(.serverKnown(try? notifier.currentServer()), at: now)
        loadImpressions(at: now)
        loadReceipts(at: now)
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
    }

    /// What targeting expressions may ask of this desktop: the session's environment, the
    /// system's os-release(5), the install id's age; the notification server comes at start.
    static func targetingEnvironment(
        _ environment: [String: String], language: LanguagePreference, install: InstallIdentity?
    ) -> TargetingEnvironment {
        let release = ["/etc/os-release", "/usr/lib/os-release"].lazy.compactMap {
            try? FeedFile.read($0, maxBytes: 64 * 1024)
        }.first.map { TargetingEnvironment.osRelease(String(decoding: $0, as: UTF8.self)) }
        return TargetingEnvironment(
            language: language, desktop: environment["XDG_CURRENT_DESKTOP"] ?? "",
            session: environment["XDG_SESSION_TYPE"] ?? "", osID: release?.id ?? "", osVersion: release?.version ?? "",
            installedAt: install?.madeAt)
    }

    /// Answers what still waits, sends it and ends the loop (`DaemonPorts.stopLoop`); `exit`
    /// then says why.
    public func stop(_ exit: DaemonExit) {
        log.notice(exit == .stopped ? "stopping" : "restarting to apply the new configuration")
        self.exit = exit
        // A SIGTERM gives the server a moment only, as to a call under way when it comes.
        notifier.awaitAnswers(stopping: exit == .stopped)
        perform(.stopping, at: clock())
        recordDeliveries()
        store.finishBackgroundWrites()
        stopLoop()
    }
}

/// Why `Daemon.run()` returned, and the driver stopped.
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
