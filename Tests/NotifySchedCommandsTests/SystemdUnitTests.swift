import Foundation
import NotifySchedTesting
import Testing

/// The shipped systemd user unit and D-Bus activation file, checked the way systemd reads them.
@Suite struct SystemdUnitTests {
    typealias CLI = CommandLineHarness

    static let analyzer = "/usr/bin/systemd-analyze"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: analyzer)))
    func userUnitPassesSystemdAnalyzeVerify() throws {
        // The unit names the installed binary; verify checks that ExecStart exists, so point it
        // at the one just built.
        let unit = try String(
            contentsOf: CLI.repository.appendingPathComponent("units/notify-sched.service"), encoding: .utf8
        )
        .replacingOccurrences(of: "/usr/bin/notify-sched", with: CLI.executable.path)
        let path = try CLI.temporaryFile(unit, name: "notify-sched.service")
        #expect(try Self.verify(unit: path, manPath: CLI.repository.appendingPathComponent("share/man").path) == "")
    }

    /// Runs `systemd-analyze verify --user` on the unit at `path` and returns what it printed,
    /// having required it to succeed. The man pages its `Documentation=` names are looked up in
    /// `manPath` only.
    static func verify(unit path: String, manPath: String) throws -> String {
        let runtime = try TestFolder.make("runtime")
        defer { try? FileManager.default.removeItem(at: runtime) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.analyzer)
        process.arguments = ["verify", "--user", path]
        process.environment = ["XDG_RUNTIME_DIR": runtime.path, "PATH": "/usr/bin:/bin", "MANPATH": manPath]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "systemd-analyze verify: \(output)")
        return output
    }

    @Test func unitDocumentationIsTheManPages() throws {
        let unit = try String(
            contentsOf: CLI.repository.appendingPathComponent("units/notify-sched.service"), encoding: .utf8)
        #expect(unit.contains("\nDocumentation=man:notify-sched(1) man:notify-sched.conf(5)\n"))
    }

    @Test func unitAndActivationFileAgreeOnTheBusName() throws {
        let unit = try String(
            contentsOf: CLI.repository.appendingPathComponent("units/notify-sched.service"), encoding: .utf8)
        let activation = try String(
            contentsOf: CLI.repository.appendingPathComponent("share/dbus-1/services/org.notify_sched.Daemon.service"),
            encoding: .utf8)
        #expect(unit.contains("Type=dbus\nBusName=org.notify_sched.Daemon\n"))
        #expect(activation.contains("Name=org.notify_sched.Daemon\n"))
        #expect(activation.contains("SystemdService=notify-sched.service\n"))
        #expect(unit.contains("PrivateUsers=yes\n"))
    }
}
