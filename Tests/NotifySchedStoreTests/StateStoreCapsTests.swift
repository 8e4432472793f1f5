import Foundation
import GRDB
import NotifySchedCore
import Testing

@testable import NotifySchedStore

/// What the caps need of the state database: the impressions, written with each delivery,
/// read at start and pruned with the ledger; and the suppressed occurrences with their reasons.
@Suite struct StateStoreCapsTests {
    private let now = Instant(secondsSinceEpoch: 1_780_000_000)

    private func freshPath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-caps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("state.sqlite").path
    }

    /// A delivery of `entry` of `source` due and shown at `at`, counted with `groups`.
    private func delivery(
        _ entry: String, at: Instant, source: String = "feed", groups: [String] = [], urgency: Urgency = .normal
    ) -> StateStore.Delivery {
        let id = LedgerRecord.occurrenceID(source: source, entryID: entry, occurrence: at)
        let occurrence = DeliveredOccurrence(
            id: id, source: source, entryID: entry, dialect: .native,
            content: NotificationContent(title: entry, body: "", urgency: urgency), category: nil, news: nil,
            deliveredAt: at, due: at)
        return StateStore.Delivery(
            LedgerRecord(
                occurrenceID: id, source: source, entryID: entry, occurrence: at, outcome: .delivered, recordedAt: at),
            of: occurrence, server: nil,
            impression: source == DeliveredOccurrence.testSource
                ? nil
                : Impression(
                    occurrenceID: id, source: source, entryID: entry, groups: groups, shownAt: at,
                    critical: urgency == .critical))
    }

    @Test func eachDeliveryIsCountedOnceWithItsGroupsAndATestPopupIsNot() throws {
        let store = try StateStore(path: try freshPath())
        let promo = delivery("a", at: now, groups: ["promo", "spring sale"], urgency: .critical)
        try store.recordDeliveries([promo, delivery("t", at: now, source: DeliveredOccurrence.testSource)])
        try store.recordDeliveries([promo])
        #expect(try store.impressions() == [try #require(promo.impression)])
    }

    @Test func aSuppressedOccurrenceIsRecordedWithItsReasonAndLeavesTheWaitingPopups() throws {
        let store = try StateStore(path: try freshPath())
        let popup = WaitingPopup(source: "feed", entryID: "a", occurrence: now)
        try store.setSourceState(SourceState(hasRun: true, lastChecked: now), for: "feed", waiting: [popup])
        let reason = Suppression.groupCap(group: "promo", CapLimit(cap: 1, period: .days(1)))
        let record = LedgerRecord.suppressed("a", of: "feed", occurrence: now, because: reason, at: now)
        try store.recordSuppressed(record)
        #expect(try store.ledgerRecord(occurrenceID: record.occurrenceID) == record)
        #expect(try store.waitingPopups() == [])
        #expect(try store.history(since: now - .hours(1), source: nil).map(\.record) == [record])
    }

    @Test func pruningKeepsEachEntrysLatestHundredImpressionsBeyondTheWindows() throws {
        let store = try StateStore(path: try freshPath())
        let old = now - .days(200)
        try store.recordDeliveries(
            (0..<120).map { delivery("a", at: old + .minutes(Int64($0))) } + [delivery("b", at: now - .days(1))])
        try store.pruneLedger(recordedBefore: now - DaemonCore.ledgerRetention)
        let kept = try store.impressions()
        #expect(kept.count == 101)
        #expect(kept.filter { $0.entryID == "a" }.map(\.shownAt).min() == old + .minutes(20))
    }

    @Test func thePopupsShownBeforeTheCapsCountFromTheUpgradeOn() throws {
        let path = try freshPath()
        let shown = now - .hours(1)
        let id = LedgerRecord.occurrenceID(source: "feed", entryID: "daily", occurrence: shown)
        do {
            let old = try DatabaseQueue(path: path)
            try StateStore.migrator.migrate(old, upTo: "13-health-error-code")
            try old.write { database in
                for (source, occurrenceID) in [("feed", id), (DeliveredOccurrence.testSource, "test")] {
                    try database.execute(
                        sql: """
                            INSERT INTO ledger (occurrence_id, source, entry_id, occurrence_us, outcome, recorded_us)
                            VALUES (?, ?, 'daily', ?, 'delivered', ?);
                            INSERT INTO delivered (occurrence_id, dialect, title, body, urgency, delivered_us)
                            VALUES (?, 'native', 'T', '', 'critical', ?);
                            """,
                        arguments: [
                            occurrenceID, source, shown.microseconds, shown.microseconds, occurrenceID,
                            shown.microseconds,
                        ])
                }
            }
        }
        let store = try StateStore(path: path)
        #expect(
            try store.impressions() == [
                Impression(
                    occurrenceID: id, source: "feed", entryID: "daily", groups: [], shownAt: shown, critical: true)
            ])
    }
}
