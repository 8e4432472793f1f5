import GRDB
import NotifySchedCore

/// What the daemon remembers of one source between runs: whether it ran before, and iNotify's
/// check and reminder times. (The iSmartNews run counter is part of `NewsState`.)
public struct SourceState: Sendable, Equatable {
    /// notify-sched has started with this source before (iNotify's first-launch flag).
    public var hasRun: Bool
    public var lastChecked: Instant?
    public var lastReminded: Instant?

    public init(hasRun: Bool = false, lastChecked: Instant? = nil, lastReminded: Instant? = nil) {
        self.hasRun = hasRun
        self.lastChecked = lastChecked
        self.lastReminded = lastReminded
    }
}

extension StateStore {
    /// The state of `source`; a source never seen has the empty state.
    public func sourceState(_ source: String) throws(StoreError) -> SourceState {
        try read("read the state of \(source)") { database in
            guard
                let row = try Row.fetchOne(
                    database, sql: "SELECT * FROM source_state WHERE source = ?", arguments: [source])
            else { return SourceState() }
            let lastChecked: Int64? = row["last_checked_us"]
            let lastReminded: Int64? = row["last_reminded_us"]
            return SourceState(
                hasRun: row["has_run"], lastChecked: lastChecked.map(Instant.init(microseconds:)),
                lastReminded: lastReminded.map(Instant.init(microseconds:)))
        }
    }

    /// Replaces the state of `source`.
    public func setSourceState(_ state: SourceState, for source: String) throws(StoreError) {
        try write("write the state of \(source)") { database in
            try database.execute(
                sql: """
                    INSERT INTO source_state (source, has_run, last_checked_us, last_reminded_us) VALUES (?, ?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET has_run = excluded.has_run,
                        last_checked_us = excluded.last_checked_us, last_reminded_us = excluded.last_reminded_us
                    """,
                arguments: [source, state.hasRun, state.lastChecked?.microseconds, state.lastReminded?.microseconds])
        }
    }

    /// The keys the user viewed and ignored in `source`, in the order they were added
    /// (iNotify appends without removing duplicates, and so does this).
    public func seenKeys(_ source: String) throws(StoreError) -> (viewed: [String], ignored: [String]) {
        try read("read the seen keys of \(source)") { database in
            let rows = try Row.fetchAll(
                database, sql: "SELECT key, kind FROM seen_key WHERE source = ? ORDER BY position", arguments: [source])
            let viewed: [String] = rows.filter { $0["kind"] == "viewed" }.map { $0["key"] }
            let ignored: [String] = rows.filter { $0["kind"] == "ignored" }.map { $0["key"] }
            return (viewed, ignored)
        }
    }

    /// Appends `key` to the viewed (or ignored) keys of `source`.
    public func addSeenKey(_ key: String, ignored: Bool, in source: String) throws(StoreError) {
        try write("record \(key) as seen") { database in
            try database.execute(
                sql: "INSERT INTO seen_key (source, key, kind) VALUES (?, ?, ?)",
                arguments: [source, key, ignored ? "ignored" : "viewed"])
        }
    }

    /// Forgets every viewed and ignored key of `source` (iNotify's debug mode starting over).
    public func clearSeenKeys(_ source: String) throws(StoreError) {
        try write("clear the seen keys of \(source)") { database in
            try database.execute(sql: "DELETE FROM seen_key WHERE source = ?", arguments: [source])
        }
    }
}
