import Foundation
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
        let runtime = (path as NSString).deletingLastPathComponent + "/runtime"
        try FileManager.default.createDirectory(
            atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.analyzer)
        process.arguments = ["verify", "--user", path]
        process.environment = ["XDG_RUNTIME_DIR": runtime, "PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "systemd-analyze verify: \(output)")
        #expect(output == "")
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
