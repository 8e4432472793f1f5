import GRDB
import NotifySchedCore

extension StateStore {
    /// The stored health of `source`; a source never checked has the empty health.
    public func sourceHealth(_ source: String) throws(StoreError) -> SourceHealth {
        try read("read the health of \(source)") { database in
            guard
                let row = try Row.fetchOne(
                    database.cachedStatement(sql: "SELECT * FROM source_state WHERE source = ?"), arguments: [source])
            else { return SourceHealth(location: source) }
            func instant(_ column: String) -> Instant? {
                (row[column] as Int64?).map(Instant.init(microseconds:))
            }
            return SourceHealth(
                location: source, lastCheck: instant("health_checked_us"), lastSuccess: instant("health_succeeded_us"),
                lastError: (row["health_error"] as String?).map {
                    CheckFailure(code: row["health_error_code"] ?? Self.unknownErrorCode, message: $0)
                },
                failures: row["health_failures"],
                nextCheck: instant("health_next_check_us"), etag: row["health_etag"],
                lastModified: row["health_last_modified"], feedVersion: row["health_feed_version"],
                copyTakenAt: instant("health_copy_taken_us"),
                portalPeriod: (row["health_portal_period_us"] as Int64?).map(TimeSpan.init(microseconds:)))
        }
    }

    /// The code of a failure stored before codes were (schema 13).
    static let unknownErrorCode = "unknown"

    /// Replaces the stored health of `health.location`, leaving the source's other state alone.
    public func setSourceHealth(_ health: SourceHealth) throws(StoreError) {
        try write("write the health of \(health.location)") { database in
            try database.cachedStatement(
                sql: """
                    INSERT INTO source_state (
                        source, health_checked_us, health_succeeded_us, health_error, health_error_code,
                        health_failures, health_next_check_us, health_etag, health_last_modified,
                        health_feed_version, health_copy_taken_us, health_portal_period_us)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET
                        health_checked_us = excluded.health_checked_us,
                        health_succeeded_us = excluded.health_succeeded_us,
                        health_error = excluded.health_error, health_error_code = excluded.health_error_code,
                        health_failures = excluded.health_failures,
                        health_next_check_us = excluded.health_next_check_us, health_etag = excluded.health_etag,
                        health_last_modified = excluded.health_last_modified,
                        health_feed_version = excluded.health_feed_version,
                        health_copy_taken_us = excluded.health_copy_taken_us,
                        health_portal_period_us = excluded.health_portal_period_us
                    """
            ).execute(arguments: [
                health.location, health.lastCheck?.microseconds, health.lastSuccess?.microseconds,
                health.lastError?.message, health.lastError?.code, health.failures, health.nextCheck?.microseconds,
                health.etag,
                health.lastModified, health.feedVersion, health.copyTakenAt?.microseconds,
                health.portalPeriod?.microseconds,
            ])
        }
    }
}
