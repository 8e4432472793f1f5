import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched daemon`: follows the configured feeds and delivers every occurrence on time.
///
/// One thread, one GLib main loop (DESIGN §8). This is the host: it owns the loop, the session
/// bus and the daemon's name on it, the control object, the wall-clock timer, the session
/// watcher and the signals, and hands each of their events to its `DaemonDriver`, which hands
/// it to the core and carries out what the core decides.
public final class Daemon {
    /// The GLib main loop every event comes from.
    private let loop = MainLoop()
    /// The session bus, where the daemon owns its name.
    private let bus = SessionBus()
    private let control: ControlObject
    private let session = SessionWatcher()
    private let timer: WallClockTimer
    /// Readable when SIGTERM or SIGINT came (`TerminationSignals`).
    private let terminations: Int32
    private let driver: DaemonDriver

    /// Claims the daemon's bus name and prepares the daemon; nothing is shown until `run()`.
    ///
    /// - Parameters:
    ///   - configuration: The settings and sources (`--feed` already applied).
    ///   - configurationSource: The file `configuration` came from and how to read it again, to
    ///     follow its edits; nil not to.
    ///   - paths: Where the state lives.
    ///   - environment: For the user's zone and language.
    ///   - log: Where log lines go (standard error; journald reads it under systemd).
    ///   - clock: The wall clock, read once per event the loop takes.
    /// - Throws: `DaemonError` with `.alreadyRunning` when another daemon owns the name, or
    ///   `.unavailable` when the session bus, the state or the timer cannot be had.
    public init(
        configuration: Configuration, configurationSource: ConfigurationSource? = nil, paths: UserDirectories,
        environment: [String: String], log: DaemonLog, clock: @escaping @Sendable () -> Instant = WallClock.now
    ) throws(DaemonError) {
        let notifier = DesktopNotifier(bus: bus, loop: loop)
        // The control object, then the name: a call that activated the daemon finds the object,
        // and a second daemon leaves before it touches the state.
        control = try ControlObject(urlPolicy: configuration.urlPolicy)
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
        let store: StateStore
        let loader: PortalFeedLoader
        let fetcher: FeedFetcher?
        do {
            timer = try WallClockTimer()
            store = try StateStore(path: paths.stateDatabase)
            terminations = try TerminationSignals.catchSignals()
            // The fetcher's thread starts only when a feed is a URL, or receipts are posted.
            fetcher =
                configuration.sources.contains { SourceLocation.isURL($0.feed) }
                    || !configuration.receiptSources.isEmpty
                ? try FeedFetcher() : nil
            loader = PortalFeedLoader(fetcher: fetcher, directories: paths)
        } catch {
            // Each of these errors describes itself by its message, naming the file or the cause.
            throw DaemonError(.unavailable, "\(error)", underlyingError: error)
        }
        let (bus, loop) = (bus, loop)
        var install: InstallIdentity?
        do {
            install = try InstallIdentity.load(inFolder: paths.state)
        } catch {
            log.error("\(error.message); entries with a rollout are not shown")
        }
        driver = try DaemonDriver(
            configuration: configuration, configurationSource: configurationSource, environment: environment,
            log: log,
            ports: DaemonPorts(
                desktop: notifier, timer: timer, files: FileWatcher(), store: store, loader: loader, clock: clock,
                stopLoop: {
                    bus.flush()
                    loop.stop()
                }, collector: configuration.receiptSources.isEmpty ? nil : fetcher),
            install: install)
        control.answer = { [unowned driver] in try driver.answer($0, reply: $1) }
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
            driver.loader.fetcher?.shutdown()
            control.close()
        }
        let (driver, timer) = (driver, timer)
        loop.onTermination(terminations) { [unowned driver] in
            if TerminationSignals.take() { driver.stop(.stopped) }
        }
        loop.watchReadable(timer.fileDescriptor) { [unowned driver] in driver.timerWoke(timer.acknowledge()) }
        loop.watchReadable(driver.workResults.fileDescriptor) { [unowned driver] in driver.workResultsArrived() }
        loop.watchReadable(driver.preparedListingOrders.fileDescriptor) { [unowned driver] in
            driver.preparedListingOrderArrived()
        }
        session.onStatus = { [log = driver.log] status in log.info("\(status)") }
        session.onResume = { [unowned driver] in driver.resumed() }
        session.onUnlock = { [unowned driver] in driver.unlocked() }
        session.onZoneChange = { [unowned driver] name in driver.zoneChanged(to: name) }
        session.start()
        driver.start()
        loop.run()
        return driver.exit
    }
}
