import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import NotifySchedCore

// Receipts' uploads (docs/receipts.md): a POST of an OTLP/HTTP JSON body, with the fetches'
// certificates, timeouts and errors. A redirect is not followed: a collector is configured by
// its exact URL, and a POST sent on elsewhere could lose its body.
extension FeedFetcher {
    /// The most of a collector's answer read: OTLP's answer is a small JSON object.
    static let maxAnswerBytes = 64 * 1024

    /// Posts `body` to `url` as `application/json`, blocking the calling thread until the
    /// collector answered.
    ///
    /// - Throws: `NetworkError`, with the status and its `Retry-After` for an answer other than
    ///   2xx, naming the URL and the cause.
    public func post(_ body: String, to url: String) throws(NetworkError) {
        do {
            guard let upload = startPost(body, to: url) else {
                throw NetworkError(.shutDown, "\(url): not sent: notify-sched is stopping")
            }
            try upload.wait()
        } catch let error as NetworkError {
            throw error
        } catch {
            throw Self.networkError(error, url: url, configuration: configuration)
        }
    }

    /// Starts posting `body` to `url`, and calls `completion` once, on the fetcher's
    /// event-loop thread, with how it went.
    public func post(
        _ body: String, to url: String, completion: @escaping @Sendable (Result<Void, NetworkError>) -> Void
    ) {
        let configuration = configuration
        guard let upload = startPost(body, to: url) else {
            return completion(.failure(NetworkError(.shutDown, "\(url): not sent: notify-sched is stopping")))
        }
        upload.whenComplete { result in
            completion(result.mapError { Self.networkError($0, url: url, configuration: configuration) })
        }
    }

    private func startPost(_ body: String, to url: String) -> EventLoopFuture<Void>? {
        guard leases.take() else { return nil }
        let loop = group.next()
        let upload: EventLoopFuture<Void>
        do {
            var headers = HTTPHeaders()
            headers.add(name: "User-Agent", value: configuration.userAgent)
            headers.add(name: "Content-Type", value: "application/json")
            let request = try HTTPClient.Request(url: url, method: .POST, headers: headers, body: .string(body))
            let task = client.execute(
                request: request, delegate: CappedBodyDelegate(url: url, maxBytes: Self.maxAnswerBytes),
                eventLoop: .delegate(on: loop),
                deadline: .now() + .microseconds(configuration.totalTimeout.microseconds))
            upload = task.futureResult.flatMapThrowing { response in
                guard (200..<300).contains(response.status.code) else {
                    throw Self.statusError(response.status, response.headers, url: url)
                }
            }
        } catch {
            upload = loop.makeFailedFuture(
                NetworkError(.invalidURL, "\(url): not a usable URL (\(error))", underlyingError: error))
        }
        upload.whenComplete { [leases] _ in leases.giveBack() }
        return upload
    }
}
