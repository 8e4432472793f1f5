import Foundation
import GRDB
import NotifySchedCore
import NotifySchedStore
import Testing

@Suite struct StateStoreTests {
    /// A database in a new temporary folder.
    private func freshPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-store-\(UUID().uuidString)/state.sqlite"
        )
        .path
    }

    private let now = Instant(secondsSinceEpoch: 1_780_000_000)

    private func record(
        _ entry: String, at seconds: Int64, _ outcome: LedgerOutcome, popup: UInt32? = nil, recordedAt: Instant? = nil
    ) -> LedgerRecord {
        let occurrence = Instant(secondsSinceEpoch: seconds)
        return LedgerRecord(
            occurrenceID: LedgerRecord.occurrenceID(source: "feed", entryID: entry, occurrence: occurrence),
            source: "feed",
            entryID: entry, occurrence: occurrence, popupID: popup, outcome: outcome, recordedAt: recordedAt ?? now)
    }

    @Test func aStateFolderThatCannotBeMadeIsNamedWithTheSystemsReason() throws {
        let file = freshPath()
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        do {
            _ = try StateStore(path: file + "/notify-sched/state.sqlite")
            Issue.record("a folder under a file cannot be made")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message == "\(file)/notify-sched: cannot create the state folder: Not a directory")
        }
    }

    @Test func ledgerSurvivesReopeningAndKeepsTheLatestOccurrencePerEntry() throws {
        let path = freshPath()
        do {
            let store = try StateStore(path: path)
            try store.record(record("a", at: 100, .delivered, popup: 7))
            try store.record(record("a", at: 200, .missed))
            try store.record(record("b", at: 150, .acted))
        }
        let store = try StateStore(path: path)
        #expect(try store.settledThrough(source: "feed").instantsByID["c"] == nil)
        #expect(
            try store.settledThrough(source: "feed").instantsByID
                == ["a": Instant(secondsSinceEpoch: 200), "b": Instant(secondsSinceEpoch: 150)])
        let first = record("a", at: 100, .delivered, popup: 7)
        #expect(try store.ledgerRecord(occurrenceID: first.occurrenceID) == first)
        #expect(try store.onScreen() == [first])
        #expect(try store.isIntact())
    }

    @Test func pruningDropsOldRecordsButKeepsEachEntrysLatestAndTheRecentPast() throws {
        let store = try StateStore(path: freshPath())
        let old = now - .days(100)
        // "a" fired every day for a while, long ago, and recently; "b" only long ago.
        for day in 0..<5 {
            try store.record(record("a", at: 1_000 + Int64(day) * 86_400, .delivered, recordedAt: old))
        }
        try store.record(record("a", at: 9_000_000, .delivered, recordedAt: now - .days(2)))
        try store.record(record("a", at: 9_086_400, .missed, recordedAt: now - .days(1)))
        try store.record(record("b", at: 500, .acted, recordedAt: old))
        #expect(try store.pruneLedger(recordedBefore: now - .days(90)) == 5)
        #expect(
            try store.settledThrough(source: "feed").instantsByID == [
                "a": Instant(secondsSinceEpoch: 9_086_400), "b": Instant(secondsSinceEpoch: 500),
            ])
        #expect(try store.ledgerRecord(occurrenceID: record("a", at: 9_000_000, .delivered).occurrenceID) != nil)
        #expect(try store.ledgerRecord(occurrenceID: record("a", at: 1_000, .delivered).occurrenceID) == nil)
        #expect(try store.pruneLedger(recordedBefore: now - .days(90)) == 0)
        #expect(try store.isIntact())
    }

    @Test func followedIdsAreStoredAsTheyAreWhateverTheirCharacters() throws {
        let store = try StateStore(path: freshPath())
        let ids = [
            "plain", "with \"quotes\"", #"back\slash"#, "tab\tnewline\n", "\u{01}\u{1F}", "née 日本 🎉", "",
            #"\u0041"#, "/slash/",
        ]
        store.follow(followed(ids), of: "feed", since: Instant(secondsSinceEpoch: 100)) { Issue.record($0) }
        #expect(Set(try store.settledThrough(source: "feed").instantsByID.keys) == Set(ids))
    }

    @Test func aFollowedEntryIsSettledFromWhenItWasFollowedUntilTheLedgerRecordsIt() throws {
        let path = freshPath()
        do {
            let store = try StateStore(path: path)
            store.follow(followed(["daily", "hourly"]), of: "feed", since: Instant(secondsSinceEpoch: 100)) {
                Issue.record($0)
            }
            store.follow(followed(["daily"]), of: "feed", since: Instant(secondsSinceEpoch: 900)) { Issue.record($0) }
            store.finishBackgroundWrites()
        }
        let store = try StateStore(path: path)
        #expect(
            try store.settledThrough(source: "feed").instantsByID
                == ["daily": Instant(secondsSinceEpoch: 100), "hourly": Instant(secondsSinceEpoch: 100)],
            "following again keeps the first instant, and a reopened database still has it")
        try store.record(record("daily", at: 300, .delivered))
        #expect(
            try store.settledThrough(source: "feed").instantsByID
                == ["daily": Instant(secondsSinceEpoch: 300), "hourly": Instant(secondsSinceEpoch: 100)])
        try store.pruneLedger(recordedBefore: now - .days(90))
        #expect(
            try store.settledThrough(source: "feed").instantsByID
                == ["daily": Instant(secondsSinceEpoch: 300), "hourly": Instant(secondsSinceEpoch: 100)],
            "pruning keeps what each entry is settled through")
        #expect(try store.isIntact())
    }

    @Test func recordingAnOccurrenceAgainUpdatesItsOutcome() throws {
        let store = try StateStore(path: freshPath())
        try store.record(record("a", at: 100, .delivered, popup: 7))
        try store.record(record("a", at: 100, .acted, popup: 7))
        #expect(try store.onScreen() == [])
        #expect(try store.ledgerRecord(occurrenceID: record("a", at: 100, .acted).occurrenceID)?.outcome == .acted)
    }

    @Test func occurrenceIDsAreStableAndDistinct() {
        let id = LedgerRecord.occurrenceID(source: "s", entryID: "e", occurrence: now)
        #expect(id == LedgerRecord.occurrenceID(source: "s", entryID: "e", occurrence: now))
        #expect(id.count == 16)
        #expect(id != LedgerRecord.occurrenceID(source: "s", entryID: "e", occurrence: now + .seconds(1)))
        #expect(id != LedgerRecord.occurrenceID(source: "t", entryID: "e", occurrence: now))
    }

    @Test func sourceStateRoundTrips() throws {
        let store = try StateStore(path: freshPath())
        #expect(try store.memory(of: "feed").check == SourceState())
        let state = SourceState(hasRun: true, lastChecked: now)
        try store.setSourceState(state, for: "feed")
        #expect(try store.memory(of: "feed").check == state)
    }

    @Test func newsStateRoundTripsWithoutTouchingTheCheckTimes() throws {
        let store = try StateStore(path: freshPath())
        try store.setSourceState(SourceState(hasRun: true, lastChecked: now), for: "news")
        let state = NewsState(
            runCounter: 4, queueIndexes: ["tips": 2],
            eventProgress: ["global:session:start": EventProgress(patternText: "ON=1|OFF=2", position: 1)],
            lastMetaShown: ["app:activate|session:start": "survey"], metaShownAt: ["survey": now],
            rangeShows: [
                NewsState.rangeKey(
                    uuid: "survey", range: ShowRange(id: "mornings", span: .weekly(start: 0, end: 3600))):
                    RangeShows(period: 20_415, count: 2)
            ],
            firstStart: now - .days(40), applicationVersion: "2.1", upgraded: true)
        try store.setNewsState(state, for: "news")
        #expect(try store.memory(of: "news").news == state)
        #expect(try store.memory(of: "news").check == SourceState(hasRun: true, lastChecked: now))
    }

    /// The path of a new text file where a state database would be.
    private func textFileWhereTheDatabaseGoes() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("state.sqlite").path
        try Data("this is not a database, it is a text file of some length".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func unopenableDatabaseIsAClearError() throws {
        let path = try textFileWhereTheDatabaseGoes()
        #expect {
            _ = try StateStore(path: path)
        } throws: { error in
            (error as? StoreError)?.code == .unavailable && (error as? StoreError)?.message.hasPrefix(path) == true
        }
    }

    @Test func aStoreErrorKeepsSQLitesErrorWithItsResultCode() throws {
        let path = try textFileWhereTheDatabaseGoes()
        do {
            _ = try StateStore(path: path)
            Issue.record("a text file is not a state database")
        } catch {
            let cause = try #require(error.underlyingError as? DatabaseError, "the cause is kept: \(error)")
            #expect(cause.resultCode == .SQLITE_NOTADB)
        }
    }
}

extension StateStoreTests {
    @Test func sourceHealthSurvivesReopeningAndLeavesTheSourceStateAlone() throws {
        let path = freshPath()
        let health = SourceHealth(
            location: "https://portal.example/feed.json", lastCheck: now, lastSuccess: now - .hours(1),
            lastError: CheckFailure(code: "network.http-status", message: "the server answered 503"), failures: 2,
            nextCheck: now + .minutes(2), etag: "\"v7\"",
            lastModified: "Sat, 21 Nov 2026 10:00:00 GMT", feedVersion: 7, copyTakenAt: now - .hours(1),
            portalPeriod: .hours(6))
        do {
            let store = try StateStore(path: path)
            try store.setSourceState(SourceState(hasRun: true, lastChecked: now), for: health.location)
            try store.setSourceHealth(health)
        }
        let store = try StateStore(path: path)
        #expect(try store.sourceHealth(health.location) == health)
        #expect(try store.memory(of: health.location).check == SourceState(hasRun: true, lastChecked: now))
        #expect(try store.sourceHealth("elsewhere") == SourceHealth(location: "elsewhere"))
    }
}
