/// That an occurrence's outcomes count in its source's receipts, and under which feed version:
/// the ledger line carries it from the moment the occurrence is recorded, so an answer given
/// later (by the daemon or by `notify-sched handle`) counts under the feed that showed it.
public struct ReceiptTag: Sendable, Hashable {
    /// The `version` of the feed in force when the occurrence was recorded; nil when the feed
    /// has none.
    public var feedVersion: Int64?

    public init(feedVersion: Int64?) {
        self.feedVersion = feedVersion
    }
}

/// A UTC calendar day, the unit receipts count in.
public struct ReceiptDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public var daysSinceEpoch: Int64

    public init(daysSinceEpoch: Int64) {
        self.daysSinceEpoch = daysSinceEpoch
    }

    /// The UTC day `instant` falls on.
    public init(_ instant: Instant) {
        daysSinceEpoch = instant.secondsSinceEpoch.floorDivided(by: 86_400)
    }

    /// Its first instant, 00:00 UTC.
    public var start: Instant { Instant(secondsSinceEpoch: daysSinceEpoch * 86_400) }

    /// `2026-11-29`.
    public var description: String {
        let (year, month, day) = CivilDateTime.civil(fromDaysSinceEpoch: daysSinceEpoch)
        return
            "\(CivilDateTime.padded(Int(year), 4))-\(CivilDateTime.padded(Int(month), 2))-\(CivilDateTime.padded(Int(day), 2))"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }
}

/// The counts of one entry of one feed version on one UTC day: one receipt's worth.
public struct ReceiptTally: Sendable, Equatable {
    /// The feed's location, as the configuration names it.
    public var source: String
    public var entryID: String
    public var feedVersion: Int64?
    public var day: ReceiptDay
    /// Each counter's count; none is zero.
    public var counts: [ReceiptCounter: Int]

    public init(source: String, entryID: String, feedVersion: Int64?, day: ReceiptDay, counts: [ReceiptCounter: Int]) {
        self.source = source
        self.entryID = entryID
        self.feedVersion = feedVersion
        self.day = day
        self.counts = counts
    }
}
