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
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Self.script.path, root.path]
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
            throw TestSupportError("the portal test server did not start (python3 \(Self.script.path))")
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

/// A certificate authority made with `openssl` for one test, and a server certificate it signed
/// for `127.0.0.1` and `localhost`.
public struct TestCertificateAuthority: Sendable {
    /// The CA certificate (PEM): what a client must trust.
    public var caCertificate: URL
    /// The server's certificate (PEM).
    public var serverCertificate: URL
    /// The server's private key (PEM).
    public var serverKey: URL

    /// Makes a new CA and server certificate in a fresh temporary folder.
    public static func make() throws -> TestCertificateAuthority {
        let folder = try TestFolder.make("tls")
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Data(
            "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8
        )
        .write(to: folder.appendingPathComponent("server.ext"))
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try run(
            ["req", "-x509"] + ec + [
                "-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "2", "-subj", "/CN=notify-sched test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try run(["req"] + ec + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"])
        try run([
            "x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
            "-CAcreateserial", "-out", path("server.pem"), "-days", "2", "-extfile", path("server.ext"),
        ])
        return TestCertificateAuthority(
            caCertificate: folder.appendingPathComponent("ca.pem"),
            serverCertificate: folder.appendingPathComponent("server.pem"),
            serverKey: folder.appendingPathComponent("server.key"))
    }

    private static func run(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestSupportError(
                "openssl \(arguments.joined(separator: " ")) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }
}

/// Fresh temporary folders for tests.
public enum TestFolder {
    /// A new empty folder under the system's temporary folder.
    public static func make(_ purpose: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-\(purpose)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// A test-support step that could not be done, with the reason.
public struct TestSupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
