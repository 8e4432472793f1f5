/// What the user has done with notifications, per source: the state handling changes and the
/// scheduler reads (iNotify's viewed/ignored lists and reminder time, iSmartNews' "already
/// shown" set, ZBiM's acted-on uuids).
///
/// A value: the caller stores it (today a file, later the ledger) and passes it back in.
public struct HandlingState: Sendable, Equatable {
    /// The state of each source, by source name.
    public var sources: [String: SourceHandlingState]

    public init(sources: [String: SourceHandlingState] = [:]) {
        self.sources = sources
    }

    /// The state of `source`, empty when nothing happened there yet.
    public subscript(source: String) -> SourceHandlingState {
        get { sources[source] ?? SourceHandlingState() }
        set { sources[source] = newValue }
    }

    /// Applies what the user chose for `occurrence` at `now`.
    ///
    /// iNotify (seed semantics §1.7): viewed and ignored append the key (without removing
    /// duplicates, as iNotify does) and clear the reminder time; remind sets it. ZBiM and
    /// native entries keep the same lists per entry, and a reminder time per entry.
    /// iSmartNews marks a classic message's content hash as shown, and notes when a meta item
    /// was last closed each way. O(1) amortized.
    ///
    /// - Parameters:
    ///   - applicationVersion: The source's application version now, noted with a meta item's
    ///     closing for `oncePerVersion`.
    ///   - remindUntil: For `.reminded`, when a snooze of a chosen length brings the entry back;
    ///     nil for the source's remind period.
    public mutating func apply(
        _ change: StateChange, to occurrence: DeliveredOccurrence, at now: Instant, applicationVersion: String? = nil,
        remindUntil: Instant? = nil
    ) {
        var source = self[occurrence.source]
        let key = occurrence.entryID
        let perSourceReminder = occurrence.dialect == .iNotify
        switch change {
        case .viewed:
            source.viewed.append(key)
            if perSourceReminder { source.lastReminded = nil } else { source.reminded[key] = nil }
        case .ignored:
            source.ignored.append(key)
            if perSourceReminder { source.lastReminded = nil } else { source.reminded[key] = nil }
        case .reminded:
            if perSourceReminder {
                source.lastReminded = now
            } else {
                source.reminded[key] = Reminder(requestedAt: now, until: remindUntil)
            }
        case .newsShown:
            if let hash = occurrence.news?.contentHash { source.shownNews.insert(hash) }
        case .metaOK:
            source.metaClosings[key, default: [:]][.ok] = MetaClosingRecord(
                at: now, applicationVersion: applicationVersion)
        case .metaCancelled:
            source.metaClosings[key, default: [:]][.cancel] = MetaClosingRecord(
                at: now, applicationVersion: applicationVersion)
        }
        self[occurrence.source] = source
    }
}

/// One source's part of `HandlingState`.
public struct SourceHandlingState: Sendable, Equatable {
    /// Entry keys the user viewed: acted on, or acknowledged with OK (`iNotifyViewedNotifications`).
    public var viewed: [String]
    /// Entry keys the user ignored (`iNotifyIgnoredNotifications`).
    public var ignored: [String]
    /// iNotify: when the user last asked to be reminded (`iNotifyLastReminded`); nil when not waiting.
    public var lastReminded: Instant?
    /// Other dialects: the reminder the user asked for of each entry, by entry id.
    public var reminded: [String: Reminder]
    /// iSmartNews: content hashes of messages marked shown (`iSmartNewsCache.txt`).
    public var shownNews: Set<String>
    /// iSmartNews: when, and in which application version, each meta item was last closed
    /// each way, by uuid (`oncePerVersion`, `oncePerInstall`).
    public var metaClosings: [String: [MetaClosing: MetaClosingRecord]]

    public init(
        viewed: [String] = [], ignored: [String] = [], lastReminded: Instant? = nil, reminded: [String: Reminder] = [:],
        shownNews: Set<String> = [], metaClosings: [String: [MetaClosing: MetaClosingRecord]] = [:]
    ) {
        self.viewed = viewed
        self.ignored = ignored
        self.lastReminded = lastReminded
        self.reminded = reminded
        self.shownNews = shownNews
        self.metaClosings = metaClosings
    }
}

/// A "Remind Me Later" of a native or ZBiM entry: when it was asked, and when the occurrence
/// comes back.
public struct Reminder: Sendable, Equatable {
    /// When the user asked.
    public var requestedAt: Instant
    /// When a snooze of a chosen length (`handle --snooze`) brings it back; nil for the
    /// source's remind period.
    public var until: Instant?

    public init(requestedAt: Instant, until: Instant? = nil) {
        self.requestedAt = requestedAt
        self.until = until
    }

    /// When the occurrence comes back, with `remindPeriod` the source's.
    public func due(remindPeriod: TimeSpan) -> Instant { until ?? requestedAt + remindPeriod }
}

/// A change to `HandlingState` that a user's choice causes.
public enum StateChange: String, Sendable, Equatable {
    /// Acted on or acknowledged: not shown again.
    case viewed
    /// Declined for good: not shown again.
    case ignored
    /// Show again after the remind period.
    case reminded
    /// iSmartNews: marked as already shown.
    case newsShown = "news-shown"
    /// iSmartNews: a meta item's page was opened (its `ok` condition).
    case metaOK = "meta-ok"
    /// iSmartNews: a meta item was cancelled or closed by the user (its `cancel` condition).
    case metaCancelled = "meta-cancel"
}
