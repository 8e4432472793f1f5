/// When an iNotify source is checked, and which of its messages a check shows
/// (seed semantics §1.3–§1.5).
public enum INotifyCheck {
    /// Whether a check may happen now.
    public enum Decision: Sendable, Equatable {
        /// Check the source.
        case check
        /// The very first start: record that notify-sched has run, and do not check.
        case firstLaunch
        /// Too soon after the last check, or after a reminder; the next check may happen at this time.
        case throttled(until: Instant)
    }

    /// iNotify's `shouldCheckForNotifications`, in its exact order: the first start is skipped
    /// unless `showOnFirstLaunch`; a pending reminder is measured against `remindPeriod` and
    /// then `checkPeriod` is not consulted; otherwise `checkPeriod` since the last check.
    /// Elapsed time equal to the period allows the check. `debug` skips all of it.
    ///
    /// - Parameters:
    ///   - now: The current time.
    ///   - hasRunBefore: Whether notify-sched recorded an earlier start for this source.
    ///   - lastChecked: When the source was last checked, successfully or not.
    ///   - lastReminded: When the user last chose "Remind Me Later"; nil when no reminder is pending.
    public static func decision(
        at now: Instant, settings: INotifySettings, hasRunBefore: Bool, lastChecked: Instant?, lastReminded: Instant?
    ) -> Decision {
        guard !settings.debug else { return .check }
        if !settings.showOnFirstLaunch, !hasRunBefore { return .firstLaunch }
        if let lastReminded {
            let due = lastReminded + settings.remindPeriod
            return now < due ? .throttled(until: due) : .check
        }
        if let lastChecked {
            let due = lastChecked + settings.checkPeriod
            if now < due { return .throttled(until: due) }
        }
        return .check
    }

    /// What one check found.
    public struct Selection: Sendable, Equatable {
        /// The keys left after the viewed, ignored and version filters: what iNotify's
        /// "did detect notifications" reports, even when empty.
        public var detected: [String]
        /// The one message to show, if any.
        public var key: String?
        /// `debug` found every message seen and started over: the caller empties its viewed
        /// and ignored lists.
        public var resetsSeenLists: Bool

        public init(detected: [String], key: String?, resetsSeenLists: Bool) {
            self.detected = detected
            self.key = key
            self.resetsSeenLists = resetsSeenLists
        }
    }

    /// Picks the message a check shows: entries neither viewed nor ignored (exact key match),
    /// within the version range, newest key first (or oldest); an entry whose action nothing
    /// can open, or whose key the settings hide, is passed over so that it does not block
    /// older ones.
    ///
    /// - Parameters:
    ///   - entries: The source's entries (iNotify keys are their ids).
    ///   - viewed: Keys the user viewed.
    ///   - ignored: Keys the user ignored.
    ///   - canOpen: Whether the desktop has a handler for an action URL.
    /// - Complexity: O(*n* log *n*) in the number of entries.
    public static func select(
        from entries: [ScheduleEntry], viewed: [String], ignored: [String], settings: INotifySettings,
        canOpen: (ActionURL) -> Bool
    ) -> Selection {
        let seen = Set(viewed).union(ignored)
        var candidates = entries.filter { !seen.contains($0.id) }
        var resets = false
        if settings.debug, candidates.isEmpty, !entries.isEmpty {
            candidates = entries
            resets = true
        }
        if let version = settings.applicationVersion {
            candidates.removeAll { !$0.versions.admits(version) }
        }
        var remaining = candidates
        var key: String?
        while let next = INotifyOrder.next(in: remaining.map(\.id), oldestFirst: settings.showOldestFirst) {
            let entry = remaining.first { $0.id == next }
            if settings.hiddenKeys.contains(next) || entry?.content.action.map({ !canOpen($0.url) }) == true {
                remaining.removeAll { $0.id == next }
                continue
            }
            key = next
            break
        }
        return Selection(detected: candidates.map(\.id), key: key, resetsSeenLists: resets)
    }
}
