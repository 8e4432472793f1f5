import Foundation

/// A real portal for tests: Python's `http.server` on 127.0.0.1 (`Fixtures/portal_server.py`
/// lists its routes), serving files from a fresh temporary folder the test writes into.
///
/// It stops when the object is released (or `stop()` is called): closing its standard input ends it.
public final class PortalTestServer: @unchecked Sendable {
    /// The folder the server serves `/feeds/NAME` from.
    public let root: URL
    /// The port it listens on.
    public let port: Int
    /// `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT`.
    public let baseURL: String
    private let process: Process
    private let input: Pipe

    /// The server script.
    public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/portal_server.py")

    /// Starts a server; with `certificate`, it speaks HTTPS with that certificate.
    public init(certificate: TestCertificateAuthority? = nil) throws {
        root = try TestFolder.make("portal")
        process = Process()
        // Debian's Python, not one found on PATH: a version manager's shim there takes longer
        // to start Python than the test takes.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = [Self.script.path, root.path]
        if let certificate {
            arguments += ["--cert", certificate.serverCertificate.path, "--key", certificate.serverKey.path]
        }
        process.arguments = arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line is the port.
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw TestSupportError("the portal test server did not start (/usr/bin/python3 \(Self.script.path))")
        }
        self.port = port
        baseURL = "\(certificate == nil ? "http" : "https")://127.0.0.1:\(port)"
    }

    deinit { stop() }

    /// Stops the server and waits for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The URL of `path` (which starts with `/`).
    public func url(_ path: String) -> String { baseURL + path }

    /// The URL of the feed file `name`.
    public func feedURL(_ name: String) -> String { url("/feeds/\(name)") }

    /// Writes the file `name` that `/feeds/name` serves, with a modification time `age` seconds ago.
    public func write(_ name: String, _ bytes: [UInt8], age: TimeInterval = 60) throws {
        let file = root.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: file.path)
    }

    /// The URL of the collector `name` (`POST /collector/NAME`).
    public func collectorURL(_ name: String) -> String { url("/collector/\(name)") }

    /// The bodies the collector `name` took (answered 200), in order.
    public func received(_ name: String) throws -> [String] {
        let file = root.appendingPathComponent("\(name).received")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Makes the collector `name` answer its next requests with these instead of taking them:
    /// `"503"`, or `"429 120"` with a `Retry-After`.
    public func failCollector(_ name: String, with answers: [String]) throws {
        try write("\(name).answers", answers.joined(separator: "\n"))
    }

    /// Writes the text file `name`.
    public func write(_ name: String, _ text: String, age: TimeInterval = 60) throws {
        try write(name, Array(text.utf8), age: age)
    }

    /// Makes `/feeds/name` answer `status` (with `Retry-After: retryAfter`), until `clearStatus`.
    public func setStatus(_ name: String, _ status: Int, retryAfter: String? = nil) throws {
        try Data("\(status)\n\(retryAfter ?? "")".utf8).write(to: root.appendingPathComponent(name + ".status"))
    }

    /// Makes `/feeds/name` serve its file again.
    public func clearStatus(_ name: String) throws {
        try FileManager.default.removeItem(at: root.appendingPathComponent(name + ".status"))
    }

    /// Makes `/feeds/name` send `Cache-Control: value` with its 200 and 304 answers.
    public func setCacheControl(_ name: String, _ value: String) throws {
        try Data(value.utf8).write(to: root.appendingPathComponent(name + ".cache-control"))
    }

    /// One request the server received.
    public struct Request: Sendable {
        public var path: String
        public var headers: [String: String]

        /// A header by name, case-insensitively.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// Every request so far, in order.
    public func requests() -> [Request] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("requests.log"), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = object["path"] as? String, let headers = object["headers"] as? [String: String]
            else { return nil }
            return Request(path: path, headers: headers)
        }
    }
}
