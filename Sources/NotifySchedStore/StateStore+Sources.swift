import GRDB
import NotifySchedCore

extension StateStore {
    /// What the daemon remembers of `source` for its session and posted events, read at one
    /// instant: its checks, its iSmartNews state and its handling state; a source never seen
    /// has the empty state.
    public func memory(of source: String) throws(StoreError) -> SourceMemory {
        try read("read the state of \(source)") { database in
            SourceMemory(
                check: try Self.sourceState(source, in: database), news: try Self.newsState(source, in: database),
                handling: try Self.handlingState(source, in: database))
        }
    }

    private static func sourceState(_ source: String, in database: Database) throws -> SourceState {
        guard
            let row = try Row.fetchOne(
                database.cachedStatement(sql: "SELECT * FROM source_state WHERE source = ?"), arguments: [source])
        else { return SourceState() }
        let lastChecked: Int64? = row["last_checked_us"]
        return SourceState(hasRun: row["has_run"], lastChecked: lastChecked.map(Instant.init(microseconds:)))
    }

    /// Replaces the state of `source`, in one transaction with what the check that changed it
    /// chose to show.
    ///
    /// - Parameters:
    ///   - state: The new state.
    ///   - source: The source's location.
    ///   - waiting: Popups the check chose, which wait until they are shown.
    ///   - forgettingSeen: Empty the viewed and ignored lists of the source (an iNotify check in
    ///     debug mode that found every message seen).
    public func setSourceState(
        _ state: SourceState, for source: String, waiting: [WaitingPopup] = [], forgettingSeen: Bool = false
    ) throws(StoreError) {
        try write("write the state of \(source)") { database in
            try database.cachedStatement(
                sql: """
                    INSERT INTO source_state (source, has_run, last_checked_us) VALUES (?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET has_run = excluded.has_run, last_checked_us = excluded.last_checked_us
                    """
            ).execute(arguments: [source, state.hasRun, state.lastChecked?.microseconds])
            if forgettingSeen {
                try database.cachedStatement(sql: "DELETE FROM handling_mark WHERE source = ?").execute(arguments: [
                    source
                ])
            }
            try Self.insert(waiting, in: database)
        }
    }
}
