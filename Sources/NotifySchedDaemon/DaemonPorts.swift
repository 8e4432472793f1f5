import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// What the driver needs of the desktop beside handling's `Notifier`: which server instance
/// runs, the ids it gave the popups, and when the answers to the popups sent come back.
///
/// `DesktopNotifier` is the desktop's, through libnotify; a test gives a recording one.
public protocol DesktopPort: Notifier {
    /// Called on the loop when the notification server appears (with it), goes away (nil) or
    /// is replaced.
    var onServerChange: (NotificationServer?) -> Void { get set }
    /// The running server's instance (the bus and its owner's unique name): a popup shown by
    /// another instance is no longer on screen.
    var serverInstance: String? { get }
    /// The server's id of the popup `key`, while it waits for an answer.
    func popupID(of key: PopupKey) -> UInt32?
    /// The server's ids of every popup waiting for an answer.
    var popupIDs: [PopupKey: UInt32] { get }
    /// Takes the server's answers to the popups sent and not answered yet; `stopping`, the
    /// server has a moment only.
    func awaitAnswers(stopping: Bool)
    /// Which of `schemes` the desktop has a default handler for now.
    func urlHandlers(among schemes: Set<String>) -> URLHandlers
    /// Runs `body`, whose calls to the server leave no earlier than `instant`.
    func holdingCalls<Result>(until instant: Instant, _ body: () -> Result) -> Result
}

extension DesktopPort {
    /// Takes the server's answers to the popups sent and not answered yet.
    func awaitAnswers() {
        awaitAnswers(stopping: false)
    }
}

extension DesktopNotifier: DesktopPort {}

/// The one timer the driver arms, at the core's next deadline; the host hands its expiry (or a
/// step of the wall clock) back with `DaemonDriver.timerWoke(_:)`.
public protocol WakeUpTimer: AnyObject {
    /// Arms the timer for `instant`, or for no wake-up when nil.
    func arm(at instant: Instant?)
}

extension WallClockTimer: WakeUpTimer {}

/// Watches files for edits: the feeds the driver follows and the configuration file.
public protocol FileWatching: AnyObject {
    /// Calls `onChange` on the loop after the file at `path` changed, was replaced, created or
    /// removed.
    ///
    /// - Returns: false when it cannot be watched.
    @discardableResult
    func watch(_ path: String, settle: TimeSpan, _ onChange: @escaping () -> Void) -> Bool
}

extension FileWatching {
    /// Watches `path`, reporting a burst of events once, 100 ms after the last.
    @discardableResult
    func watch(_ path: String, _ onChange: @escaping () -> Void) -> Bool {
        watch(path, settle: .milliseconds(100), onChange)
    }
}

extension FileWatcher: FileWatching {}

/// Everything outside the driver it acts through: the desktop, the timer, the files watched,
/// the state database, the feed loader, the wall clock, the system's zone, and how its loop
/// stops. `Daemon`
/// gives the real ones; a test gives recording ones and a manual clock, and drives the same
/// driver in virtual time.
public struct DaemonPorts {
    public var desktop: any DesktopPort
    public var timer: any WakeUpTimer
    public var files: any FileWatching
    public var store: StateStore
    public var loader: PortalFeedLoader
    /// The wall clock: read once per event, when the loop takes it, and never by a decision.
    public var clock: @Sendable () -> Instant
    /// Ends the loop the driver runs on, once it has stopped (`DaemonDriver.stop(_:)`).
    public var stopLoop: () -> Void
    /// The link that names the system's zone, read when `TZ` is unset.
    public var localtimePath: String
    /// Sees each decision as it is made, to record or check it: nil in the daemon.
    public var decisions: (any DecisionObserver)?
    /// Where receipts are posted: nil when no source's receipts are on.
    public var collector: (any ReceiptCollector)?

    public init(
        desktop: any DesktopPort, timer: any WakeUpTimer, files: any FileWatching, store: StateStore,
        loader: PortalFeedLoader, clock: @escaping @Sendable () -> Instant, localtimePath: String = "/etc/localtime",
        stopLoop: @escaping () -> Void, decisions: (any DecisionObserver)? = nil,
        collector: (any ReceiptCollector)? = nil
    ) {
        self.collector = collector
        self.desktop = desktop
        self.timer = timer
        self.files = files
        self.store = store
        self.loader = loader
        self.clock = clock
        self.stopLoop = stopLoop
        self.localtimePath = localtimePath
        self.decisions = decisions
    }
}

/// Posts a receipts' body to a collector, blocking its thread until it answered: the network
/// (`FeedFetcher`), or a test's collector.
public protocol ReceiptCollector: Sendable {
    /// Posts `body` to `endpoint`.
    ///
    /// - Throws: `NetworkError` when the collector did not answer 2xx, or could not be reached.
    func post(_ body: String, to endpoint: String) throws(NetworkError)
}

extension FeedFetcher: ReceiptCollector {}

/// Sees each decision of the core as the driver asks for it: the event and its instant with the
/// core as it stands, then the effects it returned. One decision ends before the next begins.
public protocol DecisionObserver: AnyObject {
    /// The driver hands `event` to `core` at `instant`.
    func deciding(_ event: DaemonEvent, at instant: Instant, core: borrowing DaemonCore)
    /// The core decided `effects` about the event it was handed last.
    func decided(_ effects: [DaemonEffect])
}
