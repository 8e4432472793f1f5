import GRDB
import NotifySchedCore

extension StateStore {
    /// The iSmartNews state of `source`: run counter, queue indexes, pattern progress, rotation,
    /// meta items shown, install and upgrade.
    static func newsState(_ source: String, in database: Database) throws -> NewsState {
        var state = NewsState()
        if let row = try Row.fetchOne(
            database.cachedStatement(
                sql: """
                    SELECT run_counter, first_start_us, application_version, upgraded
                    FROM source_state WHERE source = ?
                    """),
            arguments: [source])
        {
            state.runCounter = row["run_counter"]
            state.firstStart = (row["first_start_us"] as Int64?).map(Instant.init(microseconds:))
            state.applicationVersion = row["application_version"]
            state.upgraded = row["upgraded"]
        }
        for row in try Row.fetchAll(
            database.cachedStatement(sql: "SELECT queue, next_index FROM queue_index WHERE source = ?"),
            arguments: [source])
        {
            state.queueIndexes[row["queue"]] = row["next_index"]
        }
        for row in try Row.fetchAll(
            database.cachedStatement(
                sql: "SELECT event_key, pattern_text, position FROM event_progress WHERE source = ?"),
            arguments: [source])
        {
            state.eventProgress[row["event_key"]] = EventProgress(
                patternText: row["pattern_text"], position: row["position"])
        }
        for row in try Row.fetchAll(
            database.cachedStatement(sql: "SELECT event_names, last_uuid FROM meta_rotation WHERE source = ?"),
            arguments: [source])
        {
            state.lastMetaShown[row["event_names"]] = row["last_uuid"]
        }
        for row in try Row.fetchAll(
            database.cachedStatement(sql: "SELECT uuid, shown_us FROM meta_shown WHERE source = ?"),
            arguments: [source])
        {
            state.metaShownAt[row["uuid"]] = Instant(microseconds: row["shown_us"])
        }
        for row in try Row.fetchAll(
            database.cachedStatement(sql: "SELECT range_key, period, shown FROM range_shown WHERE source = ?"),
            arguments: [source])
        {
            state.rangeShows[row["range_key"]] = RangeShows(period: row["period"], count: row["shown"])
        }
        return state
    }

    /// Replaces the iSmartNews state of `source` in one transaction with the popups the cycle or
    /// event that changed it chose. Event objects missing from `state` lose their progress, as
    /// iSmartNews deletes events no longer in the feed.
    ///
    /// - Parameters:
    ///   - state: The new state.
    ///   - source: The source's location.
    ///   - waiting: Popups the cycle or event chose, which wait until they are shown.
    public func setNewsState(_ state: NewsState, for source: String, waiting: [WaitingPopup] = []) throws(StoreError) {
        try write("write the news state of \(source)") { database in
            try Self.insert(waiting, in: database)
            try database.cachedStatement(
                sql: """
                    INSERT INTO source_state
                        (source, run_counter, first_start_us, application_version, upgraded)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET run_counter = excluded.run_counter,
                        first_start_us = excluded.first_start_us, application_version = excluded.application_version,
                        upgraded = excluded.upgraded
                    """
            ).execute(arguments: [
                source, state.runCounter, state.firstStart?.microseconds, state.applicationVersion, state.upgraded,
            ])
            for table in ["queue_index", "event_progress", "meta_rotation", "meta_shown", "range_shown"] {
                try database.cachedStatement(sql: "DELETE FROM \(table) WHERE source = ?").execute(arguments: [source])
            }
            for (queue, index) in state.queueIndexes {
                try database.cachedStatement(
                    sql: "INSERT INTO queue_index (source, queue, next_index) VALUES (?, ?, ?)"
                ).execute(arguments: [source, queue, index])
            }
            for (key, progress) in state.eventProgress {
                try database.cachedStatement(
                    sql: "INSERT INTO event_progress (source, event_key, pattern_text, position) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [source, key, progress.patternText, progress.position])
            }
            for (names, uuid) in state.lastMetaShown {
                try database.cachedStatement(
                    sql: "INSERT INTO meta_rotation (source, event_names, last_uuid) VALUES (?, ?, ?)"
                ).execute(arguments: [source, names, uuid])
            }
            for (uuid, instant) in state.metaShownAt {
                try database.cachedStatement(
                    sql: "INSERT INTO meta_shown (source, uuid, shown_us) VALUES (?, ?, ?)"
                ).execute(arguments: [source, uuid, instant.microseconds])
            }
            for (key, shows) in state.rangeShows {
                try database.cachedStatement(
                    sql: "INSERT INTO range_shown (source, range_key, period, shown) VALUES (?, ?, ?, ?)"
                ).execute(arguments: [source, key, shows.period, shows.count])
            }
        }
    }
}
