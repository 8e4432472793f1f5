import NotifySchedCore
import Testing

/// When the daemon's core checks each source, what a check puts in force and records in the
/// source's health, and which `sync` calls it answers, in virtual time.
@Suite struct DaemonCorePollingTests {
    private let noon = instant("2026-06-01T12:00:00Z")
    private let alpha = #"{"notifications": [{"id": "a", "title": "Alpha", "fireDate": "2026-06-02T12:00:00Z"}]}"#
    private let beta = #"{"notifications": [{"id": "b", "title": "Beta", "fireDate": "2026-06-02T12:00:00Z"}]}"#

    /// A core following `sources`, checked every minute; `refused` lists those whose key is unusable.
    private func core(_ sources: [String], refused: Set<String> = []) -> DaemonCore {
        DaemonCore(
            planner: OccurrencePlanner(sources: sources.map { .init(location: $0) }, now: noon, userZone: .utc),
            polling: SourcePolling(
                sources: sources.map {
                    .init(
                        health: SourceHealth(location: $0), settings: SourceSettings(fetchPeriod: .minutes(1)),
                        refusal: refused.contains($0) ? "its public key is unusable" : nil)
                },
                seed: 7))
    }

    /// `text`'s schedule, as the state database finds it for `source`.
    private func load(_ text: String, source: Int = 0) throws -> FeedLoad {
        FeedLoad(source: source, schedule: try #require(parse(text).schedule), settled: [:])
    }

    private func checksStarted(_ effects: [DaemonEffect]) -> [Int] {
        effects.compactMap { if case .startCheck(let source) = $0 { source } else { nil } }
    }

    private func savedHealth(_ effects: [DaemonEffect]) -> [SourceHealth] {
        effects.compactMap { if case .saveHealth(let health) = $0 { health } else { nil } }
    }

    @Test func aPortalWithNothingCachedIsCheckedWithinSecondsAndOneWithACopyWithinAPeriod() throws {
        var core = core(["a", "b"])
        let nothing = core.handle(.sourceOpened(source: 0, .nothingCached), at: noon)
        let copy = core.handle(.sourceOpened(source: 1, .cachedCopy(try load(alpha, source: 1))), at: noon)
        let prompt = try #require(savedHealth(nothing).first?.nextCheck)
        #expect(prompt >= noon && prompt <= noon + .seconds(5), "nothing to show without it")
        let spread = try #require(savedHealth(copy).first?.nextCheck)
        #expect(spread >= noon && spread <= noon + .minutes(1), "at a new phase within the period")
        #expect(core.planner.schedule(source: 1) != nil, "the copy is in force until its check")
        let woken = core.handle(.timerWoke(clockChanged: false), at: noon + .seconds(5))
        #expect(checksStarted(woken).contains(0), "the source without a copy is checked within seconds")
    }

    /// The portal's `Cache-Control: max-age` is the source's period until an answer without
    /// one; a configured `fetch-period` overrides it.
    @Test func thePortalsMaxAgeIsThePeriodUnlessOneIsConfigured() throws {
        let sources = ["portal", "configured"]
        var core = DaemonCore(
            planner: OccurrencePlanner(sources: sources.map { .init(location: $0) }, now: noon, userZone: .utc),
            polling: SourcePolling(
                sources: [
                    .init(health: SourceHealth(location: "portal", copyTakenAt: noon - .days(1))),
                    .init(
                        health: SourceHealth(location: "configured", copyTakenAt: noon - .days(1)),
                        settings: SourceSettings(fetchPeriod: .minutes(20))),
                ],
                seed: 7))
        for source in sources.indices {
            let answered = core.handle(
                .checkFinished(
                    source: source,
                    .loaded(try load(alpha, source: source), etag: nil, lastModified: nil, portalPeriod: .hours(3))),
                at: noon)
            #expect(savedHealth(answered).last?.portalPeriod == .hours(3))
        }
        #expect(core.polling.sources.map(\.health.nextCheck) == [noon + .hours(3), noon + .minutes(20)])
        let later = noon + .hours(3)
        let plain = core.handle(
            .checkFinished(
                source: 0, .notModified(copy: nil, etag: nil, lastModified: nil, copyTakenAt: noon, portalPeriod: nil)),
            at: later)
        #expect(savedHealth(plain).last?.nextCheck == later + .hours(1), "back to the default once it asks for none")
    }

    /// A resume (or a clock step) that finds checks overdue plans them anew within the period,
    /// so that a fleet of laptops waking together does not ask the portal together.
    @Test func aResumeSpreadsTheChecksThatFellDueWhileAsleep() throws {
        var core = core(["a", "b"])
        _ = core.handle(.sourceOpened(source: 0, .cachedCopy(try load(alpha))), at: noon)
        _ = core.handle(.sourceOpened(source: 1, .cachedCopy(try load(beta, source: 1))), at: noon)
        let morning = noon + .hours(10)
        let woken = core.handle(.timerWoke(clockChanged: true), at: morning)
        #expect(checksStarted(woken).isEmpty, "nothing at the instant of the resume")
        for source in core.polling.sources {
            #expect(source.health.nextCheck.map { $0 >= morning && $0 <= morning + .minutes(1) } == true)
        }
        _ = core.handle(.resumed, at: morning + .milliseconds(20))
        #expect(
            core.polling.nextCheck.map { $0 <= morning + .minutes(1) } == true, "logind's signal changes nothing more")
    }

    @Test func aFailedCheckKeepsTheFeedInForceRetriesAboutAPeriodLaterSaysSoAndARecoveryPutsTheNewFeedInForce() throws {
        var core = core(["feed"])
        _ = core.handle(.opened(try load(alpha)), at: noon)
        var now = noon + .minutes(1)
        #expect(checksStarted(core.handle(.timerWoke(clockChanged: false), at: now)) == [0])
        var ceilings: [TimeSpan] = []
        var logs: [String] = []
        for _ in 1...3 {
            let failed = core.handle(
                .checkFinished(
                    source: 0,
                    .failed(
                        CheckFailure(code: "network.http-status", message: "feed: the server answered 500"),
                        retryAfter: nil)), at: now)
            let next = try #require(savedHealth(failed).last?.nextCheck)
            ceilings.append(next - now)
            logs += failed.compactMap { if case .log(_, let line) = $0 { line } else { nil } }
            #expect(
                core.handle(.timerWoke(clockChanged: false), at: next - .seconds(1)).allSatisfy {
                    $0 != .startCheck(source: 0)
                })
            now = next
            #expect(checksStarted(core.handle(.timerWoke(clockChanged: false), at: now)) == [0])
        }
        #expect(core.planner.schedule(source: 0)?.entries.map(\.id) == ["a"], "the feed in force stays")
        #expect(core.polling.sources[0].health.failures == 3)
        // With the copy in force, each retry falls at a new phase half a period to one and a
        // half periods later: an outage asks no more of the portal than its steady load.
        #expect(ceilings.allSatisfy { $0 >= .seconds(30) && $0 <= .seconds(90) }, "\(ceilings)")
        #expect(logs.count == 3)
        #expect(
            logs.first?.hasPrefix(
                "feed: check failed, the feed in force stays: feed: the server answered 500; next check at ") == true)

        let recovered = core.handle(
            .checkFinished(source: 0, .loaded(try load(beta), etag: "\"2\"", lastModified: nil)), at: now)
        let health = try #require(savedHealth(recovered).last)
        #expect(core.planner.schedule(source: 0)?.entries.map(\.id) == ["b"])
        #expect(recovered.contains(.log(.info, "feed: 1 added, 0 changed, 1 withdrawn")))
        #expect(
            (health.failures, health.lastError, health.etag, health.nextCheck) == (0, nil, "\"2\"", now + .minutes(1)))
    }

    @Test func aRetryAfterHoldsTheNextCheckBackBeyondThePeriod() throws {
        var core = core(["feed"])
        _ = core.handle(.opened(try load(alpha)), at: noon)
        let now = noon + .minutes(1)
        _ = core.handle(.timerWoke(clockChanged: false), at: now)
        let refused = core.handle(
            .checkFinished(
                source: 0,
                .failed(
                    CheckFailure(code: "network.http-status", message: "feed: the server answered 429"),
                    retryAfter: .delay(.minutes(30)))),
            at: now)
        #expect(savedHealth(refused).last?.nextCheck.map { $0 >= now + .minutes(30) } == true)
        #expect(checksStarted(core.handle(.timerWoke(clockChanged: false), at: now + .minutes(29))).isEmpty)
    }

    @Test func anEditedFeedFileIsCheckedAtOnceAndAgainAfterACheckThatMayHaveReadItBefore() throws {
        var core = core(["a", "b"])
        _ = core.handle(.opened(try load(alpha)), at: noon)
        _ = core.handle(.opened(try load(beta, source: 1)), at: noon)
        let edited = noon + .seconds(5)
        #expect(
            checksStarted(core.handle(.sourceFileChanged(source: 1), at: edited)) == [1],
            "at once, long before its period")
        let during = core.handle(.sourceFileChanged(source: 1), at: edited + .milliseconds(50))
        #expect(checksStarted(during).isEmpty, "a source is checked once at a time")
        let finished = core.handle(
            .checkFinished(source: 1, .loaded(try load(beta, source: 1), etag: nil, lastModified: nil)),
            at: edited + .milliseconds(80))
        #expect(checksStarted(finished) == [1], "the edit made during the check is read by a fresh one")
        let settled = core.handle(
            .checkFinished(source: 1, .loaded(try load(alpha, source: 1), etag: nil, lastModified: nil)),
            at: edited + .milliseconds(120))
        #expect(checksStarted(settled).isEmpty)
        #expect(
            core.polling.sources[1].health.nextCheck == edited + .milliseconds(120) + .minutes(1),
            "then its period again")
        #expect(core.planner.schedule(source: 1)?.entries.map(\.id) == ["a"], "the edit is in force")
        #expect(core.polling.sources[0].health.nextCheck != edited, "the other source is left alone")
    }

    @Test func aNotModifiedCheckKeepsTheFeedAndRecordsTheAgeOfTheCopy() throws {
        var core = core(["feed"])
        _ = core.handle(.opened(try load(alpha)), at: noon)
        let now = noon + .minutes(1)
        _ = core.handle(.timerWoke(clockChanged: false), at: now)
        let effects = core.handle(
            .checkFinished(
                source: 0,
                .notModified(copy: nil, etag: "\"1\"", lastModified: nil, copyTakenAt: noon - .hours(2))),
            at: now)
        let health = try #require(savedHealth(effects).last)
        #expect(health.copyAge(at: now) == .hours(2) + .minutes(1))
        #expect((health.lastSuccess, health.etag) == (now, "\"1\""))
        #expect(!effects.contains { if case .log = $0 { true } else { false } }, "nothing to say")
    }

    @Test func syncChecksEverySourceNowAndIsAnsweredOnceAllAreDoneAfterTheManualCheck() throws {
        var core = core(["a", "b", "c"], refused: ["c"])
        _ = core.handle(.opened(try load(alpha)), at: noon)
        _ = core.handle(.opened(try load(alpha, source: 1)), at: noon)
        let asked = core.handle(.syncRequested(token: 7), at: noon + .seconds(5))
        let first = core.handle(
            .checkFinished(source: 0, .notModified(copy: nil, etag: nil, lastModified: nil, copyTakenAt: noon)),
            at: noon + .seconds(6))
        let last = core.handle(
            .checkFinished(source: 1, .loaded(try load(beta, source: 1), etag: nil, lastModified: nil)),
            at: noon + .seconds(7))
        #expect(checksStarted(asked) == [0, 1], "now, whatever the period; never the refused source")
        #expect(!first.contains { if case .answerSync = $0 { true } else { false } }, "b is still being checked")
        #expect(!first.contains(.releaseFreedMemory), "a check still runs")
        let answers = last.filter {
            switch $0 {
            case .takeManualCheck, .answerSync, .releaseFreedMemory: true
            default: false
            }
        }
        #expect(
            answers == [
                .takeManualCheck,
                .answerSync(
                    token: 7,
                    [
                        .notModified("a"),
                        .init(
                            location: "b", failed: false,
                            lines: [
                                "b: 1 added, 0 changed, 1 withdrawn", "+ b  Beta", "- a  Alpha",
                            ]), .failed("c", "its public key is unusable"),
                    ]),
                .releaseFreedMemory,
            ], "iNotify's manual check first, then the answer")
    }

    @Test func aCheckPlannedBeforeTheWallClockWentBackIsBroughtForward() throws {
        var core = core(["feed"])
        _ = core.handle(.opened(try load(alpha)), at: noon)
        let stepped = noon - .hours(3)
        _ = core.handle(.timerWoke(clockChanged: true), at: stepped)
        #expect(core.polling.nextCheck == stepped + .minutes(1), "not three hours and a minute away")
    }

    @Test func aFileWithErrorsAtStartPutsItsUsableEntriesInForceAndCountsAsAFailedCheck() throws {
        var core = core(["feed"])
        let hasErrors = CheckFailure(code: "feed.syntax", message: "feed: the feed has errors (…)")
        let effects = core.handle(
            .sourceOpened(source: 0, .readWithErrors(try load(alpha), failure: hasErrors)),
            at: noon)
        let health = try #require(savedHealth(effects).last)
        #expect(core.planner.schedule(source: 0)?.entries.map(\.id) == ["a"])
        #expect((health.failures, health.lastError) == (1, hasErrors))
        #expect(
            effects.contains {
                if case .log(.warning, let line) = $0 {
                    line.contains("check failed, the feed in force stays")
                } else {
                    false
                }
            })
    }

    @Test func aNotModifiedAnswerForASourceWithoutAFeedPutsTheCachedCopyInForce() throws {
        // At start the cached copy could not go in force (the state database could not be
        // read): the portal answers the check at once with 304.
        var core = core(["feed"])
        _ = core.handle(.sourceOpened(source: 0, .nothingCached), at: noon)
        let neededAFeed = core.needsFeed(of: 0)
        #expect(checksStarted(core.handle(.syncRequested(token: 1), at: noon)) == [0])
        let effects = core.handle(
            .checkFinished(
                source: 0, .notModified(copy: try load(alpha), etag: nil, lastModified: nil, copyTakenAt: noon)),
            at: noon + .seconds(1))
        let needsAFeed = core.needsFeed(of: 0)
        #expect(core.planner.schedule(source: 0)?.entries.map(\.id) == ["a"])
        #expect(neededAFeed && !needsAFeed)
        #expect(
            effects.contains(
                .answerSync(
                    token: 1,
                    [
                        .init(
                            location: "feed", failed: false,
                            lines: ["feed: 1 added, 0 changed, 0 withdrawn", "+ a  Alpha"])
                    ]
                )), "sync says what went in force")
    }

    @Test func aRefusedSourceNeverWakesTheDaemon() {
        // Its stored health planned a check before its key became unusable.
        var core = DaemonCore(
            planner: OccurrencePlanner(sources: [.init(location: "feed")], now: noon, userZone: .utc),
            polling: SourcePolling(
                sources: [
                    .init(
                        health: SourceHealth(location: "feed", nextCheck: noon - .hours(1)),
                        refusal: "its public key is unusable")
                ], seed: 1))
        #expect(core.nextWakeUp == nil, "a check that never comes would wake it at once, forever")
        #expect(checksStarted(core.handle(.timerWoke(clockChanged: false), at: noon)).isEmpty)
    }
}
