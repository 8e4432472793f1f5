/// What becomes of an occurrence.
public enum TimelineOutcome: String, Sendable, CaseIterable {
    /// A popup shows.
    case shows
    /// A later occurrence's popup stands for it (a catch-up).
    case folded
    /// Nothing shows, for the reason given.
    case suppressed
}

/// One occurrence of an entry in a timeline.
public struct TimelineOccurrence: Sendable, Equatable {
    /// The entry's source (its feed's path or URL).
    public var source: String
    public var entryID: String
    /// The instant it is due.
    public var due: Instant
    /// When its popup shows, or when it is decided (suppressed, folded): the daemon's instant.
    public var at: Instant
    public var outcome: TimelineOutcome
    /// Why it does not show; nil when it shows.
    public var reason: TimelineReason?

    public init(
        source: String, entryID: String, due: Instant, at: Instant, outcome: TimelineOutcome,
        reason: TimelineReason? = nil
    ) {
        self.source = source
        self.entryID = entryID
        self.due = due
        self.at = at
        self.outcome = outcome
        self.reason = reason
    }
}

/// Why an occurrence in a timeline does not show.
public enum TimelineReason: Sendable, Equatable {
    /// The occurrence due at this instant, a later one, stands for it: its popup (or its
    /// suppression) came once both were due.
    case folded(into: Instant)
    /// It was due before the daemon started, more than the entry's `maxLateness` earlier.
    case late(maxLateness: TimeSpan)
    /// The entry had expired by then, or its version range leaves the application version out.
    case ending(EntryEnding)
    /// A rule of the feed or a bound of the user's held it back.
    case suppression(Suppression)
    /// Its calendar expression names `wallClock`, a time the zone's clocks skip at `change`:
    /// as with systemd, it does not elapse (a one-shot or repeating time moves later instead).
    case daylightGap(OffsetChange, wallClock: CivilDateTime, zone: String)

    /// What a program matches: `folded`, `late`, `expired`, `other-version`, or the
    /// suppression's code (`frequency`, `targeting`, …).
    public var code: String {
        switch self {
        case .folded: "folded"
        case .late: "late"
        case .ending(.expired): "expired"
        case .ending(.otherVersion): "other-version"
        case .ending(.ended): "ended"
        case .suppression(let suppression): suppression.code
        case .daylightGap: "dst-gap"
        }
    }

    /// A line a person reads: `its frequency allows 1 per 1 day`.
    public var words: String {
        switch self {
        case .folded(let into): "the occurrence due \(into.rfc3339) stands for it"
        case .late(let lateness): "due before the daemon started, more than its maxLateness \(lateness.rough) ago"
        case .ending(.expired): "the entry has expired"
        case .ending(.otherVersion): "the application version is outside the entry's minVersion/maxVersion"
        case .ending(.ended): "the entry's occurrences are over"
        case .suppression(let suppression): suppression.words
        case .daylightGap(let change, let wallClock, let zone):
            "\(wallClock.clockTime) does not exist on \(wallClock.isoDate) in \(zone): the clocks jump from "
                + "\(change.wallClockBefore.clockTime) to \(change.wallClockAfter.clockTime)"
        }
    }
}
