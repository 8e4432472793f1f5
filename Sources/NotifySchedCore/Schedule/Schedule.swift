/// Everything one feed asks for: its entries and the feed-wide settings of its dialect.
///
/// A `Schedule` is what parsing produces and what the rest of notify-sched consumes; it holds
/// no state of what was already delivered (that lives in the daemon's ledger).
public struct Schedule: Sendable, Equatable {
    /// The feed's path or URL, as the user named it.
    public var source: String
    /// The dialect the feed was written in.
    public var dialect: FeedDialect
    /// The document format it was read from.
    public var format: FeedFormat
    /// The entries in feed order.
    public var entries: [ScheduleEntry]
    /// The feed's monotonic `version`, used for rollback protection of signed feeds.
    public var version: Int64?
    /// When the feed stops being valid (freeze protection of signed feeds).
    public var expires: Instant?
    /// iSmartNews feed-wide settings; nil for other dialects.
    public var news: NewsSettings?
    /// The groups a portal feed defines (`groups`), which its entries name.
    public var groups: [MessageGroup]
    /// How often a calendar asks to be fetched again (`REFRESH-INTERVAL`, `X-PUBLISHED-TTL`),
    /// kept within the polling bounds as a portal's `Cache-Control` is.
    public var refreshInterval: TimeSpan?
    /// Where a portal feed asks its receipts to go, and why (`receipts`).
    public var receipts: FeedReceipts?

    public init(
        source: String, dialect: FeedDialect, format: FeedFormat, entries: [ScheduleEntry],
        version: Int64? = nil, expires: Instant? = nil, news: NewsSettings? = nil, groups: [MessageGroup] = [],
        refreshInterval: TimeSpan? = nil, receipts: FeedReceipts? = nil
    ) {
        self.refreshInterval = refreshInterval
        self.receipts = receipts
        self.source = source
        self.dialect = dialect
        self.format = format
        self.entries = entries
        self.version = version
        self.expires = expires
        self.news = news
        self.groups = groups
    }
}

/// The feed dialects notify-sched reads (DESIGN §4).
public enum FeedDialect: String, Sendable, CaseIterable {
    /// The native portal feed: `{"notifications": [...]}` with `id`-keyed entries.
    case native
    /// A portal feed whose entries are all in the ZBiM SDK's flat form (`uuid`, `uri`, `year`…`minute`).
    case zbim
    /// An iNotify plist: a dictionary of key → message.
    case iNotify = "inotify"
    /// An iSmartNews plist: an array of messages, meta items, events and settings.
    case iSmartNews = "ismartnews"
    /// An iCalendar calendar (RFC 5545): each alarm of an event or to-do is an entry.
    case iCalendar = "icalendar"
}

extension FeedDialect {
    /// Whether each entry of this dialect keeps its own answers: acted on, ignored, reminded or
    /// snoozed (portal, ZBiM and calendar entries). iNotify's reminder is its source's, and
    /// iSmartNews keeps the set of messages shown.
    public var keepsAnswersPerEntry: Bool {
        switch self {
        case .native, .zbim, .iCalendar: true
        case .iNotify, .iSmartNews: false
        }
    }
}

/// iSmartNews settings that apply to the whole feed (seed semantics §2.3, §2.7).
public struct NewsSettings: Sendable, Equatable {
    /// The feed's global events; the defaults when the feed names none.
    public var globalEvents: [EventRule]
    /// Whether `globalEvents` are the defaults rather than the feed's own.
    public var usesDefaultEvents: Bool
    /// At most this many messages per display cycle; nil means unlimited.
    public var gate: Int?
    /// Rotation queues with their delays.
    public var queues: [NewsQueue]

    public init(globalEvents: [EventRule], usesDefaultEvents: Bool, gate: Int? = nil, queues: [NewsQueue] = []) {
        self.globalEvents = globalEvents
        self.usesDefaultEvents = usesDefaultEvents
        self.gate = gate
        self.queues = queues
    }

    /// The events an iSmartNews feed without global events gets: each `ON=1`.
    public static let defaultEventNames = [
        SeedEventNames.activate, SeedEventNames.launch, SeedEventNames.launchAfterUpgrade,
    ]
}

/// An iSmartNews queue: messages sharing a name show one per cycle, in rotation.
public struct NewsQueue: Sendable, Equatable {
    public var name: String
    /// Delay before a message of this queue shows, after the cycle's first message.
    public var timeout: TimeSpan
    /// A random extra delay of up to this much.
    public var timeoutRange: TimeSpan

    public init(name: String, timeout: TimeSpan, timeoutRange: TimeSpan = .zero) {
        self.name = name
        self.timeout = timeout
        self.timeoutRange = timeoutRange
    }
}
