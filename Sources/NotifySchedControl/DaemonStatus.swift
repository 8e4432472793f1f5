import NotifySchedCore

/// What the daemon's `Status` call answers, as JSON: the process, the notification server and
/// each source.
public struct DaemonStatus: Codable, Equatable, Sendable {
    /// The notification server the popups go to.
    public struct Server: Codable, Equatable, Sendable {
        public var name: String
        public var vendor: String
        public var version: String
        public var specVersion: String
        /// Sorted.
        public var capabilities: [String]

        public init(name: String, vendor: String, version: String, specVersion: String, capabilities: [String]) {
            self.name = name
            self.vendor = vendor
            self.version = version
            self.specVersion = specVersion
            self.capabilities = capabilities
        }
    }

    /// One followed feed.
    public struct Source: Codable, Equatable, Sendable {
        /// The path or URL.
        public var location: String
        /// `native`, `zbim`, `inotify` or `ismartnews`; nil when the feed could not be read.
        public var dialect: String?
        /// How many entries its schedule has (0 when it could not be read).
        public var entries: Int
        /// How its checks fare.
        public var health: SourceHealthReport
        /// The staged rollouts its entries name, each with this desktop's bucket; nil from a
        /// daemon older than this field.
        public var rollouts: [RolloutReport]?
        /// Whether its receipts are on, where they go, what waits and when they last went
        /// (`ReceiptQueueState.summary`); nil from a daemon older than this field.
        public var receipts: String?

        public init(
            location: String, dialect: String?, entries: Int, health: SourceHealthReport,
            rollouts: [RolloutReport]? = nil, receipts: String? = nil
        ) {
            self.receipts = receipts
            self.location = location
            self.dialect = dialect
            self.entries = entries
            self.health = health
            self.rollouts = rollouts
        }
    }

    /// A popup on screen waiting for an answer: `notify-sched handle` takes its occurrence id.
    public struct OnScreen: Codable, Equatable, Sendable {
        public var occurrenceID: String
        public var entryID: String
        public var source: String
        public var title: String
        /// The popup shown when it fell due, or the prompt `handle` asks with.
        public var role: PopupRole

        public init(occurrenceID: String, entryID: String, source: String, title: String, role: PopupRole) {
            self.occurrenceID = occurrenceID
            self.entryID = entryID
            self.source = source
            self.title = title
            self.role = role
        }
    }

    /// The daemon's process id.
    public var pid: Int32
    /// notify-sched's version.
    public var version: String
    /// When the daemon started, RFC 3339 UTC.
    public var startedAt: String
    /// Nil when no notification server answers on the session bus.
    public var server: Server?
    public var sources: [Source]
    /// Timed occurrences waiting in the timer wheel.
    public var pending: Int
    /// When the next one is due, RFC 3339 UTC; nil when none is.
    public var nextDeadline: String?
    /// The popups and prompts waiting for an answer, by occurrence id, the `onScreenLimit`
    /// latest; nil from a daemon older than this field.
    public var onScreen: [OnScreen]?
    /// How many times the wall-clock timer woke the daemon since it started: once per firing
    /// (popups due together share one), plus feed checks, retries and clock changes; nil from
    /// a daemon older than this field.
    public var timerWakeUps: Int?

    public init(
        pid: Int32, version: String, startedAt: String, server: Server?, sources: [Source], pending: Int,
        nextDeadline: String?, onScreen: [OnScreen]?, timerWakeUps: Int?
    ) {
        self.pid = pid
        self.version = version
        self.startedAt = startedAt
        self.server = server
        self.sources = sources
        self.pending = pending
        self.nextDeadline = nextDeadline
        self.onScreen = onScreen
        self.timerWakeUps = timerWakeUps
    }

    /// The most popups `onScreen` lists, so that the reply stays small whatever is on screen.
    public static let onScreenLimit = 200
}
