import Foundation
import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedTesting
import Testing

/// Fetch, verify, cache and fall back, against a real server and real files.
@Suite(.ownThread) struct PortalFeedLoaderTests {
    let server: PortalTestServer
    let directories: UserDirectories
    let fetcher: FeedFetcher
    let loader: PortalFeedLoader
    let parser = FeedParser(zones: TimeZoneDatabase())
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let keys = Ed25519.generateKeyPair()

    init() throws {
        server = try PortalTestServer()
        let home = try TestFolder.make("home")
        directories = UserDirectories(
            configuration: home.path + "/config", cache: home.path + "/cache", state: home.path + "/state")
        fetcher = try FeedFetcher(
            configuration: FetchConfiguration(connectTimeout: .seconds(2), totalTimeout: .seconds(2)))
        loader = PortalFeedLoader(fetcher: fetcher, directories: directories)
    }

    static func feed(version: Int, title: String = "Hello", expires: String? = nil) -> String {
        let expiry = expires.map { #", "expires": "\#($0)""# } ?? ""
        return #"{"version": \#(version)\#(expiry), "notifications": [{"id": "a", "title": "\#(title)"}]}"#
    }

    /// Publishes `text` as feed.json, signed with `privateKey` (the test's key by default).
    func publish(_ text: String, signedWith privateKey: [UInt8]? = nil, age: TimeInterval = 60) throws {
        try server.write("feed.json", text, age: age)
        let signature = try Ed25519.sign(Array(text.utf8), privateKey: privateKey ?? keys.privateKey)
        try server.write("feed.json.sig", Base64.encode(signature) + "\n")
    }

    func load(key: FeedPublicKey? = nil, fallback: Bool = true) -> LoadedPortalFeed {
        loader.load(server.feedURL("feed.json"), publicKey: key, parser: parser, now: now, allowCacheFallback: fallback)
    }

    func title(_ feed: LoadedPortalFeed) -> String? { feed.parsed?.schedule?.entries.first?.content.title }

    static let calendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        REFRESH-INTERVAL;VALUE=DURATION:PT6H\r
        BEGIN:VEVENT\r
        UID:standup\r
        DTSTART:20270104T093000Z\r
        SUMMARY:Stand-up\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER:-PT10M\r
        END:VALARM\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    @Test func aSubscribedCalendarAsksForItsRefreshIntervalAndShowsTheAlarmsItIsGiven() throws {
        defer { fetcher.shutdown() }
        try server.write("team.ics", Self.calendar)
        let url = server.feedURL("team.ics")
        var calendarParser = parser
        calendarParser.alarmPolicy = SourceSettings().alarmPolicy(for: url)
        let subscribed = loader.load(url, publicKey: nil, parser: calendarParser, now: now)
        #expect(subscribed.origin == .fetched)
        #expect(subscribed.portalPeriod == .hours(6))
        #expect(subscribed.parsed?.schedule?.entries.isEmpty == true, "a URL's own alarms are someone else's")
        calendarParser.alarmPolicy = .embedded
        let embedded = loader.load(url, publicKey: nil, parser: calendarParser, now: now)
        #expect(embedded.parsed?.schedule?.entries.map(\.id) == ["standup/1"])
    }

    @Test func aFolderOfCalendarItemsIsOneFeedWhoseProblemsNameTheirFile() throws {
        defer { fetcher.shutdown() }
        let folder = try TestFolder.make("vdir")
        try Self.calendar.write(to: folder.appendingPathComponent("standup.ics"), atomically: true, encoding: .utf8)
        try Self.calendar.replacingOccurrences(of: "standup", with: "review").write(
            to: folder.appendingPathComponent("review.ics"), atomically: true, encoding: .utf8)
        try "half-written".write(
            to: folder.appendingPathComponent(".review.ics.tmp"), atomically: true, encoding: .utf8)
        let loaded = loader.load(folder.path, publicKey: nil, parser: parser, now: now)
        #expect(loaded.origin == .file)
        #expect(loaded.parsed?.schedule?.entries.map(\.id) == ["review/1", "standup/1"])
        #expect(loaded.parsed?.diagnostics.isEmpty == true)
        try Self.calendar.replacingOccurrences(of: "standup", with: "broken")
            .replacingOccurrences(of: "DTSTART:20270104T093000Z", with: "DTSTART:2027").write(
                to: folder.appendingPathComponent("broken.ics"), atomically: true, encoding: .utf8)
        let broken = loader.load(folder.path, publicKey: nil, parser: parser, now: now)
        let problem = try #require(broken.parsed?.diagnostics.first)
        #expect(problem.error.location == FeedLocation(keyPath: "broken.ics/VEVENT.DTSTART", line: 6))
        let signed = loader.load(folder.path, publicKey: keys.publicKey, parser: parser, now: now)
        #expect(signed.failure?.message.contains("cannot be signed") == true)
    }

    @Test func aGoodFeedIsCachedAndA304UsesTheCache() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 1))
        let first = load()
        #expect(first.origin == .fetched && title(first) == "Hello" && first.warnings.isEmpty)
        let cached = try #require(try loader.cache.load(server.feedURL("feed.json")))
        #expect(cached.bytes == Array(Self.feed(version: 1).utf8) && cached.storedAt == now)
        let second = load()
        #expect(second.origin == .notModified && title(second) == "Hello")
        #expect(server.requests().last?.header("If-None-Match") == cached.validators.etag)
    }

    @Test func aCopySetAsideIsNeitherAskedAboutNorFallenBackOnUntilAFreshOneIsStored() throws {
        defer { fetcher.shutdown() }
        let url = server.feedURL("feed.json")
        try publish(Self.feed(version: 1))
        #expect(load().origin == .fetched)
        try loader.cache.setAside(url)
        #expect(loader.cache.isSetAside(url))
        try server.setStatus("feed.json", 503)
        let failed = load()
        #expect(failed.parsed == nil && failed.failure != nil, "no fallback on the copy set aside")
        try server.clearStatus("feed.json")
        let fresh = load()
        #expect(fresh.origin == .fetched && title(fresh) == "Hello")
        #expect(server.requests().last?.header("If-None-Match") == nil, "the whole feed is asked for again")
        #expect(!loader.cache.isSetAside(url), "a fresh copy ends it")
    }

    @Test func theCachedCopyLoadsWithoutAskingThePortal() throws {
        defer { fetcher.shutdown() }
        let url = server.feedURL("feed.json")
        let none = loader.loadCached(url, publicKey: nil, parser: parser, now: now)
        #expect(
            none.parsed == nil
                && none.failure == CheckFailure(code: "network.no-cached-copy", message: "\(url): no cached copy yet"))
        try publish(Self.feed(version: 1))
        #expect(load().origin == .fetched)
        let requests = server.requests().count
        let cached = loader.loadCached(url, publicKey: nil, parser: parser, now: now)
        #expect(cached.origin == .cache && title(cached) == "Hello" && cached.failure == nil)
        #expect(server.requests().count == requests, "loading the cached copy must not fetch")
    }

    @Test func theCacheIsKeptThroughEveryKindOfFailure() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 1))
        #expect(load().origin == .fetched)
        let good = try loader.cache.load(server.feedURL("feed.json"))

        try server.setStatus("feed.json", 500)
        let broken = load()
        #expect(broken.origin == .cache && title(broken) == "Hello")
        #expect(broken.warnings.first?.contains("the server answered 500") == true)
        #expect(broken.warnings.first?.contains("using the copy cached at 2027-01-15T08:00:00Z") == true)

        try server.setStatus("feed.json", 429, retryAfter: "60")
        #expect(load().origin == .cache)

        try server.clearStatus("feed.json")
        try server.write("feed.json", "{ not json", age: 5)
        let invalid = load()
        #expect(invalid.origin == .fetchedWithErrors && invalid.parsed?.hasErrors == true)

        #expect(try loader.cache.load(server.feedURL("feed.json")) == good, "no failure may replace the last good feed")

        try server.write("feed.json", Self.feed(version: 2, title: "Recovered"), age: 1)
        let recovered = load()
        #expect(recovered.origin == .fetched && title(recovered) == "Recovered")
    }

    @Test func failuresWaitAboutAPeriodAndRecoveryReturnsToTheCheckPeriod() throws {
        defer { fetcher.shutdown() }
        let policy = PollingPolicy(checkPeriod: .hours(1), initialBackoff: .minutes(1), minimumRetryDelay: .seconds(10))
        var generator = SplitMix64(seed: 6)
        var clock = now
        var failures = 0
        var delays: [TimeSpan] = []
        // Checks once at `clock` and advances it to the next check, as the daemon will.
        func check() -> LoadedPortalFeed {
            let feed = loader.load(server.feedURL("feed.json"), publicKey: nil, parser: parser, now: clock)
            let next: Instant
            if feed.checkSucceeded {
                failures = 0
                next = policy.nextCheck(afterSuccessAt: clock, using: &generator)
            } else {
                failures += 1
                // The first check brought a copy, which stays in force through the failures.
                next = policy.nextCheck(
                    afterFailure: failures, at: clock, retryAfter: feed.fetchError?.retryAfter, hasCopy: true,
                    using: &generator)
            }
            delays.append(next - clock)
            clock = next
            return feed
        }
        try publish(Self.feed(version: 1))
        #expect(check().checkSucceeded)
        try server.setStatus("feed.json", 500)
        for _ in 0..<3 {
            let feed = check()
            #expect(!feed.checkSucceeded && feed.origin == .cache && feed.fetchError?.status == 500)
        }
        try server.setStatus("feed.json", 429, retryAfter: "900")
        #expect(check().fetchError?.retryAfter == .delay(.seconds(900)))
        try server.clearStatus("feed.json")
        #expect(check().checkSucceeded)
        #expect(delays[0] == .hours(1))
        for delay in delays[1...3] {
            #expect(delay >= .minutes(30) && delay <= .minutes(90), "with a copy, a retry about a period later")
        }
        #expect(delays[4] >= .seconds(900), "Retry-After: 900 must be honoured")
        #expect(delays[5] == .hours(1), "after recovery the source is back on its check period")
    }

    @Test func withoutFallbackAFailedFetchIsAFailure() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 1))
        _ = load()
        try server.setStatus("feed.json", 503, retryAfter: "30")
        let feed = load(fallback: false)
        #expect(feed.parsed == nil && feed.origin == nil)
        #expect(
            feed.failure
                == CheckFailure(
                    code: "network.http-status",
                    message:
                        "\(server.feedURL("feed.json")): the server answered 503 Service Unavailable (Retry-After: 30 s)"
                ))
    }

    @Test func offlineTheCachedCopyIsUsedWithAWarning() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 1))
        _ = load()
        server.stop()
        let offline = load()
        #expect(offline.origin == .cache && title(offline) == "Hello")
        #expect(offline.warnings.count == 1)
    }

    @Test func aSignedFeedIsAcceptedAndItsVersionRecorded() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 3))
        let feed = load(key: keys.publicKey)
        #expect(feed.origin == .fetched && title(feed) == "Hello", "\(feed.failure?.message ?? "")")
        #expect(try loader.versions.highestVersion(for: keys.publicKey) == 3)
        #expect(try loader.cache.load(server.feedURL("feed.json"))?.signature != nil)
        #expect(load(key: keys.publicKey).origin == .notModified)
    }

    @Test func unsignedTamperedAndWronglySignedFeedsAreRefused() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 1))
        #expect(load(key: keys.publicKey).origin == .fetched)
        let url = server.feedURL("feed.json")

        // Tampered: the bytes change, the signature does not.
        try server.write("feed.json", Self.feed(version: 2, title: "Evil"), age: 5)
        var feed = load(key: keys.publicKey, fallback: false)
        #expect(feed.parsed == nil)
        #expect(
            feed.failure
                == CheckFailure(
                    code: "feed.bad-signature",
                    message:
                        "\(url): refused: the signature does not match the feed and the public key \(keys.publicKey)"))

        // Signed by someone else.
        try publish(Self.feed(version: 2, title: "Evil"), signedWith: Ed25519.generateKeyPair().privateKey, age: 4)
        feed = load(key: keys.publicKey, fallback: false)
        #expect(feed.failure?.message.contains("the signature does not match") == true)

        // Unsigned.
        try FileManager.default.removeItem(at: server.root.appendingPathComponent("feed.json.sig"))
        feed = load(key: keys.publicKey, fallback: false)
        #expect(
            feed.failure
                == CheckFailure(
                    code: "feed.unsigned",
                    message: "\(url): refused: a public key is set but the feed has no signature (\(url).sig)"))

        // Garbage in the .sig.
        try server.write("feed.json.sig", "not base64!")
        feed = load(key: keys.publicKey, fallback: false)
        #expect(
            feed.failure
                == CheckFailure(
                    code: "feed.bad-signature",
                    message: "\(url): refused: \(url).sig is not the base64 of a 64-byte Ed25519 signature"))

        // With fallback, the last good (signed) copy is used.
        let fallback = load(key: keys.publicKey)
        #expect(fallback.origin == .cache && title(fallback) == "Hello")
        #expect(try loader.versions.highestVersion(for: keys.publicKey) == 1)
    }

    @Test func aKeySetAfterAnUnsignedCacheFetchesTheWholeFeedAgain() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 1))
        #expect(load().origin == .fetched)
        let signed = load(key: keys.publicKey)
        #expect(signed.origin == .fetched, "\(signed.failure?.message ?? "")")
        #expect(server.requests().suffix(2).first?.header("If-None-Match") == nil)
        #expect(try loader.cache.load(server.feedURL("feed.json"))?.signature != nil)
    }

    @Test func anOlderVersionIsARollbackAndRefused() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 5, title: "Five"))
        #expect(load(key: keys.publicKey).origin == .fetched)
        try publish(Self.feed(version: 4, title: "Four"), age: 5)
        let feed = load(key: keys.publicKey)
        #expect(feed.origin == .cache && title(feed) == "Five")
        #expect(
            feed.warnings.first?.contains("refused: version 4 is older than version 5 accepted before (rollback)")
                == true)
        #expect(try loader.versions.highestVersion(for: keys.publicKey) == 5)
        // The same version again is fine (a portal that re-signs or re-serves).
        try publish(Self.feed(version: 5, title: "Five again"), age: 4)
        #expect(title(load(key: keys.publicKey)) == "Five again")
    }

    @Test func anExpiredFeedIsRefusedAndSoIsAnExpiredCache() throws {
        defer { fetcher.shutdown() }
        try publish(Self.feed(version: 1, expires: "2020-01-01T00:00:00Z"))
        let feed = load(key: keys.publicKey)
        #expect(feed.parsed == nil)
        #expect(
            feed.failure
                == CheckFailure(
                    code: "feed.expired",
                    message:
                        "\(server.feedURL("feed.json")): refused: the feed expired at 2020-01-01T00:00:00Z (now 2027-01-15T08:00:00Z)"
                ))
        #expect(try loader.cache.load(server.feedURL("feed.json")) == nil)
    }

    @Test func aSignedLocalFileNeedsItsSigBesideIt() throws {
        defer { fetcher.shutdown() }
        let folder = try TestFolder.make("local")
        let path = folder.appendingPathComponent("feed.json").path
        let text = Self.feed(version: 1)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        var feed = loader.load(path, publicKey: keys.publicKey, parser: parser, now: now)
        #expect(
            feed.failure
                == CheckFailure(
                    code: "feed.unsigned",
                    message: "\(path): refused: a public key is set but the feed has no signature (\(path).sig)"))
        let signature = try Ed25519.sign(Array(text.utf8), privateKey: keys.privateKey)
        try Data((Base64.encode(signature) + "\n").utf8).write(to: URL(fileURLWithPath: path + ".sig"))
        feed = loader.load(path, publicKey: keys.publicKey, parser: parser, now: now)
        #expect(feed.origin == .file && title(feed) == "Hello")
    }
}

/// The pure acceptance rules, with the real Ed25519.
@Suite(.ownThread) struct FeedAuthenticatorTests {
    let keys = Ed25519.generateKeyPair()
    let now = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test func freshnessRules() {
        func check(_ version: Int64?, _ expires: Instant?, _ highest: Int64?) -> CoreError.Code? {
            FeedAuthenticator.checkFreshness(
                version: version, expires: expires, highestAcceptedVersion: highest, now: now, source: "f")?.code
        }
        #expect(check(1, nil, nil) == nil)
        #expect(check(5, nil, 5) == nil)
        #expect(check(6, nil, 5) == nil)
        #expect(check(4, nil, 5) == .rollback)
        #expect(check(nil, nil, 5) == .rollback, "dropping the version must not get around rollback protection")
        #expect(check(nil, nil, nil) == nil)
        #expect(check(1, now, nil) == .expired)
        #expect(check(1, now + .seconds(1), nil) == nil)
    }

    @Test func theSignatureCoversTheExactBytes() throws {
        let message = Array("{\"notifications\": []}".utf8)
        let signature = Base64.encode(try Ed25519.sign(message, privateKey: keys.privateKey))
        let authenticator = FeedAuthenticator(publicKey: keys.publicKey, verifier: Ed25519())
        #expect(authenticator.checkSignature(Array(signature.utf8), over: message, source: "f") == nil)
        #expect(authenticator.checkSignature(Array((signature + "\n").utf8), over: message, source: "f") == nil)
        #expect(
            authenticator.checkSignature(Array(signature.utf8), over: message + [0x20], source: "f")?.code
                == .badSignature)
    }

    @Test func keysAreBase64Of32Bytes() throws {
        #expect(throws: CoreError.self) { _ = try FeedPublicKey(base64: "AAAA") }
        #expect(throws: CoreError.self) { _ = try FeedPublicKey(base64: "not base64") }
        #expect(try FeedPublicKey(base64: keys.publicKey.base64 + "\n") == keys.publicKey)
        #expect(try Ed25519.publicKey(of: keys.privateKey) == keys.publicKey)
    }
}
