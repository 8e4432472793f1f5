import Foundation
import NotifySchedCore
import NotifySchedTesting
import Testing

/// What receipts count and say, decided in the core: the counter of each outcome, the OTLP
/// body of a day's counts (checked by the opentelemetry-proto schema), the settings that turn
/// them on, the retry after a collector's refusal, and the tag each occurrence's ledger line gets.
@Suite struct ReceiptsTests {
    private let now = instant("2026-11-29T10:00:00Z")

    private func outcome(_ response: PopupResponse?, _ choice: UserChoice?, failed: Bool = false) -> HandlingOutcome {
        HandlingOutcome(
            occurrence: DeliveredOccurrence(
                id: "1", source: "feed", entryID: "e", dialect: .native,
                content: NotificationContent(title: "t", body: "", urgency: .normal), deliveredAt: now),
            origin: .popup, response: response, choice: choice,
            failure: failed ? CoreError(.cannotShow, "no") : nil)
    }

    @Test func eachAnswerCountsUnderTheCounterThatSaysWhatBecameOfThePopup() {
        #expect(ReceiptCounter(outcome(.action("open"), .open)) == .acted(.open))
        #expect(ReceiptCounter(outcome(.action("ok"), .ok)) == .acted(.ok))
        #expect(ReceiptCounter(outcome(.action("ignore"), .ignore)) == .dismissed)
        #expect(ReceiptCounter(outcome(.action("cancel"), .cancel)) == .dismissed)
        #expect(ReceiptCounter(outcome(.action("remind"), .remindLater)) == .snoozed)
        #expect(ReceiptCounter(outcome(.closed(.expired), nil)) == .expiredUnseen)
        #expect(ReceiptCounter(outcome(.closed(.dismissed), nil)) == .dismissed)
        #expect(ReceiptCounter(outcome(.closed(.closedByCall), nil)) == .withdrawn)
        #expect(ReceiptCounter(outcome(.action("open"), .open, failed: true)) == nil, "a failure changes nothing")
        let all: [ReceiptCounter] = [
            .shown, .acted(.open), .acted(.ok), .dismissed, .snoozed, .expiredUnseen, .withdrawn, .missed,
            .suppressed(code: "max-popups"),
        ]
        #expect(all.map { ReceiptCounter(name: $0.description) } == all, "names read back")
        #expect(ReceiptCounter(name: "acted.dance") == nil && ReceiptCounter(name: "suppressed.") == nil)
    }

    private func tallies() -> [ReceiptTally] {
        [
            ReceiptTally(
                source: "https://portal.example.org/feed.json", entryID: "welcome", feedVersion: 3,
                day: ReceiptDay(now), counts: [.shown: 12, .acted(.open): 4, .dismissed: 7]),
            ReceiptTally(
                source: "https://portal.example.org/feed.json", entryID: "sale \"50%\" <b>", feedVersion: nil,
                day: ReceiptDay(now - .days(1)), counts: [.suppressed(code: "targeting"): 2]),
        ]
    }

    @Test func aBodyIsAnOTLPLogsRequestWithARecordPerTallyAndItsCountsAsAttributes() throws {
        try #require(OTLPOracle.isInstalled, "run scripts/install-deps, which installs the OTLP oracle")
        var generator = SplitMix64(seed: 9)
        let body = ReceiptBody.encode(
            source: "https://user:secret@portal.example.org/feed.json", tallies: tallies(),
            dropped: ReceiptDrops(receipts: 3, count: 40), day: ReceiptDay(now), using: &generator)
        let verdict = try #require(try OTLPOracle.check([body.json]).first)
        #expect(verdict.valid, "\(verdict.error ?? "")")
        #expect(verdict.resource?["service.name"]?.string == "notify-sched")
        #expect(verdict.resource?["notify_sched.source"]?.string == "https://portal.example.org/feed.json")
        let records = try #require(verdict.records)
        #expect(body.recordCount == records.count && records.count == 3)
        #expect(records.map { $0.attributes["notify_sched.entry.id"]?.string } == ["sale \"50%\" <b>", "welcome", nil])
        #expect(records[1].attributes["notify_sched.count.shown"]?.int == 12)
        #expect(records[1].attributes["notify_sched.count.acted.open"]?.int == 4)
        #expect(records[1].attributes["notify_sched.count.dismissed"]?.int == 7)
        #expect(records[0].attributes["notify_sched.count.suppressed.targeting"]?.int == 2)
        #expect(records[0].attributes["notify_sched.day"]?.string == "2026-11-28")
        #expect(records[2].eventName == ReceiptBody.droppedEventName)
        #expect(records[2].attributes["notify_sched.dropped.count"]?.int == 40)
    }

    @Test func twoDesktopsWithTheSameCountsSendBodiesThatDifferOnlyInTheirRandomIDs() {
        var first = SplitMix64(seed: 1)
        var second = SplitMix64(seed: 2)
        let one = ReceiptBody.encode(source: "feed.json", tallies: tallies(), day: ReceiptDay(now), using: &first)
        let other = ReceiptBody.encode(
            source: "feed.json", tallies: tallies().reversed(), day: ReceiptDay(now + .hours(5)), using: &second)
        let ids = #/"[0-9a-f]{32}"/#
        #expect(one.json != other.json)
        #expect(one.json.replacing(ids, with: "ID") == other.json.replacing(ids, with: "ID"))
        for forbidden in ["host", "install", "instance", ProcessInfo.processInfo.hostName] {
            #expect(!one.json.contains(forbidden), "\(forbidden) is not sent")
        }
    }

    @Test func aFileSourceIsNamedByItsFileAloneSinceItsFolderMayNameTheUser() {
        #expect(ReceiptBody.sourceName("/home/alice/feeds/team.json") == "team.json")
        #expect(ReceiptBody.sourceName("HTTPS://Portal.example.org:443/a?b=1") == "https://portal.example.org/a?b=1")
        #expect(ReceiptBody.sourceName("https://me:pw@portal.example.org/a") == "https://portal.example.org/a")
    }

    @Test func receiptsAreOnOnlyWithCountsAndAnEndpointGloballyOrPerSource() {
        let (configuration, diagnostics) = Configuration.parse(
            """
            receipts-endpoint = https://collector.example.org/v1/logs
            [source on]
            feed = https://portal.example.org/on.json
            receipts = counts
            [source default]
            feed = https://portal.example.org/default.json
            [source elsewhere]
            feed = /feeds/elsewhere.json
            receipts = COUNTS
            receipts-endpoint = http://127.0.0.1:4318/v1/logs
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(
            configuration.receiptEndpoints == [
                "https://portal.example.org/on.json": "https://collector.example.org/v1/logs",
                "/feeds/elsewhere.json": "http://127.0.0.1:4318/v1/logs",
            ])
        let bad = Configuration.parse("receipts = all\nreceipts-endpoint = ftp://collector/\n").diagnostics
        #expect(bad.map(\.error.message).contains { $0.contains("`receipts` is `none` or `counts`, not \"all\"") })
        #expect(bad.map(\.error.message).contains { $0.contains("`receipts-endpoint` must be an http(s):// URL") })
        #expect(
            ReceiptQueueState.summary(mode: .counts, destination: nil, nil)
                == "receipts off: `receipts = counts` needs a `receipts-endpoint`, or a signed feed that names one")
    }

    @Test func aRetryComesAfterTheCollectorsRetryAfterSpreadOverTheDayAfter() {
        var generator = SplitMix64(seed: 4)
        var hours = Set<Int64>()
        for _ in 1...200 {
            let asked = ReceiptRetry.next(retryAfter: .delay(.hours(2)), at: now, using: &generator)
            #expect(asked >= now + .hours(2) && asked < now + .hours(26))
            hours.insert((asked - now).microseconds / TimeSpan.hours(1).microseconds)
            let soon = ReceiptRetry.next(retryAfter: nil, at: now, using: &generator)
            #expect(soon >= now + ReceiptRetry.shortestWait && soon < now + ReceiptRetry.shortestWait + .days(1))
        }
        #expect(hours.count == 24, "spread over every hour of the day after: \(hours.sorted())")
        let year = ReceiptRetry.next(retryAfter: .delay(.days(366)), at: now, using: &generator)
        #expect(year < now + .days(2), "a collector asking for a year is tried within two days")
    }

    @Test func eachSourceUploadsOnceAUTCDayWithTheFirstCheckAfterItsMomentAndRetriesAfterARefusal() throws {
        var uploads = ReceiptUploads(on: [true, false], seed: 7)
        let day = ReceiptDay(now).start
        let moment = try #require(uploads.moment(of: 0))
        func starts(at instant: Instant) -> Bool { uploads.start(0, at: instant) }
        #expect(uploads.moment(of: 1) == nil, "receipts off: no uploads")
        #expect(!starts(at: day + moment - .seconds(1)), "not before the day's moment")
        #expect(starts(at: day + moment))
        #expect(!starts(at: day + moment + .minutes(1)), "one under way")
        uploads.taken(0)
        #expect(!starts(at: day + .hours(24) - .seconds(1)), "once a day")
        #expect(starts(at: day + .days(1) + moment), "again the next day")
        let retryAt = uploads.refused(0, retryAfter: .delay(.hours(3)), at: day + .days(1) + moment)
        #expect(retryAt >= day + .days(1) + moment + .hours(3))
        #expect(!starts(at: retryAt - .seconds(1)), "not before the retry")
        #expect(starts(at: retryAt))
    }

    @Test func anOccurrenceOfASourceWithReceiptsOnIsTaggedWithTheFeedVersionInForce() throws {
        var settings = SourceSettings()
        settings.receipts = ReceiptSettings(mode: .counts, endpoint: "https://collector.example.org/v1/logs")
        let planner = OccurrencePlanner(
            sources: [.init(location: "on"), .init(location: "off")], now: now, userZone: .utc)
        var core = DaemonCore(
            planner: planner,
            polling: SourcePolling(
                sources: [
                    SourcePolling.Source(health: SourceHealth(location: "on"), settings: settings),
                    SourcePolling.Source(health: SourceHealth(location: "off")),
                ], seed: 1))
        let schedule = try #require(parse(#"{"version": 12, "notifications": [{"id": "a", "title": "A"}]}"#).schedule)
        _ = core.handle(.opened(FeedLoad(source: 0, schedule: schedule, settled: [:])), at: now)
        #expect(core.receiptTag(for: "on") == ReceiptTag(feedVersion: 12))
        #expect(core.receiptTag(for: "off") == nil)
        #expect(core.receiptTag(for: DeliveredOccurrence.testSource) == nil)
    }

    @Test func aSignedFeedNamesItsCollectorAndItsPurposeOnlyForAUserWhoSaysCounts() throws {
        let feed = #"""
            {"version": 3, "receipts": {"endpoint": "https://collector.example.org/v1/logs", "purpose": "release notes"},
             "notifications": [{"id": "a", "title": "A"}]}
            """#
        let schedule = try #require(parse(feed).schedule)
        #expect(
            schedule.receipts
                == FeedReceipts(endpoint: "https://collector.example.org/v1/logs", purpose: "release notes"))
        func destination(mode: ReceiptSettings.Mode, endpoint: String? = nil, signed: Bool) -> (String, String?)? {
            var settings = SourceSettings()
            settings.receipts = ReceiptSettings(mode: mode, endpoint: endpoint)
            var core = DaemonCore(
                planner: OccurrencePlanner(sources: [.init(location: "feed")], now: now, userZone: .utc),
                polling: SourcePolling(
                    sources: [
                        SourcePolling.Source(
                            health: SourceHealth(location: "feed"), settings: settings, isSigned: signed)
                    ],
                    seed: 1))
            _ = core.handle(.opened(FeedLoad(source: 0, schedule: schedule, settled: [:])), at: now)
            return core.receiptDestination(of: 0).map { ($0.endpoint, $0.purpose) }
        }
        let accepted = destination(mode: .counts, signed: true)
        #expect(accepted?.0 == "https://collector.example.org/v1/logs" && accepted?.1 == "release notes")
        #expect(destination(mode: .counts, signed: false) == nil, "an unsigned feed names nothing")
        #expect(destination(mode: .none, signed: true) == nil, "the user did not say counts")
        let own = destination(mode: .counts, endpoint: "https://mine.example.org/v1/logs", signed: true)
        #expect(own?.0 == "https://mine.example.org/v1/logs" && own?.1 == nil, "the user's endpoint wins")
        for (bad, message) in [
            (#"{"endpoint": "ftp://x/"}"#, "`endpoint` must be an http(s):// URL"),
            (#"{"endpoint": "https://c.example.org/v1/logs"}"#, "purpose"),
            (
                #"{"endpoint": "https://c.example.org/v1/logs", "purpose": "\#(String(repeating: "x", count: 301))"}"#,
                "`purpose` has at most 300 characters, not 301"
            ),
        ] {
            let result = parse(#"{"receipts": \#(bad), "notifications": []}"#)
            #expect(errors(result).contains { $0.contains(message) }, "\(errors(result))")
        }
    }
}
