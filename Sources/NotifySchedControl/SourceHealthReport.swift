import NotifySchedCore

/// A source's health as `status` and `list` show it (issue 6, "Health"): `SourceHealth` with
/// its instants in RFC 3339 UTC, for JSON and for people.
public struct SourceHealthReport: Codable, Equatable, Sendable {
    /// The last check, successful or not.
    public var lastCheck: String?
    /// The last successful check: a feed accepted, or "not modified".
    public var lastSuccess: String?
    /// Why the last check failed; nil when it succeeded.
    public var lastError: String?
    /// The code of the error that made the last check fail (`network.unreachable`,
    /// `network.http-status`, `feed.signature`, …); nil when it succeeded, and from a daemon
    /// older than this field.
    public var lastErrorCode: String?
    /// Failed checks in a row.
    public var failures: Int
    /// When the next check is planned.
    public var nextCheck: String?
    /// The portal's validators of the copy in force.
    public var etag: String?
    public var lastModified: String?
    /// The signed feed's `version`, when it has one.
    public var feedVersion: Int64?
    /// When the copy in force was fetched or read: its age.
    public var copyTakenAt: String?
    /// The check period the portal asks for with `Cache-Control: max-age`, in seconds.
    public var portalPeriodSeconds: Int64?

    public init(_ health: SourceHealth) {
        lastCheck = health.lastCheck?.rfc3339
        lastSuccess = health.lastSuccess?.rfc3339
        lastError = health.lastError?.message
        lastErrorCode = health.lastError?.code
        failures = health.failures
        nextCheck = health.nextCheck?.rfc3339
        etag = health.etag
        lastModified = health.lastModified
        feedVersion = health.feedVersion
        copyTakenAt = health.copyTakenAt?.rfc3339
        portalPeriodSeconds = health.portalPeriod.map { $0.microseconds / 1_000_000 }
    }

    /// The health in one line for people; empty when nothing is known yet.
    public var summary: String {
        var parts: [String] = []
        if let lastSuccess { parts.append("last good check \(lastSuccess)") }
        if let lastError { parts.append("last check failed (\(failures) in a row): \(lastError)") }
        if let nextCheck { parts.append("next check \(nextCheck)") }
        if let portalPeriodSeconds {
            parts.append("the portal asks for a check every \(TimeSpan.seconds(portalPeriodSeconds).rough)")
        }
        if let etag { parts.append("ETag \(etag)") }
        if let feedVersion { parts.append("version \(feedVersion)") }
        if let copyTakenAt { parts.append("copy from \(copyTakenAt)") }
        return parts.joined(separator: "; ")
    }
}
