/// How much a daemon's log line matters, in syslog's ranks (what `journalctl -p` filters on).
public enum LogPriority: Int, Sendable, Comparable, CaseIterable {
    /// Something was lost or could not be done: a state write failed, a popup was not recorded.
    case error = 3
    /// Something went wrong that the daemon works around: a feed that fails, a dropped popup.
    case warning = 4
    /// A change worth knowing of: the clock, the zone, the server, a stop.
    case notice = 5
    /// The daemon's ordinary work: a popup shown, a feed loaded, an event run.
    case info = 6

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
