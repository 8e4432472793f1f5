import Foundation
import NotifySchedControl
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedStore
import Testing

/// The real driver under caps, in virtual time: a cap holds across a kill -9 and a restart,
/// since the impressions are in the state database with the deliveries, and every occurrence
/// held back is in the ledger with its reason.
@Suite struct EmbeddedCapsTests {
    static let start = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test func aGroupCapAnEntryCapAndTheUsersBoundHoldAcrossAKillAndARestart() throws {
        let feed = """
            {"groups": [{"id": "promo", "frequency": {"custom": [{"period": "1h", "cap": 2}]}}],
             "notifications": [
              {"id": "a", "title": "A", "calendar": "*:0/10", "groups": ["promo"], "priority": 1},
              {"id": "b", "title": "B", "calendar": "*:0/10", "groups": ["promo"]},
              {"id": "urgent", "title": "Urgent", "calendar": "*:5", "urgency": "critical"},
              {"id": "once", "title": "Once", "calendar": "*:7", "frequency": {"lifetime": 1}}
            ]}
            """
        let daemon = try EmbeddedDaemon(feeds: [("feed.json", feed)], at: Self.start) {
            $0.maxPopups = PopupBound(count: 2, period: .hours(1))
        }
        daemon.advance(by: .minutes(15))
        try daemon.killAndRestart()
        daemon.advance(by: .minutes(50))
        try daemon.stopAndRestart()
        daemon.advance(by: .minutes(60))
        let minute = { (minutes: Int64) in (Self.start + .minutes(minutes)).rfc3339 }
        // 08:10: a wins the slot the user's bound (2 an hour) leaves after once at 08:07; then
        // the bound holds a and b until the window slides past 08:10; at 09:10 both show, and
        // the group (2 an hour) holds them from then on. Critical popups are exempt. The popups
        // each new daemon takes over on screen are no new impressions.
        #expect(
            daemon.shown.filter(\.isDelivery).map { "\($0.popup.summary) \($0.at.rfc3339)" } == [
                "Urgent \(minute(5))", "Once \(minute(7))", "A \(minute(10))", "Urgent \(minute(65))",
                "A \(minute(70))", "B \(minute(70))", "Urgent \(minute(125))",
            ])
        let suppressed = try daemon.store.history(since: Self.start, source: nil).map(\.record).filter {
            $0.outcome == .suppressed
        }
        let reasons = Dictionary(
            suppressed.map { ("\($0.entryID) \($0.occurrence.rfc3339)", $0.suppression?.code ?? "none") },
            uniquingKeysWith: { first, _ in first })
        let bound = "max-popups"
        let group = "group-frequency"
        #expect(
            reasons == [
                "b \(minute(10))": bound, "a \(minute(20))": bound, "b \(minute(20))": bound,
                "a \(minute(30))": bound, "b \(minute(30))": bound, "a \(minute(40))": bound,
                "b \(minute(40))": bound, "a \(minute(50))": bound, "b \(minute(50))": bound,
                "a \(minute(60))": bound, "b \(minute(60))": bound, "once \(minute(67))": "frequency",
                "a \(minute(80))": group, "b \(minute(80))": group, "a \(minute(90))": group,
                "b \(minute(90))": group, "a \(minute(100))": group, "b \(minute(100))": group,
                "a \(minute(110))": group, "b \(minute(110))": group, "a \(minute(120))": group,
                "b \(minute(120))": group,
            ])
        #expect(suppressed.count == reasons.count, "each occurrence recorded once")
    }
}

extension EmbeddedCapsTests {
    @Test func aRolloutShowsOnTheDesktopsInItsRangeAndStatusGivesThisDesktopsBucket() throws {
        let feed = """
            {"notifications": [
              {"id": "everyone", "title": "Everyone", "fireDate": "2027-01-15T08:01:00Z",
               "rollout": {"namespace": "spring", "start": 3, "count": 100, "total": 100}},
              {"id": "nobody", "title": "Nobody", "fireDate": "2027-01-15T08:01:00Z",
               "rollout": {"namespace": "spring", "start": 0, "count": 0, "total": 100}}
            ]}
            """
        let daemon = try EmbeddedDaemon(feeds: [("feed.json", feed)], at: Self.start)
        daemon.advance(by: .minutes(2))
        #expect(daemon.shown.map(\.popup.summary) == ["Everyone"])
        let nobody = try #require(
            try daemon.store.history(since: Self.start, source: nil).first { $0.record.entryID == "nobody" })
        let installID = try InstallIdentity.load(inFolder: daemon.folder + "/state").id
        let bucket = Rollout(namespace: "spring", start: 0, count: 0, total: 100).bucket(of: installID)
        #expect(
            nobody.record.suppression
                == .outsideRollout(Rollout(namespace: "spring", start: 0, count: 0, total: 100), bucket: bucket))
        guard case .status(let json) = try daemon.call(.status).value else {
            Issue.record("no status")
            return
        }
        let status = try JSONDecoder().decode(DaemonStatus.self, from: Data(json.utf8))
        #expect(
            status.sources.first?.rollouts?.map { "\($0.start) \($0.count) \($0.bucket) \($0.inRange)" } == [
                "3 100 \(bucket) true", "0 0 \(bucket) false",
            ])
    }
}

extension EmbeddedCapsTests {
    @Test func targetingShowsTheEntriesMeantForTheUsersTagsAndRecordsWhatDecidedTheOthers() throws {
        let feed = """
            {"version": 3, "notifications": [
              {"id": "fans", "title": "Fans", "fireDate": "2027-01-15T08:01:00Z",
               "targeting": "'sports' in tags && feed.version >= 3"},
              {"id": "others", "title": "Others", "fireDate": "2027-01-15T08:01:00Z",
               "targeting": "'gardening' in tags"}
            ]}
            """
        let daemon = try EmbeddedDaemon(feeds: [("feed.json", feed)], at: Self.start) { $0.tags = ["sports", "news"] }
        daemon.advance(by: .minutes(2))
        #expect(daemon.shown.map(\.popup.summary) == ["Fans"])
        let others = try #require(
            try daemon.store.history(since: Self.start, source: nil).first { $0.record.entryID == "others" })
        #expect(
            others.record.suppression
                == .targeting(
                    TargetingVerdict(
                        expression: "'gardening' in tags", values: [.init(path: "tags", value: #"["sports","news"]"#)]))
        )
    }
}
