/// One notification a feed asks for: what it says, when it fires, and how late it may be.
///
/// Immutable: what it means is summed up in a digest when it is made, which a feed reload
/// compares instead of every field (`hasSameMeaning(as:)`).
public struct ScheduleEntry: Sendable {
    /// Stable identity within its source (native `id`, ZBiM `uuid`, iNotify key, iSmartNews uuid or hash).
    public let id: String
    /// What the entry means, in 64 bits: a hash of everything it says, computed once when the
    /// entry is made, from its stored form, which is the same for the same values
    /// (`hasSameMeaning(as:)` compares it).
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
        var content = extras?.content ?? NotificationContent(title: "", body: "")
        if titleLength == Self.titleOutOfLine {
            content.body = text
            return content
        }
        let titleEnd = text.utf8.index(text.utf8.startIndex, offsetBy: Int(titleLength))
        content.title = String(decoding: text.utf8[..<titleEnd], as: UTF8.self)
        content.body = String(decoding: text.utf8[titleEnd...], as: UTF8.self)
        return content
    }
    /// When it fires.
    public var trigger: Trigger {
        switch timing {
        case .once(let instant): .once(FireTime(.absolute(instant)))
        case .repeating(let instant, let interval):
            .repeating(first: FireTime(.absolute(instant)), every: interval, bounds: .unbounded)
        case .floating(let civil, let zone, let interval?):
            .repeating(first: FireTime(.floating(civil), zone: zone), every: interval, bounds: .unbounded)
        case .floating(let civil, let zone, nil): .once(FireTime(.floating(civil), zone: zone))
        case .calendar(let expression, let zone): .calendar(expression, zone: zone, notBefore: nil, bounds: .unbounded)
        case .other(let trigger): trigger
        }
    }
    /// Occurrences missed by no more than this are caught up once; older ones are recorded as missed.
    ///
    /// The default is 24 hours; ZBiM-form entries default to zero, since the ZBiM SDK skips
    /// notifications whose time has passed.
    public var maxLateness: TimeSpan {
        if latenessSeconds == Self.latenessOutOfLine, let details = extras?.details { return details.maxLateness }
        return .seconds(Int64(latenessSeconds))
    }
    /// After this instant the entry is not shown at all.
    public var expires: Instant? { extras?.details?.expires }
    /// The application versions the entry is meant for (iNotify `MinVersion`/`MaxVersion`).
    public var versions: VersionRange { extras?.details?.versions ?? VersionRange() }
    /// A free-form category for the notification server.
    public var category: String? { extras?.details?.category }
    /// iSmartNews presentation and repetition rules; nil for other dialects.
    public var news: NewsRules? { extras?.details?.news }
    /// A portal entry's caps, groups and priority; nil for none.
    public var deliveryRules: DeliveryRules? { extras?.details?.deliveryRules }
    /// Its priority among entries due together under a shared cap (`DeliveryRules.priority`).
    public var priority: Int { deliveryRules?.priority ?? 0 }

    // A daemon holds up to 10^6 entries, so an entry keeps in line, in 64 bytes, only what
    // nearly every entry has: its id, digest, title and body, lateness, and its trigger when that
    // is a time or a plain repeat from a time with `Z` or an offset (`Timing`). The rest of what
    // it says is out of line, which most entries do without (`Extras`). An entry took 104
    // bytes, and a boxed trigger 64 more of the heap.
    /// `content`'s title and then its body, in one string: in line when they fit in 15 bytes
    /// together, else one heap object rather than two. Only the body when the title is in `extras`.
    private let text: String
    private let extras: Extras?
    private let timing: Timing
    /// The dialect this entry was written in.
    public let dialect: FeedDialect
    /// The UTF-8 length of the title at the start of `text`, or `titleOutOfLine` when the title is
    /// that long or longer.
    private let titleLength: UInt16
    /// `maxLateness` in seconds, or `latenessOutOfLine` when it is not a whole number of seconds
    /// that fits.
    private let latenessSeconds: Int32

    private static let titleOutOfLine = UInt16.max
    private static let latenessOutOfLine = Int32.min

    /// `first` and then `second`, in one string made at its size, where `+` grows a copy of
    /// `first` (on a feed of 10^5 entries with a title and a body: 20 ms of CPU rather than 29).
    private static func joined(_ first: String, _ second: String) -> String {
        var first = first
        var second = second
        let (firstCount, secondCount) = (first.utf8.count, second.utf8.count)
        guard firstCount > 0, secondCount > 0 else { return firstCount > 0 ? first : second }
        return first.withUTF8 { head in
            second.withUTF8 { tail in
                String(unsafeUninitializedCapacity: firstCount + secondCount) { buffer in
                    _ = buffer.initialize(fromContentsOf: head)
                    _ = buffer[firstCount...].initialize(fromContentsOf: tail)
                    return firstCount + secondCount
                }
            }
        }
    }

    /// `span` in whole seconds, when it is that and `latenessSeconds` can hold it.
    private static func inLineSeconds(_ span: TimeSpan) -> Int32? {
        guard span.microseconds % 1_000_000 == 0, let seconds = Int32(exactly: span.microseconds / 1_000_000),
            seconds != latenessOutOfLine
        else { return nil }
        return seconds
    }

    /// `trigger`, in 9 bytes where it is a time or a repeat from a time with no zone and no bounds.
    private enum Timing: Sendable, Hashable {
        case once(Instant)
        case repeating(Instant, RepeatInterval)
        /// A floating time, once or repeating with no bounds: one box, where a trigger took two
        /// (its own and its floating time's), 80 bytes more of the heap.
        indirect case floating(CivilDateTime, ZoneRules?, RepeatInterval?)
        /// A calendar expression with no `notBefore` and no bounds: one box of 128 bytes, where a
        /// trigger took two of 256.
        indirect case calendar(CalendarExpression, ZoneRules?)
        indirect case other(Trigger)

        init(_ trigger: Trigger) {
            switch trigger {
            case .once(let time):
                switch time.kind {
                case .absolute(let instant) where time.zone == nil:
                    self = .once(instant)
                    return
                case .floating(let civil):
                    self = .floating(civil, time.zone, nil)
                    return
                default: break
                }
            case .repeating(let first, let interval, let bounds) where bounds == .unbounded:
                switch first.kind {
                case .absolute(let instant) where first.zone == nil:
                    self = .repeating(instant, interval)
                    return
                case .floating(let civil):
                    self = .floating(civil, first.zone, interval)
                    return
                default: break
                }
            case .calendar(let expression, let zone, nil, let bounds) where bounds == .unbounded:
                self = .calendar(expression, zone)
                return
            default: break
            }
            self = .other(trigger)
        }

        var relocated: Timing {
            switch self {
            case .once, .repeating: self
            case .floating(let civil, let zone, let interval): .floating(civil, zone, interval)
            case .calendar(let expression, let zone): .calendar(expression.relocated, zone)
            case .other(let trigger): .other(trigger.relocated)
            }
        }
    }

    /// What an entry says beyond what it keeps in line: the rest of its content, the rest of
    /// its fields, or both, each in a box of its own. The case says which without reading a box,
    /// so planning finds that an entry with only an icon or an action has no expiry without a
    /// read of memory; and such an entry holds no room for the other fields (one box with all of
    /// them took some 450 bytes of the heap; the content's packed form, some 64 for an icon).
    private enum Extras: Sendable {
        case content(PackedContent)
        case details(Details)
        indirect case both(PackedContent, Details)

        init?(content: NotificationContent, details: Details?) {
            let plain = content == NotificationContent(title: "", body: "")
            switch (plain ? nil : PackedContent.of(content), details) {
            case (nil, nil): return nil
            case (let rest?, nil): self = .content(rest)
            case (nil, let details?): self = .details(details)
            case (let rest?, let details?): self = .both(rest, details)
            }
        }

        var content: NotificationContent? {
            switch self {
            case .content(let rest), .both(let rest, _): rest.content
            case .details: nil
            }
        }

        var details: Details? {
            switch self {
            case .details(let details), .both(_, let details): details
            case .content: nil
            }
        }

        var relocated: Extras {
            switch self {
            case .content(let rest): .content(rest.relocated)
            case .details: self
            case .both(let rest, let details): .both(rest.relocated, details)
            }
        }

        /// Feeds what the boxes say to `hasher`, for the entry's digest.
        func hashMeaning(into hasher: inout Hasher) {
            switch self {
            case .content(let rest), .both(let rest, _): rest.hashMeaning(into: &hasher)
            case .details: hasher.combine(0 as UInt8)
            }
            hasher.combine(details != nil)
            details?.hashMeaning(into: &hasher)
        }
    }

    /// The fields most entries leave at their defaults.
    private final class Details: Sendable {
        let versions: VersionRange
        let category: String?
        let news: NewsRules?
        let expires: Instant?
        /// The entry's lateness, read when its `latenessSeconds` says it is here.
        let maxLateness: TimeSpan
        let deliveryRules: DeliveryRules?

        /// The details; nil when every one is its default and the lateness is in line.
        static func of(
            versions: VersionRange, category: String?, news: NewsRules?, expires: Instant?, maxLateness: TimeSpan,
            latenessInLine: Bool, deliveryRules: DeliveryRules?
        ) -> Details? {
            guard
                versions != VersionRange() || category != nil || news != nil || expires != nil || !latenessInLine
                    || deliveryRules != nil
            else { return nil }
            return Details(
                versions: versions, category: category, news: news, expires: expires, maxLateness: maxLateness,
                deliveryRules: deliveryRules)
        }

        private init(
            versions: VersionRange, category: String?, news: NewsRules?, expires: Instant?, maxLateness: TimeSpan,
            deliveryRules: DeliveryRules?
        ) {
            self.versions = versions
            self.category = category
            self.news = news
            self.expires = expires
            self.maxLateness = maxLateness
            self.deliveryRules = deliveryRules
        }

        func hashMeaning(into hasher: inout Hasher) {
            hasher.combine(versions)
            hasher.combine(category)
            hasher.combine(news)
            hasher.combine(expires)
            hasher.combine(maxLateness)
            hasher.combine(deliveryRules)
        }
    }

    /// An entry; whatever the values, it gives them back as they were given.
    public init(
        id: String, dialect: FeedDialect, content: NotificationContent, trigger: Trigger,
        maxLateness: TimeSpan = ScheduleEntry.defaultMaxLateness, expires: Instant? = nil,
        versions: VersionRange = VersionRange(), category: String? = nil, news: NewsRules? = nil,
        deliveryRules: DeliveryRules? = nil
    ) {
        self.id = id
        self.dialect = dialect
        timing = Timing(trigger)
        let titleBytes = content.title.utf8.count
        let titleInLine = titleBytes < Int(Self.titleOutOfLine)
        text = titleInLine ? Self.joined(content.title, content.body) : content.body
        titleLength = titleInLine ? UInt16(titleBytes) : Self.titleOutOfLine
        let seconds = Self.inLineSeconds(maxLateness)
        latenessSeconds = seconds ?? Self.latenessOutOfLine
        var restContent = content
        restContent.body = ""
        if titleInLine { restContent.title = "" }
        extras = Extras(
            content: restContent,
            details: Details.of(
                versions: versions, category: category, news: news, expires: expires, maxLateness: maxLateness,
                latenessInLine: seconds != nil, deliveryRules: deliveryRules.flatMap { $0.isEmpty ? nil : $0 }))
        // The stored form, which is the same for the same values, in a few large pieces: hashing
        // each field on its own (every optional, every nested case) took 8% of reading a feed.
        var hasher = Hasher()
        hasher.combine(id)
        hasher.combine(dialect)
        hasher.combine(text)
        hasher.combine(titleLength)
        hasher.combine(latenessSeconds)
        hasher.combine(timing)
        hasher.combine(extras != nil)
        extras?.hashMeaning(into: &hasher)
        digest = UInt64(truncatingIfNeeded: hasher.finalize())
    }

    /// The entry with what it keeps on the heap copied afresh by the calling thread: its
    /// strings, its trigger's box and arrays, the box of the rest of its content
    /// (`Schedule.relocated()` says why). What few entries have (the details' box, news rules,
    /// event bindings, alarms) stays shared with `self`.
    func relocated() -> ScheduleEntry {
        ScheduleEntry(relocating: self)
    }

    private init(relocating entry: ScheduleEntry) {
        id = entry.id.relocated
        digest = entry.digest
        text = entry.text.relocated
        extras = entry.extras?.relocated
        timing = entry.timing.relocated
        dialect = entry.dialect
        titleLength = entry.titleLength
        latenessSeconds = entry.latenessSeconds
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

extension ScheduleEntry: Equatable {
    /// Whether the two entries say the same, field by field: for events compared and replayed.
    /// A feed reload compares digests instead (`hasSameMeaning(as:)`).
    public static func == (lhs: ScheduleEntry, rhs: ScheduleEntry) -> Bool {
        lhs.id == rhs.id && lhs.dialect == rhs.dialect && lhs.content == rhs.content && lhs.trigger == rhs.trigger
            && lhs.maxLateness == rhs.maxLateness && lhs.expires == rhs.expires && lhs.versions == rhs.versions
            && lhs.category == rhs.category && lhs.news == rhs.news && lhs.deliveryRules == rhs.deliveryRules
    }
}
