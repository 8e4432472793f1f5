import Foundation
import NotifySchedCore
import NotifySchedNetwork
import NotifySchedTesting
import Testing

@Suite(.ownThread) struct FeedFetcherTests {
    static let feed = #"{"version": 1, "notifications": [{"id": "a", "title": "Hello"}]}"#

    /// A fetcher with short timeouts, so the failure tests are quick; shut down after `body`.
    private func withFetcher<T>(
        _ configuration: FetchConfiguration = FetchConfiguration(
            connectTimeout: .seconds(2), totalTimeout: .seconds(2)),
        _ body: (FeedFetcher) throws -> T
    ) throws -> T {
        let fetcher = try FeedFetcher(configuration: configuration)
        defer { fetcher.shutdown() }
        return try body(fetcher)
    }

    private func failure(_ fetcher: FeedFetcher, _ url: String) -> NetworkError? {
        do {
            _ = try fetcher.fetch(url)
            return nil
        } catch {
            return error
        }
    }

    @Test func aFetchAskedForAfterShutdownFailsSayingSoRatherThanCrashing() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed)
        let url = server.feedURL("feed.json")
        let fetcher = try FeedFetcher()
        fetcher.shutdown()
        #expect(throws: NetworkError(.shutDown, "\(url): not fetched: notify-sched is stopping")) {
            try fetcher.fetch(url)
        }
    }

    @Test func aShutdownWhileFetchesStartOnOtherThreadsEndsEveryOne() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed)
        let url = server.feedURL("feed.json")
        let fetcher = try FeedFetcher()
        let ended = DispatchGroup()
        let outcomes = Outcomes()
        for _ in 0..<16 {
            DispatchQueue.global().async(group: ended) {
                do {
                    _ = try fetcher.fetch(url)
                    outcomes.add("fetched")
                } catch {
                    outcomes.add((error as? NetworkError)?.code.rawValue ?? "\(error)")
                }
            }
        }
        fetcher.shutdown()
        #expect(ended.wait(timeout: .now() + 30) == .success, "every fetch ends once the fetcher is shut down")
        #expect(outcomes.count == 16, "\(outcomes.all)")
    }

    @Test func fetchesThenAsksConditionallyAndGets304() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed)
        try withFetcher { fetcher in
            guard case .fetched(let bytes, let validators, _) = try fetcher.fetch(server.feedURL("feed.json")) else {
                Issue.record("the first fetch should be a 200")
                return
            }
            #expect(bytes == Array(Self.feed.utf8))
            #expect(validators.etag?.hasPrefix("\"") == true)
            #expect(validators.lastModified?.hasSuffix("GMT") == true)
            #expect(try fetcher.fetch(server.feedURL("feed.json"), validators: validators) == .notModified())
            // Last-Modified alone is enough too.
            let dateOnly = HTTPValidators(lastModified: validators.lastModified)
            #expect(try fetcher.fetch(server.feedURL("feed.json"), validators: dateOnly) == .notModified())
        }
        let requests = server.requests()
        #expect(requests.count == 3)
        #expect(requests[0].header("If-None-Match") == nil)
        #expect(requests[1].header("If-None-Match") != nil && requests[1].header("If-Modified-Since") != nil)
        #expect(requests.allSatisfy { $0.header("User-Agent") == "notify-sched/\(ProductVersion.current)" })
    }

    /// The portal steers how often it is checked with `Cache-Control: max-age`, on the 200 and
    /// the 304 alike.
    @Test func theCheckPeriodThePortalAsksForComesWithTheFeedAndWithA304() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed)
        try server.setCacheControl("feed.json", "public, max-age=7200")
        try withFetcher { fetcher in
            guard case .fetched(_, let validators, let period) = try fetcher.fetch(server.feedURL("feed.json")) else {
                Issue.record("the first fetch should be a 200")
                return
            }
            #expect(period == .hours(2))
            try server.setCacheControl("feed.json", "no-cache")
            #expect(try fetcher.fetch(server.feedURL("feed.json"), validators: validators) == .notModified())
            try server.setCacheControl("feed.json", "max-age=86400")
            #expect(
                try fetcher.fetch(server.feedURL("feed.json"), validators: validators)
                    == .notModified(portalPeriod: .days(1)))
        }
    }

    @Test func aChangedFeedIsFetchedAgainDespiteOldValidators() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed, age: 120)
        try withFetcher { fetcher in
            guard case .fetched(_, let validators, _) = try fetcher.fetch(server.feedURL("feed.json")) else {
                Issue.record("expected a 200")
                return
            }
            let changed = Self.feed.replacingOccurrences(of: "Hello", with: "Changed")
            try server.write("feed.json", changed, age: 10)
            let fresh = try #require(try Self.validators(fetcher, server.feedURL("feed.json")))
            #expect(fresh != validators)
            #expect(
                try fetcher.fetch(server.feedURL("feed.json"), validators: validators)
                    == .fetched(Array(changed.utf8), fresh))
        }
    }

    private static func validators(_ fetcher: FeedFetcher, _ url: String) throws -> HTTPValidators? {
        if case .fetched(_, let validators, _) = try fetcher.fetch(url) { return validators }
        return nil
    }

    @Test func aSlowServerFailsAtTheTotalTimeout() throws {
        let server = try PortalTestServer()
        let started = Date()
        let error = try withFetcher(FetchConfiguration(connectTimeout: .seconds(2), totalTimeout: .milliseconds(500))) {
            failure($0, server.url("/slow?seconds=5"))
        }
        #expect(error?.code == .timeout)
        #expect(
            error?.message == "\(server.url("/slow?seconds=5")): no complete answer within the total timeout of 500 ms")
        #expect(Date().timeIntervalSince(started) < 3, "the timeout must cut the wait short")
    }

    @Test func aRefusedConnectionFailsAtOnceNotAtTheConnectTimeout() throws {
        // Port 9 (discard) has no listener here: the connection is refused.
        let url = "http://127.0.0.1:9/feed.json"
        let started = Date()
        let error = try withFetcher(FetchConfiguration(connectTimeout: .seconds(10))) { failure($0, url) }
        #expect(error?.message == "\(url): cannot connect (Connection refused)")
        // Half the connect timeout: making and shutting down the fetcher's thread takes a
        // second or two on a loaded machine.
        #expect(Date().timeIntervalSince(started) < 5, "a refused connection must not wait for the connect timeout")
    }

    @Test func anEndlessBodyIsRefusedAtTheCapWithoutReadingOn() throws {
        let server = try PortalTestServer()
        let started = Date()
        let error = try withFetcher(FetchConfiguration(totalTimeout: .seconds(20), maxBytes: 1 << 20)) {
            failure($0, server.url("/endless"))
        }
        #expect(error?.code == .tooLarge)
        #expect(
            error?.message
                == "\(server.url("/endless")): refused: the body is larger than the size cap of 1048576 bytes")
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aDeclaredLengthOverTheCapIsRefusedBeforeTheBody() throws {
        let server = try PortalTestServer()
        let error = try withFetcher { failure($0, server.url("/declared-huge")) }
        #expect(error?.code == .tooLarge)
        #expect(error?.message.contains("declares 1073741824 bytes") == true)
    }

    @Test func aRedirectLoopIsRefused() throws {
        let server = try PortalTestServer()
        let error = try withFetcher { failure($0, server.url("/loop")) }
        #expect(error?.code == .tooManyRedirects)
        #expect(error?.message == "\(server.url("/loop")): redirect loop back to \(server.url("/loop"))")
    }

    @Test func fiveRedirectsAreFollowedButNotSix() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed)
        try withFetcher { fetcher in
            guard case .fetched(let bytes, _, _) = try fetcher.fetch(server.url("/chain/5")) else {
                Issue.record("five redirects should be followed")
                return
            }
            #expect(bytes == Array(Self.feed.utf8))
            #expect(failure(fetcher, server.url("/chain/6"))?.code == .tooManyRedirects)
        }
    }

    @Test func serverErrorsCarryTheStatusAndRetryAfter() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed)
        try server.setStatus("feed.json", 429, retryAfter: "120")
        try withFetcher { fetcher in
            let limited = failure(fetcher, server.feedURL("feed.json"))
            #expect(limited?.code == .httpStatus)
            #expect(limited?.status == 429)
            #expect(limited?.retryAfter == .delay(.seconds(120)))
            #expect(
                limited?.message
                    == "\(server.feedURL("feed.json")): the server answered 429 Too Many Requests (Retry-After: 120 s)")

            try server.setStatus("feed.json", 500)
            let broken = failure(fetcher, server.feedURL("feed.json"))
            #expect(broken?.status == 500 && broken?.retryAfter == nil)

            try server.clearStatus("feed.json")
            guard case .fetched = try fetcher.fetch(server.feedURL("feed.json")) else {
                Issue.record("the feed should be served again once the server recovers")
                return
            }
        }
    }

    @Test func aClosedPortIsUnreachable() throws {
        let server = try PortalTestServer()
        let url = server.feedURL("feed.json")
        server.stop()
        let error = try withFetcher { failure($0, url) }
        #expect(error?.code == .unreachable)
        #expect(error?.message.hasPrefix(url + ": ") == true)
    }

    @Test func otherSchemesAreNotFetched() throws {
        let error = try withFetcher { failure($0, "ftp://127.0.0.1/feed.json") }
        #expect(error?.code == .invalidURL)
    }

    @Test func theCompletionAPIDeliversOnTheFetchersThread() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", Self.feed)
        try withFetcher { fetcher in
            let done = DispatchSemaphore(value: 0)
            let box = ResultBox()
            fetcher.fetch(server.feedURL("feed.json")) { result in
                box.result = result
                done.signal()
            }
            done.wait()
            guard case .success(.fetched(let bytes, _, _)) = box.result else {
                Issue.record("expected the feed, got \(String(describing: box.result))")
                return
            }
            #expect(bytes == Array(Self.feed.utf8))
        }
    }
}

private final class ResultBox: @unchecked Sendable {
    var result: Result<FetchOutcome, NetworkError>?
    var threadID: pid_t = 0
}

/// DESIGN §8: no periodic wake-ups in the daemon's steady state, a fetch's thread included.
@Suite(.ownThread) struct FetcherIdleTests {
    /// The voluntary context switches of thread `id` of this process.
    private func switches(_ id: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") })
        return try #require(Int(line.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces)))
    }

    @Test func theFetchThreadDoesNotWakeWhileIdle() throws {
        let server = try PortalTestServer()
        try server.write("feed.json", FeedFetcherTests.feed)
        let fetcher = try FeedFetcher()
        defer { fetcher.shutdown() }
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        fetcher.fetch(server.feedURL("feed.json")) { result in
            box.result = result
            // /proc/thread-self links to PID/task/TID of the calling thread.
            box.threadID =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
                .flatMap { $0.split(separator: "/").last.flatMap { pid_t($0) } } ?? 0
            done.signal()
        }
        done.wait()
        // Let the connection settle back into the pool, then watch the thread for two seconds.
        Thread.sleep(forTimeInterval: 0.2)
        let before = try switches(box.threadID)
        Thread.sleep(forTimeInterval: 2)
        let after = try switches(box.threadID)
        #expect(after - before == 0, "the fetch thread woke \(after - before) times in 2 s of idleness")
    }
}

@Suite(.ownThread) struct HTTPSFetchTests {
    @Test func aSelfSignedCAIsRefusedUntilTrusted() throws {
        let authority = try TestCertificateAuthority.make()
        let server = try PortalTestServer(certificate: authority)
        try server.write("feed.json", FeedFetcherTests.feed)
        let untrusted = try FeedFetcher(configuration: FetchConfiguration(totalTimeout: .seconds(5)))
        defer { untrusted.shutdown() }
        do {
            _ = try untrusted.fetch(server.feedURL("feed.json"))
            Issue.record("a certificate from an untrusted CA must be refused")
        } catch {
            #expect(error.code == .tls, "\(error.message)")
            #expect(error.message.hasPrefix(server.feedURL("feed.json") + ": TLS failed"))
        }
        let trusting = try FeedFetcher(
            configuration: FetchConfiguration(
                totalTimeout: .seconds(5), trustedCertificateFiles: [authority.caCertificate.path]))
        defer { trusting.shutdown() }
        guard case .fetched(let bytes, _, _) = try trusting.fetch(server.feedURL("feed.json")) else {
            Issue.record("with the CA trusted the feed should be fetched")
            return
        }
        #expect(bytes == Array(FeedFetcherTests.feed.utf8))
    }

    @Test func aWebcalSubscriptionIsFetchedOverHTTPS() throws {
        let authority = try TestCertificateAuthority.make()
        let server = try PortalTestServer(certificate: authority)
        try server.write("team.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        let fetcher = try FeedFetcher(
            configuration: FetchConfiguration(
                totalTimeout: .seconds(5), trustedCertificateFiles: [authority.caCertificate.path]))
        defer { fetcher.shutdown() }
        let webcal = server.feedURL("team.ics").replacingOccurrences(of: "https://", with: "webcal://")
        guard case .fetched(let bytes, _, _) = try fetcher.fetch(webcal) else {
            Issue.record("a webcal:// URL should be fetched as its https:// one")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("BEGIN:VCALENDAR"))
        #expect(server.requests().last?.header("Accept")?.contains("text/calendar") == true)
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefused() throws {
        let authority = try TestCertificateAuthority.make()
        let secure = try PortalTestServer(certificate: authority)
        let plain = try PortalTestServer()
        try plain.write("feed.json", FeedFetcherTests.feed)
        let fetcher = try FeedFetcher(
            configuration: FetchConfiguration(
                totalTimeout: .seconds(5), trustedCertificateFiles: [authority.caCertificate.path]))
        defer { fetcher.shutdown() }
        let url = secure.url("/redirect?to=\(plain.feedURL("feed.json"))")
        do {
            _ = try fetcher.fetch(url)
            Issue.record("https must not redirect to http")
        } catch {
            #expect(error.code == .refusedRedirect)
            #expect(
                error.message
                    == "\(url): refused the redirect from https to \(plain.feedURL("feed.json")): it would drop TLS")
        }
        #expect(plain.requests().isEmpty, "nothing may be sent over plain http")
    }

    @Test func anUnreadableCAFileIsAConfigurationError() {
        #expect(throws: NetworkError.self) {
            _ = try FeedFetcher(configuration: FetchConfiguration(trustedCertificateFiles: ["/nonexistent/ca.pem"]))
        }
    }
}

/// What fetches on several threads came to, each a word.
private final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var words: [String] = []

    func add(_ word: String) { lock.withLock { words.append(word) } }
    var count: Int { lock.withLock { words.count } }
    var all: [String] { lock.withLock { words } }
}
