/// One occurrence notify-sched delivered: what handling it later needs to know.
///
/// The ledger keeps these; `handleLocalNotification` recognises notify-sched's own
/// notifications by finding their occurrence id among them.
public struct DeliveredOccurrence: Sendable, Equatable {
    /// The source `notify-sched test` popups are recorded under: a name, not a feed's location.
    public static let testSource = "notify-sched test"

    /// The occurrence id, carried by the popup's `x-notify-sched-id` hint and typed in
    /// `notify-sched handle ID`.
    public var id: String
    /// The feed the entry came from.
    public var source: String
    /// The entry's id within its source (an iNotify key, a ZBiM uuid, …).
    public var entryID: String
    /// Whose rules handling follows.
    public var dialect: FeedDialect
    public var content: NotificationContent
    public var category: String?
    /// iSmartNews buttons and marking rules; nil for other dialects.
    public var news: NewsHandling?
    /// When it was delivered.
    public var deliveredAt: Instant
    /// When the occurrence was due, as the ledger records it: an answer that holds for later
    /// occurrences counts from it. Nil when not known.
    public var due: Instant?

    /// Whether `other` is an occurrence of the same entry of the same source.
    public func isOfTheSameEntry(as other: DeliveredOccurrence) -> Bool {
        source == other.source && entryID == other.entryID
    }

    public init(
        id: String, source: String, entryID: String, dialect: FeedDialect, content: NotificationContent,
        category: String? = nil, news: NewsHandling? = nil, deliveredAt: Instant, due: Instant? = nil
    ) {
        self.id = id
        self.source = source
        self.entryID = entryID
        self.dialect = dialect
        self.content = content
        self.category = category
        self.news = news
        self.deliveredAt = deliveredAt
        self.due = due
    }

    /// Whether a snooze can bring it back: an entry of a native, ZBiM or calendar feed (iNotify's and
    /// iSmartNews' reminders are their originals', and a test popup has no schedule).
    public var canSnooze: Bool { dialect.keepsAnswersPerEntry && source != Self.testSource }

    /// The occurrence of `entry` from `source` due at `due`, delivered at `deliveredAt` under `id`.
    public init(id: String, entry: ScheduleEntry, source: String, deliveredAt: Instant, due: Instant? = nil) {
        self.init(
            id: id, source: source, entryID: entry.id, dialect: entry.dialect, content: entry.content,
            category: entry.category, news: entry.news.map(NewsHandling.init), deliveredAt: deliveredAt, due: due)
    }
}

/// The parts of an iSmartNews item that its buttons and marking rules use (seed semantics §2.4).
public struct NewsHandling: Sendable, Equatable {
    /// The OK button's label; nil means the translated "OK".
    public var okLabel: String?
    /// The Cancel button's label; nil means the translated "Cancel".
    public var cancelLabel: String?
    /// Cancel does not mark it shown.
    public var repeats: Bool
    /// Nothing marks it shown.
    public var always: Bool
    /// The hash that identifies the message in the "already shown" set.
    public var contentHash: String
    /// Whether it is a classic message; meta items never enter the "already shown" set.
    public var isClassic: Bool

    public init(
        okLabel: String? = nil, cancelLabel: String? = nil, repeats: Bool = false, always: Bool = false,
        contentHash: String, isClassic: Bool = true
    ) {
        self.okLabel = okLabel
        self.cancelLabel = cancelLabel
        self.repeats = repeats
        self.always = always
        self.contentHash = contentHash
        self.isClassic = isClassic
    }

    public init(_ rules: NewsRules) {
        let isClassic = if case .message = rules.kind { true } else { false }
        self.init(
            okLabel: rules.okLabel, cancelLabel: rules.cancelLabel, repeats: rules.repeats, always: rules.always,
            contentHash: rules.contentHash, isClassic: isClassic)
    }
}
