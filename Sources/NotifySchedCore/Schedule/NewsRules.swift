/// How an iSmartNews item is shown and repeated (seed semantics §2.3–§2.8).
public struct NewsRules: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// A classic message: title, text, link, one or two buttons.
        case message
        /// A 2.0+ meta item, identified by its uuid.
        case meta(MetaItem)
    }

    public var kind: Kind
    /// Shown only from this instant on (inclusive).
    public var start: Instant?
    /// Shown only before this instant (exclusive).
    public var end: Instant?
    /// Keep showing until OK is pressed (Cancel does not mark it shown).
    public var repeats: Bool
    /// Never mark it shown: it shows every cycle.
    public var always: Bool
    /// Show only from this run of the counter on.
    public var counter: Int?
    /// Show only once this many calendar days have passed since the source's first start
    /// (`FirstShowInterval`, days since the first launch).
    public var firstShowDays: Int?
    /// The rotation queue it belongs to.
    public var queue: String?
    /// The OK button's label; nil means the translated "OK". The button exists only with a link.
    public var okLabel: String?
    /// The Cancel button's label; nil when the message has no Cancel button.
    public var cancelLabel: String?
    /// The stable hash of the whole message: editing any field makes it a new message.
    public var contentHash: String

    public init(
        kind: Kind, start: Instant? = nil, end: Instant? = nil, repeats: Bool = false, always: Bool = false,
        counter: Int? = nil, firstShowDays: Int? = nil, queue: String? = nil, okLabel: String? = nil,
        cancelLabel: String? = nil, contentHash: String
    ) {
        self.kind = kind
        self.start = start
        self.end = end
        self.repeats = repeats
        self.always = always
        self.counter = counter
        self.firstShowDays = firstShowDays
        self.queue = queue
        self.okLabel = okLabel
        self.cancelLabel = cancelLabel
        self.contentHash = contentHash
    }

    /// Whether the item's date window admits `now`: `start <= now < end`.
    public func isInWindow(at now: Instant) -> Bool {
        (start.map { $0 <= now } ?? true) && (end.map { now < $0 } ?? true)
    }
}

/// The parts of an iSmartNews meta item that notify-sched acts on (seed semantics §2.8).
public struct MetaItem: Sendable, Hashable {
    /// The pages or alerts the item shows, in order (`urls`).
    public var urls: [String]
    /// Higher shows first.
    public var priority: Int
    /// How long after it was last shown it may show again (`minShowInterval`).
    public var minShowInterval: ShowInterval?
    /// Show again only in a new application version once closed this way (`oncePerVersion`).
    public var oncePerVersion: OnceRule?
    /// Never show again once closed this way (`oncePerInstall`).
    public var oncePerInstall: OnceRule?
    /// Show only in a session that started after an upgrade (`showOnlyIfUpgrade`).
    public var showOnlyIfUpgrade: Bool
    /// The time ranges it may show in, each with its own limit (`dates`); empty means any time.
    public var ranges: [ShowRange]
    /// Shown after a random wait of this many seconds (`minDelay`…`maxDelay`, at most 60).
    public var showDelay: ClosedRange<Int>?

    /// The uuids iSmartNews gives rules of their own (seed semantics §2.8).
    public static let whatIsNewUUID = "what_is_new"
    public static let reviewUUID = "review"
    /// `subscribe`, and every uuid starting `subscribe_`.
    public static let subscribeUUID = "subscribe"

    public init(
        urls: [String], priority: Int = 0, minShowInterval: ShowInterval? = nil, oncePerVersion: OnceRule? = nil,
        oncePerInstall: OnceRule? = nil, showOnlyIfUpgrade: Bool = false, ranges: [ShowRange] = [],
        showDelay: ClosedRange<Int>? = nil
    ) {
        self.urls = urls
        self.priority = priority
        self.minShowInterval = minShowInterval
        self.oncePerVersion = oncePerVersion
        self.oncePerInstall = oncePerInstall
        self.showOnlyIfUpgrade = showOnlyIfUpgrade
        self.ranges = ranges
        self.showDelay = showDelay
    }
}
