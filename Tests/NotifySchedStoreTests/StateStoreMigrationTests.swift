import Foundation
import GRDB
import NotifySchedCore
import Testing

@testable import NotifySchedStore

/// The schema's migrations: a database an earlier notify-sched wrote is upgraded in place with
/// everything in it kept, and one a newer notify-sched wrote is refused rather than damaged.
@Suite struct StateStoreMigrationTests {
    private let now = Instant(secondsSinceEpoch: 1_780_000_000)

    /// A new folder's database path, with the folder made.
    private func freshPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("state.sqlite").path
    }

    @Test(arguments: [
        "1-ledger-and-source-state", "2-delivered-occurrences-and-handling-state", "3-source-health",
        "4-waiting-popups", "7-entry-lookup-and-prompt-time", "8-meta-item-rules",
    ])
    func aDatabaseOfAnEarlierSchemaIsUpgradedWithItsRecordsKept(upTo migration: String) throws {
        let path = try freshPath()
        let occurrence = now - .hours(1)
        let id = LedgerRecord.occurrenceID(source: "feed", entryID: "daily", occurrence: occurrence)
        do {
            let old = try DatabaseQueue(path: path)
            try StateStore.migrator.migrate(old, upTo: migration)
            try old.write { database in
                try database.execute(
                    sql: """
                        INSERT INTO ledger (occurrence_id, source, entry_id, occurrence_us, outcome, recorded_us)
                        VALUES (?, 'feed', 'daily', ?, 'delivered', ?)
                        """,
                    arguments: [id, occurrence.microseconds, now.microseconds])
                try database.execute(
                    sql: "INSERT INTO source_state (source, has_run, last_checked_us) VALUES ('feed', 1, ?)",
                    arguments: [now.microseconds])
            }
        }
        let store = try StateStore(path: path)
        #expect(try store.settledThrough(source: "feed").instantsByID == ["daily": occurrence])
        #expect(try store.memory(of: "feed").check == SourceState(hasRun: true, lastChecked: now))
        #expect(try store.waitingPopups() == [], "the newest tables exist, empty")
        // Migration 8 dates a source's install from the ledger it finds; one written after it is not.
        let installed = migration < "8" ? now : nil
        #expect(
            try store.memory(of: "feed").news.firstStart == installed, "a source followed before was installed by then")
        #expect(try store.isIntact())
    }

    /// The entries an earlier version followed, a row each, are kept with their instants when
    /// the followed entries go in one row per batch: without their positions, which that
    /// version did not keep, and apart from a source's other entries.
    @Test func entriesFollowedARowEachAreKeptWithTheirInstants() throws {
        let path = try freshPath()
        let rows = [("feed", "daily", 100), ("feed", "hourly", 100), ("feed", "weekly", 900), ("other", "daily", 50)]
        do {
            let old = try DatabaseQueue(path: path)
            try StateStore.migrator.migrate(old, upTo: "11-portal-period")
            try old.write { database in
                for (source, entry, since) in rows {
                    try database.execute(
                        sql: "INSERT INTO followed_entry (source, entry_id, since_us) VALUES (?, ?, ?)",
                        arguments: [source, entry, Instant(secondsSinceEpoch: Int64(since)).microseconds])
                }
            }
        }
        let store = try StateStore(path: path)
        #expect(
            try store.settledThrough(source: "feed").instantsByID == [
                "daily": Instant(secondsSinceEpoch: 100), "hourly": Instant(secondsSinceEpoch: 100),
                "weekly": Instant(secondsSinceEpoch: 900),
            ])
        #expect(try store.settledThrough(source: "other").instantsByID == ["daily": Instant(secondsSinceEpoch: 50)])
        #expect(try store.isIntact())
    }

    @Test func stateKeptUnderAnotherSpellingOfALocationMovesToItsCanonicalOne() throws {
        let store = try StateStore(path: try freshPath())
        let canonical = "/home/user/feeds/team.json"
        let spellings = ["feeds/team.json": canonical, "./feeds/team.json": canonical, canonical: canonical]
        // The same feed, followed once by a relative path and once by its absolute one.
        for (index, typed) in ["feeds/team.json", canonical].enumerated() {
            try store.record(
                LedgerRecord(
                    occurrenceID: "\(index)", source: typed, entryID: "welcome",
                    occurrence: now + .seconds(Int64(index)),
                    outcome: .delivered, recordedAt: now))
        }
        try store.setSourceState(SourceState(hasRun: true, lastChecked: now), for: "./feeds/team.json")
        try store.setSourceState(SourceState(hasRun: true, lastChecked: now + .hours(1)), for: canonical)
        store.follow(followed(["daily"]), of: "feeds/team.json", since: now) { Issue.record($0) }
        let moved = try store.moveSources { spellings[$0] ?? $0 }
        #expect(moved.map(\.from).sorted() == ["./feeds/team.json", "feeds/team.json"])
        #expect(moved.allSatisfy { $0.to == canonical })
        #expect(
            try store.settledThrough(source: canonical).instantsByID == ["welcome": now + .seconds(1), "daily": now],
            "both ledgers and the followed entry are the canonical source's")
        #expect(
            try store.memory(of: canonical).check == SourceState(hasRun: true, lastChecked: now + .hours(1)),
            "where both have a row, the canonical location's stays")
        #expect(try store.settledThrough(source: "feeds/team.json").instantsByID == [:])
        #expect(try store.moveSources { spellings[$0] ?? $0 }.isEmpty, "a second pass moves nothing")
        #expect(try store.isIntact())
    }

    @Test func aDatabaseANewerNotifySchedWroteIsRefusedAndLeftAlone() throws {
        let path = try freshPath()
        try StateStore(path: path).setSourceState(SourceState(hasRun: true), for: "feed")
        do {
            let newer = try DatabaseQueue(path: path)
            try newer.write { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('9-from-later')") }
        }
        #expect {
            _ = try StateStore(path: path)
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .newerSchema && error.message.contains("\"9-from-later\"")
        }
        let untouched = try DatabaseQueue(path: path)
        #expect(try untouched.read { try Int.fetchOne($0, sql: "SELECT has_run FROM source_state") } == 1)
    }
}
