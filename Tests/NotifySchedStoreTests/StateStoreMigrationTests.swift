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
        "4-waiting-popups",
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
        #expect(try store.settledThrough(source: "feed") == ["daily": occurrence])
        #expect(try store.sourceState("feed") == SourceState(hasRun: true, lastChecked: now))
        #expect(try store.waitingPopups() == [], "the newest tables exist, empty")
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
