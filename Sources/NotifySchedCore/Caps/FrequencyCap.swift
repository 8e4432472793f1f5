/// How often an entry, or a group of entries, may be shown (an impression is a popup shown):
/// at most `lifetime` times ever, and at most `cap` times in any sliding window of each
/// `windows` period. Firefox's Messaging System's `frequency` (`{"lifetime", "custom"}`).
public struct FrequencyCap: Sendable, Hashable {
    /// One sliding window: at most `cap` impressions within any `period`.
    public struct Window: Sendable, Hashable {
        public var period: TimeSpan
        public var cap: Int

        public init(period: TimeSpan, cap: Int) {
            self.period = period
            self.cap = cap
        }
    }

    /// At most this many impressions ever; nil for no bound. Clamped at `lifetimeLimit`.
    public var lifetime: Int?
    /// The sliding windows, each bounding the impressions within its period.
    public var windows: [Window]

    /// The highest lifetime cap: a feed's higher one is read as this, as Firefox clamps it.
    public static let lifetimeLimit = 100
    /// The longest period of a window: the impressions are kept this long (and each entry's
    /// latest `lifetimeLimit` for ever), like the ledger's records.
    public static let longestPeriod = TimeSpan.days(90)

    public init(lifetime: Int? = nil, windows: [Window] = []) {
        self.lifetime = lifetime.map { min($0, Self.lifetimeLimit) }
        self.windows = windows
    }

    /// The first of its bounds that `shown` (the instants of the impressions to count, oldest
    /// first) already reach at `now`, so that one more would exceed it; nil when one more is
    /// within all.
    ///
    /// A window counts the impressions after `now - period`, and those after `now` as well: a
    /// clock stepped back does not free a window.
    public func reached(by shown: [Instant], at now: Instant) -> CapLimit? {
        if let lifetime, shown.count >= lifetime { return CapLimit(cap: lifetime, period: nil) }
        for window in windows {
            let start = now - window.period
            if shown.count - shown.partitioningIndex(where: { $0 > start }) >= window.cap {
                return CapLimit(cap: window.cap, period: window.period)
            }
        }
        return nil
    }
}

/// A bound that held an occurrence back: `cap` impressions within `period`, or ever when
/// `period` is nil.
public struct CapLimit: Sendable, Hashable {
    public var cap: Int
    public var period: TimeSpan?

    public init(cap: Int, period: TimeSpan?) {
        self.cap = cap
        self.period = period
    }

    /// `3 per 1 day`, `1 per 12h`, `5 in all`.
    public var words: String {
        period.map { "\(cap) per \($0.rough)" } ?? "\(cap) in all"
    }
}
