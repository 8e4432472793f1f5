import Foundation

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
