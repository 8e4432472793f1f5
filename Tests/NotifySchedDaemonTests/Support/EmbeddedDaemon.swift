import Foundation
import Glibc
import NotifySchedControl
import NotifySchedCore
import NotifySchedDaemon
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore
import NotifySchedTesting
import Synchronization
import Testing

/// The real daemon driver (`DaemonDriver`), embedded in a test: a manual clock, a recording
/// desktop, a manual timer, the feeds as files and the state database in a fresh folder.
/// Time passes only through `advance(to:)`, which fires the timer at each deadline the driver
/// armed on the way, so a month of schedule runs in milliseconds; a kill drops the driver as
/// `kill -9` does, and a new one starts on the same state and the same desktop.
final class EmbeddedDaemon {
    let clock: ManualClock
    let desktop: RecordingDesktop
    let timer = ManualTimer()
    let watches = RecordedWatches()
    /// Where the feeds and the state live.
    let folder: String
    let configuration: Configuration
    private let environment: [String: String]
    /// Sees each decision of every driver started (`DaemonPorts.decisions`).
    private let decisions: (any DecisionObserver)?
    /// Where receipts are posted.
    let collector: TestCollector
    private let logged = LoggedLines()
    /// The driver running now; a new one after each restart.
    private(set) var driver: DaemonDriver!
    /// Its state database.
    private(set) var store: StateStore!
    /// Whether the driver runs: started, and neither stopped nor killed since.
    private(set) var running = false

    /// Writes `feeds` (a name and a text each) as files, and `folders` of calendar items, and
    /// starts a driver following them, at `start`, with `zone` the system's zone (`TZ` unset).
    ///
    /// - Parameters:
    ///   - serverRunning: Whether a notification server runs at the start.
    ///   - decisions: Sees each decision of every driver started.
    ///   - configure: Changes the configuration the feeds make before the start.
    init(
        feeds: [(name: String, text: String)], folders: [(name: String, items: [(name: String, text: String)])] = [],
        at start: Instant, zone: String = "UTC", serverRunning: Bool = true,
        decisions: (any DecisionObserver)? = nil, configure: (inout Configuration) -> Void = { _ in }
    ) throws {
        // tmpfs where there is one: the state database syncs every commit.
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let folder = base + "/notify-sched-embedded-\(UUID().uuidString)"
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var configuration = Configuration(
            sources: (feeds.map(\.name) + folders.map(\.name)).map {
                SourceConfiguration(name: $0, feed: folder + "/" + $0)
            })
        configure(&configuration)
        self.configuration = configuration
        for feed in feeds { try feed.text.write(toFile: folder + "/" + feed.name, atomically: true, encoding: .utf8) }
        for calendars in folders {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + calendars.name, withIntermediateDirectories: true)
            for item in calendars.items {
                try item.text.write(
                    toFile: folder + "/" + calendars.name + "/" + item.name, atomically: true, encoding: .utf8)
            }
        }
        try Self.link(folder + "/localtime", toZone: zone)
        environment = ["LANG": "C.UTF-8"]
        self.decisions = decisions
        clock = ManualClock(start)
        collector = TestCollector(clock: clock.read)
        desktop = RecordingDesktop(clock: clock)
        if !serverRunning { desktop.server = nil }
        try startDriver()
    }

    deinit {
        if running { driver.stop(.stopped) }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The path of the feed `name`.
    func path(of name: String) -> String { folder + "/" + name }

    /// What the driver logged, a line each.
    var log: [String] { logged.lines.withLock { $0 } }

    /// The popups the server took, in order.
    var shown: [RecordingDesktop.Shown] { desktop.shown }

    /// The scheduled popups (not prompts) the server took titled `title`, in order.
    func shown(titled title: String) -> [RecordingDesktop.Shown] {
        desktop.shown.filter { $0.popup.summary == title && $0.popup.role == .scheduled }
    }

    /// The ledger's outcome of each occurrence of the feed `name`, newest first.
    func ledger(of name: String) throws -> [(entryID: String, outcome: LedgerOutcome)] {
        try store.history(since: Instant(secondsSinceEpoch: 0), source: path(of: name)).map {
            ($0.record.entryID, $0.record.outcome)
        }
    }

    /// Lets virtual time pass until `instant`, firing the timer at each deadline the driver
    /// arms on the way, and handing the driver the checks its workers finish.
    func advance(to instant: Instant) {
        var firedAtOnce = 0
        while let deadline = timer.deadline, deadline <= instant {
            firedAtOnce = deadline > clock.now ? 0 : firedAtOnce + 1
            guard firedAtOnce < 100_000 else {
                Issue.record("the timer fires again and again at \(clock.now.rfc3339)")
                return
            }
            fireTimer()
        }
        if instant > clock.now { clock.set(instant) }
        awaitChecks()
    }

    /// How often the timer fired.
    private(set) var timerFires = 0

    /// Fires the timer at its deadline (the clock moves there, unless it is past already).
    func fireTimer() {
        timerFires += 1
        if let deadline = timer.deadline, deadline > clock.now { clock.set(deadline) }
        driver.timerWoke(.expired)
        awaitChecks()
    }

    /// Lets `span` of virtual time pass (`advance(to:)`).
    func advance(by span: TimeSpan) {
        advance(to: clock.now + span)
    }

    /// Calls the control interface, as the CLI does.
    ///
    /// - Returns: The reply: at once, or filled in when the driver answers later.
    @discardableResult
    func call(_ call: ControlCall) throws -> Reply {
        let reply = Reply()
        if let atOnce = try driver.answer(call, reply: { [reply] in reply.value = $0 }) { reply.value = atOnce }
        awaitChecks()
        return reply
    }

    /// A control call's reply, filled in when it comes.
    final class Reply {
        var value: ControlReply?
    }

    /// Writes `text` as the feed `name` and reports the edit to the driver.
    func edit(_ name: String, to text: String) throws {
        try write(name, text)
        watches.changed(path(of: name))
        awaitChecks()
    }

    /// Writes `text` as the item `item` of the folder of calendar items `name`, and reports the
    /// folder's change to the driver.
    func edit(_ item: String, inFolder name: String, to text: String) throws {
        try write(name + "/" + item, text)
        watches.changed(path(of: name))
        awaitChecks()
    }

    /// Writes `text` as the feed `name`, as while no daemon runs.
    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path(of: name), atomically: true, encoding: .utf8)
    }

    /// Answers the popup `key` on screen, as the user at the desktop does.
    func answer(_ key: PopupKey, _ response: PopupResponse) {
        desktop.answer(key, response)
        awaitChecks()
    }

    /// The session resumes from suspend, as logind reports it.
    func resume() {
        driver.resumed()
        awaitChecks()
    }

    /// The screen is unlocked, as the session reports it.
    func unlock() {
        driver.unlocked()
        awaitChecks()
    }

    /// Kills the driver as `kill -9` does (what it wrote stays written; the deliveries it had
    /// not written yet are lost; its popups stay on screen, unheard) and starts a new one on
    /// the same state and desktop, at the clock's instant.
    func killAndRestart() throws {
        kill()
        try startDriver()
    }

    /// Stops the driver as SIGTERM does and starts a new one on the same state and desktop.
    func stopAndRestart() throws {
        stop()
        try start()
    }

    /// Stops the driver as SIGTERM does; its popups stay on screen, unheard, until `start()`.
    func stop() {
        running = false
        driver.stop(.stopped)
        desktop.daemonKilled()
        watches.reset()
    }

    /// Starts a new driver on the same state and desktop, at the clock's instant, after `stop()`.
    func start() throws {
        try startDriver()
    }

    /// Kills the driver as `kill -9` does (`killAndRestart()`), without starting another.
    func kill() {
        running = false
        desktop.daemonKilled()
        watches.reset()
        store.finishBackgroundWrites()
    }

    /// The system's zone changes to `name` (`/etc/localtime` links to it from now on), as
    /// timedated reports it.
    func changeSystemZone(to name: String, running: Bool = true) throws {
        try FileManager.default.removeItem(atPath: folder + "/localtime")
        try Self.link(folder + "/localtime", toZone: name)
        if running { driver.zoneChanged(to: nil) }
    }

    /// Steps the wall clock by `step` (back when negative), as the kernel reports it to the timer.
    func stepClock(by step: TimeSpan) {
        clock.set(clock.now + step)
        driver.timerWoke(.clockChanged)
        awaitChecks()
    }

    private static func link(_ path: String, toZone name: String) throws {
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/usr/share/zoneinfo/" + name)
    }

    /// Hands the driver every check and upload its workers run, waiting for each.
    private func awaitChecks() {
        while driver.core.polling.isChecking || driver.core.isUploadingReceipts {
            var ready = pollfd(fd: driver.workResults.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 10_000) == 1 else {
                Issue.record("a check or an upload did not finish within 10 s")
                return
            }
            driver.workResultsArrived()
        }
    }

    /// An empty state database of the current schema, made once per test process: each new
    /// daemon starts on a copy rather than running every migration again, which took a fifth of
    /// a generated month's time.
    private static let migratedState = Result<Data, any Error> {
        let path = NSTemporaryDirectory() + "/notify-sched-embedded-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Closed at once, which checkpoints the write-ahead log into the file.
        _ = try StateStore(path: path)
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Starts a new driver on the state in `folder`, at the clock's instant.
    private func startDriver() throws {
        let paths = UserDirectories(
            configuration: folder + "/config", cache: folder + "/cache", state: folder + "/state")
        let logged = logged
        if !FileManager.default.fileExists(atPath: paths.stateDatabase) {
            try FileManager.default.createDirectory(atPath: paths.state, withIntermediateDirectories: true)
            try Self.migratedState.get().write(to: URL(fileURLWithPath: paths.stateDatabase))
        }
        store = try StateStore(path: paths.stateDatabase)
        driver = try DaemonDriver(
            configuration: configuration, environment: environment,
            log: DaemonLog(environment: [:]) { line in logged.lines.withLock { $0.append(line) } },
            ports: DaemonPorts(
                desktop: desktop, timer: timer, files: watches, store: store,
                loader: PortalFeedLoader(fetcher: nil, directories: paths), clock: clock.read,
                // The test is the loop: there is none to end.
                localtimePath: folder + "/localtime", stopLoop: {}, decisions: decisions, collector: collector),
            install: try InstallIdentity.load(inFolder: paths.state))
        driver.start()
        running = true
        awaitChecks()
    }
}

/// The lines a driver logged, from whichever thread logs them.
private final class LoggedLines: Sendable {
    let lines = Mutex<[String]>([])
}
