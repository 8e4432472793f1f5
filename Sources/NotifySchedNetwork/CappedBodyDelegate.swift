import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Collects a response body while counting it: past `maxBytes` it fails the request at once,
/// so the connection closes and nothing beyond the cap is ever buffered. A declared
/// `Content-Length` over the cap is refused before any of the body is read.
///
/// AsyncHTTPClient calls every method on the request's event loop, one at a time, and the
/// delegate is used for one request only: that confinement is what `@unchecked Sendable` states.
final class CappedBodyDelegate: HTTPClientResponseDelegate, @unchecked Sendable {
    /// The status, headers and body of a response that stayed within the cap.
    struct Response {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    private let url: String
    private let maxBytes: Int
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []

    init(url: String, maxBytes: Int) {
        self.url = url
        self.maxBytes = maxBytes
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head = head
        if let declared = head.headers.first(name: "Content-Length").flatMap({ Int($0) }) {
            guard declared <= maxBytes else {
                return task.eventLoop.makeFailedFuture(tooLarge("declares \(declared) bytes, "))
            }
            body.reserveCapacity(declared)
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.count + buffer.readableBytes <= maxBytes else {
            return task.eventLoop.makeFailedFuture(tooLarge(""))
        }
        buffer.withUnsafeReadableBytes { body.append(contentsOf: $0) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard let head else {
            throw NetworkError(.transport, "\(url): the connection ended without a response")
        }
        return Response(status: head.status, headers: head.headers, body: body)
    }

    private func tooLarge(_ declared: String) -> NetworkError {
        NetworkError(.tooLarge, "\(url): refused: the body \(declared)is larger than the size cap of \(maxBytes) bytes")
    }
}
