/// One notification a feed asks for: what it says, when it fires, and how late it may be.
///
/// Immutable: what it means is summed up in a digest when it is made, which a feed reload
/// compares instead of every field (`hasSameMeaning(as:)`).
public struct ScheduleEntry: Sendable {
    /// Stable identity within its source (native `id`, ZBiM `uuid`, iNotify key, iSmartNews uuid or hash).
    public let id: String
    /// What the entry means, in 64 bits: a hash of every field, computed once when the entry is
    /// made (`hasSameMeaning(as:)` compares it).
    ///
    /// The hash is SipHash keyed with the process's random seed (`Hasher`), so a feed cannot be
    /// written to make two different entries collide: different entries have the same digest
    /// with a chance of 2^-64, a change missed once in some 10^19 compared entries. Comparing the
    /// fields instead saved the hashing at every load (an eighth of the mapping), but took a
    /// reload of 10^5 entries from 15 ms to 71 ms: their strings, each a heap object of its own,
    /// are read from memory, where the digests sit in the entries.
    let digest: UInt64
    /// What the popup shows.
    public var content: NotificationContent {
        var content = rest?.content ?? NotificationContent(title: "", body: "")
        content.title = title
        content.body = body
        return content
    }
    /// `content`'s title and body, in line.
    private let title: String
    private let body: String
    /// The rest of `content`, out of line, when it says more than its title and body: most
    /// entries say no more, and a daemon holds up to 10^6 entries (in line, `content` took 153
    /// of an entry's 232 bytes).
    private let rest: ContentRest?
    /// When it fires.
    public let trigger: Trigger
    /// Occurrences missed by no more than this are caught up once; older ones are recorded as missed.
    ///
    /// The default is 24 hours; ZBiM-form entries default to zero, since the ZBiM SDK skips
    /// notifications whose time has passed.
    public let maxLateness: TimeSpan
    /// The application versions the entry is meant for (iNotify `MinVersion`/`MaxVersion`).
    public var versions: VersionRange { details?.versions ?? VersionRange() }
    /// A free-form category for the notification server.
    public var category: String? { details?.category }
    /// iSmartNews presentation and repetition rules; nil for other dialects.
    public var news: NewsRules? { details?.news }
    /// What only some entries have, out of line: most entries have none of it, and a daemon
    /// holds 10^5 entries (the news rules alone are 144 bytes).
    private let details: Details?
    // Last, the two stored properties that end in a single byte (an optional's flag, an enum):
    // together they pad the entry once, to 104 bytes, where the dialect between two 8-byte
    // fields padded it to 112. A daemon holds up to 10^6 entries.
    /// After this instant the entry is not shown at all.
    public let expires: Instant?
    /// The dialect this entry was written in.
    public let dialect: FeedDialect

    private final class ContentRest: Sendable {
        /// The content with an empty title and body.
        let content: NotificationContent

        /// The rest of `content`; nil when it has nothing but its title and body.
        static func of(_ content: NotificationContent) -> ContentRest? {
            var rest = content
            rest.title = ""
            rest.body = ""
            return rest == NotificationContent(title: "", body: "") ? nil : ContentRest(rest)
        }

        private init(_ content: NotificationContent) {
            self.content = content
        }
    }

    private final class Details: Sendable {
        let versions: VersionRange
        let category: String?
        let news: NewsRules?

        init(versions: VersionRange, category: String?, news: NewsRules?) {
            self.versions = versions
            self.category = category
            self.news = news
        }
    }

    public init(
        id: String, dialect: FeedDialect, content: NotificationContent, trigger: Trigger,
        maxLateness: TimeSpan = ScheduleEntry.defaultMaxLateness, expires: Instant? = nil,
        versions: VersionRange = VersionRange(), category: String? = nil, news: NewsRules? = nil
    ) {
        self.id = id
        self.dialect = dialect
        title = content.title
        body = content.body
        rest = ContentRest.of(content)
        self.trigger = trigger
        self.maxLateness = maxLateness
        self.expires = expires
        details =
            versions != VersionRange() || category != nil || news != nil
            ? Details(versions: versions, category: category, news: news) : nil
        var hasher = Hasher()
        hasher.combine(id)
        hasher.combine(dialect)
        hasher.combine(content)
        hasher.combine(trigger)
        hasher.combine(maxLateness)
        hasher.combine(expires)
        hasher.combine(versions)
        hasher.combine(category)
        hasher.combine(news)
        digest = UInt64(truncatingIfNeeded: hasher.finalize())
    }

    /// An entry that holds nothing on the heap, to leave in the place of one moved away.
    static let vacant = ScheduleEntry(
        id: "", dialect: .native, content: NotificationContent(title: "", body: ""), trigger: .immediate)

    /// The lateness window entries get when their feed does not say: 24 hours.
    public static let defaultMaxLateness = TimeSpan.hours(24)
}

/// The visible part of a notification.
public struct NotificationContent: Sendable, Hashable {
    /// The popup's summary line.
    public var title: String
    /// The popup's body: plain text, or the notification spec's markup when `markup` says so.
    public var body: String
    /// An icon name from the icon theme, or a file path.
    public var icon: String?
    public var urgency: Urgency
    /// What the action button (and a click on the popup) opens.
    public var action: NotificationAction?
    /// How long the popup stays before it expires: nil for the server's default, zero for
    /// until the user closes it.
    public var timeout: TimeSpan?
    /// A sound from the sound theme (the `sound-name` hint), for a server that plays sounds.
    public var sound: String?
    /// A picture the popup shows (the `image-path` hint): a file path or a `file://` URI.
    public var image: String?
    /// Whether `body` is markup (the spec's `<b>`, `<i>`, `<u>` and `<a href>`): shown as such,
    /// cleaned of anything else, where the server reads markup, and as its text elsewhere.
    public var markup: Bool

    /// The longest `timeout`: the spec's expire timeout is a 32-bit count of milliseconds.
    public static let longestTimeout = TimeSpan.milliseconds(Int64(Int32.max))

    /// Whether `image` names a picture a server can show: an absolute path or a `file://` URI
    /// (a server would not fetch a web address, and a relative path means nothing to it).
    public static func isImageLocation(_ image: String) -> Bool {
        image.hasPrefix("/") || image.lowercased().hasPrefix("file:///")
    }

    public init(
        title: String, body: String, icon: String? = nil, urgency: Urgency = .normal, action: NotificationAction? = nil,
        timeout: TimeSpan? = nil, sound: String? = nil, image: String? = nil, markup: Bool = false
    ) {
        self.title = title
        self.body = body
        self.icon = icon
        self.urgency = urgency
        self.action = action
        self.timeout = timeout
        self.sound = sound
        self.image = image
        self.markup = markup
    }
}

/// A button that opens a URL.
public struct NotificationAction: Sendable, Hashable {
    /// The button's label; nil means the translated "More Info".
    public var label: String?
    /// The URL to open, already checked against the allowed schemes.
    public var url: ActionURL

    public init(label: String?, url: ActionURL) {
        self.label = label
        self.url = url
    }
}

/// How urgent a notification is, as the freedesktop notification spec defines it.
public enum Urgency: String, Sendable, CaseIterable {
    case low, normal, critical
}

/// An inclusive range of application versions, compared like `String.compare(_:options: .numeric)`.
///
/// Bounds are kept as the feed wrote them (iNotify semantics: `1.0.0` is not `1.0`).
public struct VersionRange: Sendable, Hashable {
    public var minimum: String?
    public var maximum: String?

    public init(minimum: String? = nil, maximum: String? = nil) {
        self.minimum = minimum
        self.maximum = maximum
    }
}
