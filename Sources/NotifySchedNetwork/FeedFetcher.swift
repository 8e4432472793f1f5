import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NotifySchedCore

/// Fetches portal feeds over HTTP(S) as carefully as a package manager: certificates verified,
/// no `https`→`http` redirect, at most `maxRedirects` redirects, a connect and a total timeout,
/// a size cap counted while the body streams in, conditional GET, and `Retry-After` read on 429
/// and 503. `FetchConfiguration` lists the defaults.
///
/// It runs on AsyncHTTPClient's EventLoopFuture API on one event-loop thread of its own, so
/// callers need no Swift concurrency: the CLI calls the blocking `fetch(_:validators:)`, and the
/// daemon calls `fetch(_:validators:completion:)` and hands the result back to its main loop.
///
/// ```swift
/// let fetcher = try FeedFetcher()
/// defer { fetcher.shutdown() }
/// switch try fetcher.fetch("https://portal.example/feed.json", validators: cached?.validators) { … }
/// ```
public final class FeedFetcher: Sendable {
    /// The settings this fetcher was made with.
    public let configuration: FetchConfiguration
    let group: MultiThreadedEventLoopGroup
    let client: HTTPClient
    /// The fetches under way, and whether the fetcher is shut down: `shutdown()` may come from
    /// another thread while a check's fetch is starting, and work handed to a stopped event loop
    /// crashes the process (SwiftNIO's leaked promise).
    let leases = FetchLeases()

    /// Makes a fetcher with its own event-loop thread and connection pool.
    ///
    /// - Throws: `NetworkError` `.invalidConfiguration` when a trusted-certificate file cannot be read.
    public init(configuration: FetchConfiguration = FetchConfiguration()) throws(NetworkError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        for path in configuration.trustedCertificateFiles {
            do {
                let certificates = try NIOSSLCertificate.fromPEMFile(path)
                guard !certificates.isEmpty else {
                    throw NetworkError(.invalidConfiguration, "\(path): no PEM certificate in the file")
                }
                tls.additionalTrustRoots.append(.certificates(certificates))
            } catch let error as NetworkError {
                throw error
            } catch {
                throw NetworkError(
                    .invalidConfiguration, "\(path): not a readable PEM certificate file (\(error))",
                    underlyingError: error)
            }
        }
        // Redirects are followed here, not by the client: it would follow https -> http.
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow,
            timeout: .init(connect: .microseconds(configuration.connectTimeout.microseconds)),
            decompression: .disabled)
        // A refused connection fails at once instead of being tried again until the connect
        // timeout: the daemon retries a failed check itself, with backoff and jitter.
        clientConfiguration.connectionPool.retryConnectionEstablishment = false
        self.configuration = configuration
        self.group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        self.client = HTTPClient(eventLoopGroup: group, configuration: clientConfiguration)
    }

    /// Closes the connections and stops the event-loop thread. Call it once, when done.
    ///
    /// A fetch under way ends with its failure; one asked for afterwards fails at once with
    /// `.shutDown`. The thread stops once every fetch has ended.
    public func shutdown() {
        leases.close()
        // The client fails what it has under way, and refuses what comes, on the group's
        // thread, which must run until the last of them has ended.
        try? client.syncShutdown()
        leases.waitUntilNoneIsTaken()
        try? group.syncShutdownGracefully()
    }

    /// Fetches `url`, blocking the calling thread until done.
    ///
    /// Must not be called on the fetcher's event-loop thread (from a completion handler).
    ///
    /// - Parameters:
    ///   - url: An `http://` or `https://` URL.
    ///   - validators: The cached copy's validators, to make the request conditional.
    ///   - maxBytes: A cap lower than the configured one (for small files such as a `.sig`).
    /// - Returns: The body and its validators, or `.notModified`, each with the check period the
    ///   portal's `Cache-Control` asks for.
    /// - Throws: `NetworkError`, whose message names the URL and the cause.
    public func fetch(
        _ url: String, validators: HTTPValidators? = nil, maxBytes: Int? = nil
    ) throws(NetworkError) -> FetchOutcome {
        do {
            guard let fetch = start(url, validators: validators, maxBytes: maxBytes) else {
                throw Self.shutDown(url)
            }
            return try fetch.wait()
        } catch let error as NetworkError {
            throw error
        } catch {
            throw Self.networkError(error, url: url, configuration: configuration)
        }
    }

    /// Starts fetching `url` and calls `completion` once, on the fetcher's event-loop thread.
    ///
    /// The daemon uses this to keep its main loop free: the completion hands the result back
    /// to the loop (an eventfd or `g_idle_add`) and returns at once.
    public func fetch(
        _ url: String, validators: HTTPValidators? = nil, maxBytes: Int? = nil,
        completion: @escaping @Sendable (Result<FetchOutcome, NetworkError>) -> Void
    ) {
        let configuration = configuration
        guard let fetch = start(url, validators: validators, maxBytes: maxBytes) else {
            return completion(.failure(Self.shutDown(url)))
        }
        fetch.whenComplete { result in
            completion(result.mapError { Self.networkError($0, url: url, configuration: configuration) })
        }
    }

    /// Starts fetching `url`, holding a lease until the fetch ends; nil when the fetcher is shut down.
    private func start(_ url: String, validators: HTTPValidators?, maxBytes: Int?) -> EventLoopFuture<FetchOutcome>? {
        guard leases.take() else { return nil }
        let deadline = NIODeadline.now() + .microseconds(configuration.totalTimeout.microseconds)
        let fetch = attempt(
            SourceLocation.transportURL(url), validators: validators,
            maxBytes: min(maxBytes ?? configuration.maxBytes, configuration.maxBytes), visited: [], deadline: deadline)
        fetch.whenComplete { [leases] _ in leases.giveBack() }
        return fetch
    }

    private static func shutDown(_ url: String) -> NetworkError {
        NetworkError(.shutDown, "\(url): not fetched: notify-sched is stopping")
    }

    /// One request of the redirect chain.
    private func attempt(
        _ url: String, validators: HTTPValidators?, maxBytes: Int, visited: [String], deadline: NIODeadline
    ) -> EventLoopFuture<FetchOutcome> {
        let loop = group.next()
        let request: HTTPClient.Request
        do {
            request = try makeRequest(url, validators: validators)
        } catch {
            return loop.makeFailedFuture(error)
        }
        let delegate = CappedBodyDelegate(url: url, maxBytes: maxBytes)
        let task = client.execute(
            request: request, delegate: delegate, eventLoop: .delegate(on: loop), deadline: deadline)
        return task.futureResult.flatMap { response -> EventLoopFuture<FetchOutcome> in
            switch response.status.code {
            case 200:
                let headers = response.headers
                return loop.makeSucceededFuture(
                    .fetched(
                        response.body,
                        HTTPValidators(
                            etag: headers.first(name: "ETag"), lastModified: headers.first(name: "Last-Modified")),
                        portalPeriod: Self.portalPeriod(of: headers)))
            case 304 where validators.map { !$0.isEmpty } ?? false:
                return loop.makeSucceededFuture(.notModified(portalPeriod: Self.portalPeriod(of: response.headers)))
            case 301, 302, 303, 307, 308:
                do {
                    let next = try self.redirectTarget(
                        from: url, location: response.headers.first(name: "Location"), visited: visited)
                    return self.attempt(
                        next, validators: validators, maxBytes: maxBytes, visited: visited + [url], deadline: deadline)
                } catch {
                    return loop.makeFailedFuture(error)
                }
            default:
                return loop.makeFailedFuture(Self.statusError(response.status, response.headers, url: url))
            }
        }
    }

    /// The error of a response with a status that is not the one asked for, with the
    /// `Retry-After` of a 429 or 503.
    static func statusError(_ status: HTTPResponseStatus, _ headers: HTTPHeaders, url: String) -> NetworkError {
        let code = Int(status.code)
        var retryAfter: RetryAfter?
        if code == 429 || code == 503 {
            retryAfter = headers.first(name: "Retry-After").flatMap(RetryAfter.parse)
        }
        let wait = retryAfter.map { " (Retry-After: \($0.text))" } ?? ""
        return NetworkError(
            .httpStatus, "\(url): the server answered \(code) \(status.reasonPhrase)\(wait)", status: code,
            retryAfter: retryAfter)
    }

    /// The check period a response's `Cache-Control` asks for.
    private static func portalPeriod(of headers: HTTPHeaders) -> TimeSpan? {
        let values = headers[canonicalForm: "Cache-Control"]
        return values.isEmpty ? nil : CacheControl.period(fromHeader: values.joined(separator: ","))
    }

    private func makeRequest(_ url: String, validators: HTTPValidators?) throws(NetworkError) -> HTTPClient.Request {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty
        else {
            throw NetworkError(.invalidURL, "\(url): not an http:// or https:// URL with a host")
        }
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: configuration.userAgent)
        headers.add(
            name: "Accept", value: "application/json, application/x-plist, application/xml, text/calendar, */*;q=0.5")
        if let etag = validators?.etag { headers.add(name: "If-None-Match", value: etag) }
        if let lastModified = validators?.lastModified { headers.add(name: "If-Modified-Since", value: lastModified) }
        do {
            return try HTTPClient.Request(url: url, method: .GET, headers: headers)
        } catch {
            throw NetworkError(.invalidURL, "\(url): not a usable URL (\(error))", underlyingError: error)
        }
    }

    /// The absolute URL a redirect leads to, checked against the rules: a `Location` that is an
    /// http(s) URL, no downgrade from https to http, no loop, at most `maxRedirects`.
    private func redirectTarget(from url: String, location: String?, visited: [String]) throws(NetworkError) -> String {
        guard let location, let base = URL(string: url),
            let target = URL(string: location, relativeTo: base)?.absoluteURL,
            let scheme = target.scheme?.lowercased()
        else {
            throw NetworkError(.refusedRedirect, "\(url): a redirect without a usable Location header")
        }
        let next = target.absoluteString
        if base.scheme?.lowercased() == "https" && scheme != "https" {
            throw NetworkError(
                .refusedRedirect, "\(url): refused the redirect from https to \(next): it would drop TLS")
        }
        guard scheme == "http" || scheme == "https" else {
            throw NetworkError(.refusedRedirect, "\(url): refused the redirect to \(next): not http or https")
        }
        if next == url || visited.contains(next) {
            throw NetworkError(.tooManyRedirects, "\(url): redirect loop back to \(next)")
        }
        guard visited.count < configuration.maxRedirects else {
            throw NetworkError(
                .tooManyRedirects,
                "\(visited.first ?? url): more than \(configuration.maxRedirects) redirects (the last to \(next))")
        }
        return next
    }

    /// The fetch's error as a `NetworkError` naming `url` and the cause.
    static func networkError(_ error: any Error, url: String, configuration: FetchConfiguration) -> NetworkError {
        if let error = error as? NetworkError { return error }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded:
                return NetworkError(
                    .timeout,
                    "\(url): no complete answer within the total timeout of \(configuration.totalTimeout.text)")
            case .connectTimeout, .tlsHandshakeTimeout:
                return NetworkError(
                    .unreachable,
                    "\(url): no connection within the connect timeout of \(configuration.connectTimeout.text)")
            case .readTimeout:
                return NetworkError(.timeout, "\(url): the server stopped sending")
            case .remoteConnectionClosed:
                return NetworkError(
                    .transport, "\(url): the server closed the connection before the answer was complete")
            default:
                return NetworkError(.transport, "\(url): \(error)", underlyingError: error)
            }
        }
        if let error = error as? NIOSSLError {
            return NetworkError(
                .tls, "\(url): TLS failed, the certificate is not trusted or not valid (\(error))",
                underlyingError: error)
        }
        if let error = error as? NIOConnectionError {
            if let dns = error.dnsAError ?? error.dnsAAAAError {
                return NetworkError(.unreachable, "\(url): cannot resolve \(error.host) (\(dns))")
            }
            let causes = error.connectionErrors.map { failure in
                (failure.error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(failure.error)"
            }
            return NetworkError(
                .unreachable,
                "\(url): cannot connect to \(error.host) port \(error.port) (\(Set(causes).sorted().joined(separator: "; ")))"
            )
        }
        if let error = error as? IOError {
            return NetworkError(.unreachable, "\(url): cannot connect (\(String(cString: strerror(error.errnoCode))))")
        }
        if error is SocketAddressError {
            return NetworkError(.unreachable, "\(url): cannot resolve the host (\(error))", underlyingError: error)
        }
        return NetworkError(.transport, "\(url): \(error)", underlyingError: error)
    }
}

extension RetryAfter {
    /// The value as a person reads it.
    var text: String {
        switch self {
        case .delay(let span): "\(span.seconds) s"
        case .date(let instant): instant.rfc3339
        }
    }
}

extension TimeSpan {
    /// `10 s`, or `250 ms` under a second.
    var text: String {
        microseconds % 1_000_000 == 0 ? "\(seconds) s" : "\(microseconds / 1000) ms"
    }
}

/// The fetches a `FeedFetcher` has under way, and whether it is shut down.
final class FetchLeases: @unchecked Sendable {
    // Guards `taken` and `closed`; signalled when a lease is given back.
    private let condition = NSCondition()
    private var taken = 0
    private var closed = false

    /// Takes a lease for a fetch; false, taking none, once the fetcher is shut down.
    func take() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return false }
        taken += 1
        return true
    }

    /// Gives back the lease of a fetch that ended.
    func giveBack() {
        condition.lock()
        taken -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Takes no more leases.
    func close() {
        condition.lock()
        closed = true
        condition.unlock()
    }

    /// Waits until every lease taken has been given back.
    func waitUntilNoneIsTaken() {
        condition.lock()
        while taken > 0 { condition.wait() }
        condition.unlock()
    }
}
