/// What iSmartNews remembers between display cycles of one source (seed semantics §2.4–§2.8):
/// the run counter, each queue's rotation index, each event object's pattern progress, the
/// round-robin position of meta items per event name, when each meta item last showed and how
/// often in each of its ranges, and the source's "install" and "upgrade" (its first session
/// start, and the configured `application-version` changing between two starts).
///
/// A value: the daemon stores it and passes it back in. The "already shown" hashes live in
/// the handling state, which the buttons change; a cycle only reads them.
public struct NewsState: Sendable, Equatable {
    /// How many times the application "ran" (session starts and resumes); `counter` gates on it.
    public var runCounter: Int
    /// The next message to show of each queue, by queue name (lower-cased).
    public var queueIndexes: [String: Int]
    /// Pattern progress of each event object, by `EventObject.key`.
    public var eventProgress: [String: EventProgress]
    /// The meta item shown last for each event name, for round-robin.
    public var lastMetaShown: [String: String]
    /// When each meta item last showed, by uuid (`minShowInterval`).
    public var metaShownAt: [String: Instant]
    /// How often each meta item showed in each of its ranges, by `rangeKey(uuid:range:)`.
    public var rangeShows: [String: RangeShows]
    /// The source's first session start: the desktop's "install" (`FirstShowInterval`).
    public var firstStart: Instant?
    /// The configured application version at the last session start: the version
    /// `oncePerVersion` counts closings in.
    public var applicationVersion: String?
    /// Whether the last session start followed a change of the application version.
    public var upgraded: Bool

    public init(
        runCounter: Int = 0, queueIndexes: [String: Int] = [:], eventProgress: [String: EventProgress] = [:],
        lastMetaShown: [String: String] = [:], metaShownAt: [String: Instant] = [:],
        rangeShows: [String: RangeShows] = [:], firstStart: Instant? = nil, applicationVersion: String? = nil,
        upgraded: Bool = false
    ) {
        self.runCounter = runCounter
        self.queueIndexes = queueIndexes
        self.eventProgress = eventProgress
        self.lastMetaShown = lastMetaShown
        self.metaShownAt = metaShownAt
        self.rangeShows = rangeShows
        self.firstStart = firstStart
        self.applicationVersion = applicationVersion
        self.upgraded = upgraded
    }

    /// Notes a session start at `now` with the configured application `version`: the first
    /// start is the install; a start whose version differs from the last one's (both set) is
    /// an upgrade, which holds until the next start.
    ///
    /// - Parameters:
    ///   - version: The source's `application-version`; nil when none is configured, which
    ///     keeps the last one.
    ///   - now: When the session started.
    public mutating func startSession(version: String?, at now: Instant) {
        if firstStart == nil { firstStart = now }
        upgraded = applicationVersion != nil && version != nil && applicationVersion != version
        if version != nil { applicationVersion = version }
    }

    /// Where the count of `range` of the meta item `uuid` is kept: its span is part of the
    /// key, so that a range whose dates change counts from zero, as iSmartNews resets it.
    public static func rangeKey(uuid: String, range: ShowRange) -> String {
        "\(uuid)\u{1F}\(range.id)\u{1F}\(range.span.key)"
    }

    /// Forgets what it keeps of meta items and ranges `schedule` no longer has, as iSmartNews
    /// deletes the items a feed drops.
    mutating func forgetMetaItems(notIn schedule: Schedule) {
        var uuids: Set<String> = []
        var ranges: Set<String> = []
        for entry in schedule.entries {
            guard case .meta(let item)? = entry.news?.kind else { continue }
            uuids.insert(entry.id)
            for range in item.ranges { ranges.insert(Self.rangeKey(uuid: entry.id, range: range)) }
        }
        metaShownAt = metaShownAt.filter { uuids.contains($0.key) }
        rangeShows = rangeShows.filter { ranges.contains($0.key) }
        lastMetaShown = lastMetaShown.filter { uuids.contains($0.value) }
    }
}

/// How far an event object has walked through its pattern.
///
/// Progress survives feed reloads while the pattern text is unchanged and starts again when it
/// changes (seed semantics §2.7).
public struct EventProgress: Sendable, Equatable {
    /// The pattern text the progress belongs to, as the feed wrote it.
    public var patternText: String
    /// Occurrences consumed since the pattern last started.
    public var position: Int

    public init(patternText: String, position: Int = 0) {
        self.patternText = patternText
        self.position = position
    }
}

extension [String: EventProgress] {
    /// Consumes one step of `rule`'s pattern at `key`, starting the pattern again when its text
    /// changed since the progress was stored; whether that step is on.
    mutating func step(_ key: String, of rule: EventRule) -> Bool {
        var progress = self[key] ?? EventProgress(patternText: rule.patternText)
        if progress.patternText != rule.patternText { progress = EventProgress(patternText: rule.patternText) }
        let isOn = rule.pattern.isActive(atOccurrence: progress.position)
        progress.position = (progress.position + 1) % rule.pattern.period
        self[key] = progress
        return isOn
    }
}
