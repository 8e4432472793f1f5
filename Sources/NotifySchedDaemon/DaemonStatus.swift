import NotifySchedCore

/// What the daemon's `Status` call answers, as JSON: the process, the notification server and
/// each source.
public struct DaemonStatus: Codable, Equatable, Sendable {
    /// The notification server the popups go to.
    public struct Server: Codable, Equatable, Sendable {
        public var name: String
        public var vendor: String
        public var version: String
        public var specVersion: String
        /// Sorted.
        public var capabilities: [String]
    }

    /// One followed feed.
    public struct Source: Codable, Equatable, Sendable {
        /// The path or URL.
        public var location: String
        /// `native`, `zbim`, `inotify` or `ismartnews`; nil when the feed could not be read.
        public var dialect: String?
        /// How many entries its schedule has (0 when it could not be read).
        public var entries: Int
        /// The last check, successful or not, RFC 3339 UTC.
        public var lastCheck: String?
        /// The last successful check (a new feed or "not modified").
        public var lastSuccess: String?
        /// Why the last check failed; nil when it succeeded.
        public var lastError: String?
        /// Failed checks in a row.
        public var failures: Int
        /// When the next check is planned.
        public var nextCheck: String?
        /// The validators of the feed in force (portal URLs).
        public var etag: String?
        public var lastModified: String?
        /// The signed feed's `version`, when it has one.
        public var feedVersion: Int64?
        /// When the copy in force was fetched or read, RFC 3339 UTC: its age.
        public var copyTakenAt: String?
    }

    /// The daemon's process id.
    public var pid: Int32
    /// notify-sched's version.
    public var version: String
    /// When the daemon started, RFC 3339 UTC.
    public var startedAt: String
    /// Nil when no notification server answers on the session bus.
    public var server: Server?
    public var sources: [Source]
    /// Timed occurrences waiting in the timer wheel.
    public var pending: Int
    /// When the next one is due, RFC 3339 UTC; nil when none is.
    public var nextDeadline: String?
}
