import Foundation
import Glibc
import NotifySchedTesting

/// A session bus of the test's own: a `dbus-daemon` that activates only the services it is
/// given, an optional python3-dbusmock `notification_daemon` on it, and a desktop (XDG folders)
/// whose default handler for `http`/`https` URLs writes each URL it is given to a file.
///
/// Each test makes its own, so tests never share a server, a delivery log or a URL handler.
/// The mock is driven as its documentation says: `GetMethodCalls` to see what was sent,
/// `EmitSignal` to press a button or close a popup. Nothing here introspects the name.
final class PrivateSessionBus {
    static let daemonPath = "/usr/bin/dbus-daemon"
    /// Debian's Python, which has dbusmock and dbus-python (a `python3` earlier on `PATH` may not).
    static let pythonPath = "/usr/bin/python3"

    /// Whether `dbus-daemon` and python3-dbusmock are installed (`scripts/install-deps` installs them).
    static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: daemonPath),
            FileManager.default.isExecutableFile(atPath: pythonPath)
        else { return false }
        let probe = try? ExternalCommand.run(
            pythonPath, ["-c", "import dbusmock, dbus"], environment: ["PATH": "/usr/bin:/bin"])
        return probe?.status == 0
    }()

    static let unavailableReason =
        "needs dbus-daemon and python3-dbusmock (Debian packages dbus and python3-dbusmock; scripts/install-deps installs them)"

    let folder: URL
    let address: String
    private let daemon: Process
    private var server: Process?
    /// dbus-monitor, once `monitorNotifyCalls()` ran.
    private var monitor: Process?
    /// Asks the server what it received, presses its buttons, reads the state database.
    private var busDriver: BusDriver?

    /// One `Notify` call the server received.
    struct NotifyCall: Decodable, Equatable {
        var app: String
        var replaces: UInt32
        var icon: String
        var summary: String
        var body: String
        var actions: [String]
        /// Every hint but `sender-pid`, as text: `true`, `2`, `notify-sched`.
        var hints: [String: String]
        var timeout: Int32
    }

    /// - Parameter services: D-Bus activation files to install, by file name: the bus starts
    ///   each service when something calls its name, with the environment `environment` gives.
    init(services: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notify-sched-bus-\(UUID().uuidString)")
        for sub in ["data/applications", "config", "state", "empty", "home", "services"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (name, text) in services {
            try text.write(to: folder.appendingPathComponent("services/\(name)"), atomically: true, encoding: .utf8)
        }
        try Self.configuration(services: folder.appendingPathComponent("services").path)
            .write(to: folder.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        try Self.writeURLRecorder(in: folder)

        let (bus, busAddress) = try Self.startBus(configuration: folder.appendingPathComponent("bus.conf"))
        daemon = bus
        address = busAddress
        if !services.isEmpty {
            // As a desktop session does (dbus-update-activation-environment): activated services
            // get this desktop's folders, not the test runner's.
            let pairs = environment.map { "'\($0.key)': '\($0.value)'" }.joined(separator: ", ")
            _ = try drive(
                "session.get_object('org.freedesktop.DBus', '/org/freedesktop/DBus')"
                    + ".UpdateActivationEnvironment({\(pairs)}, dbus_interface='org.freedesktop.DBus')")
        }
    }

    deinit {
        stopServer()
        if let monitor { Self.kill(monitor) }
        for process in mocks { Self.kill(process) }
        busDriver = nil
        Self.kill(daemon)
        if let systemBus { Self.kill(systemBus) }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Starts a `dbus-daemon` with `configuration` and returns it with its address.
    private static func startBus(configuration: URL) throws -> (Process, String) {
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Self.daemonPath)
        daemon.arguments = ["--config-file=\(configuration.path)", "--nofork", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw BusError("dbus-daemon exited before printing its address") }
            text += String(decoding: data, as: UTF8.self)
        }
        return (daemon, String(text.prefix { $0 != "\n" }))
    }

    // MARK: The system bus and other services

    /// A second `dbus-daemon` standing in for the system bus, once `startSystemBus` ran.
    private var systemBus: Process?
    private(set) var systemAddress: String?
    private var mocks: [Process] = []

    /// Starts a private system bus with dbusmock's `templates` on it (`logind`, `timedated`),
    /// each with the name it owns, and waits until they own them. Without it, `environment`
    /// points notify-sched at a system bus that does not exist.
    func startSystemBus(templates: [(template: String, name: String)]) throws {
        let (bus, systemAddress) = try Self.startBus(configuration: folder.appendingPathComponent("bus.conf"))
        systemBus = bus
        self.systemAddress = systemAddress
        for (template, name) in templates { try startMock(template, owning: name, system: true) }
    }

    /// Starts dbusmock's `template` on the session bus (or the system bus) and waits until it
    /// owns `name`.
    func startMock(_ template: String, owning name: String, system: Bool = false) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.pythonPath)
        process.arguments = ["-m", "dbusmock", "--template", template] + (system ? ["--system"] : [])
        process.environment = [
            "DBUS_SESSION_BUS_ADDRESS": address, "DBUS_SYSTEM_BUS_ADDRESS": systemAddress ?? "",
            "PATH": "/usr/bin:/bin",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        mocks.append(process)
        try waitUntil("\(template) owns \(name)") {
            try self.drive("print((system if \(system ? "True" : "False") else session).name_has_owner('\(name)'))")
                == "True"
        }
    }

    /// Runs Python `code` with dbus-python connections `session` and `system` (None until
    /// `startSystemBus`) to these buses, and returns what it printed.
    @discardableResult
    func drive(_ code: String) throws -> String {
        try helper(["run", code, systemAddress ?? ""])
    }

    /// What `notify-sched` needs to run on this bus and desktop.
    var environment: [String: String] {
        [
            "DBUS_SESSION_BUS_ADDRESS": address,
            "DBUS_SYSTEM_BUS_ADDRESS": systemAddress ?? "unix:path=\(folder.path)/no-system-bus",
            "HOME": folder.path + "/home",
            "XDG_STATE_HOME": folder.path + "/state",
            "XDG_DATA_HOME": folder.path + "/data",
            "XDG_CONFIG_HOME": folder.path + "/config",
            // No system-wide handlers: only the recorder opens anything.
            "XDG_DATA_DIRS": folder.path + "/empty",
        ]
    }

    /// The state database `notify-sched` keeps for this desktop.
    var stateDatabase: String { folder.path + "/state/notify-sched/state.sqlite" }

    /// The rows `sql` selects from the state database, each row's columns joined by `|`, read
    /// by Python's sqlite3 as another process would.
    func queryState(_ sql: String) throws -> [String] {
        try helper(["query", stateDatabase, sql]).split(separator: "\n").map(String.init)
    }

    /// Runs the statements of `sql` on the state database and commits them, as another process
    /// would: what happened while no daemon ran (a downtime, a clock that was ahead).
    func updateState(_ sql: String) throws {
        _ = try helper(["update", stateDatabase, sql])
    }

    // MARK: The notification server

    /// Starts dbusmock's `notification_daemon` with `capabilities` (its defaults when nil) and
    /// waits until it owns `org.freedesktop.Notifications`.
    func startServer(capabilities: [String]?) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.pythonPath)
        var arguments = ["-m", "dbusmock", "--template", "notification_daemon"]
        if let capabilities {
            arguments += ["--parameters", #"{"capabilities": "\#(capabilities.joined(separator: " "))"}"#]
        }
        process.arguments = arguments
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        try waitUntil("the mock server owns its name") { try self.serverIsUp() }
    }

    /// Stops the mock server and waits until its name has no owner.
    func stopServer() {
        guard let server else { return }
        Self.kill(server)
        self.server = nil
        try? waitUntil("the mock server's name is released") { try !self.serverIsUp() }
    }

    /// Stops the mock server's process (SIGSTOP) without letting go of its name: a hung server.
    func freezeServer() {
        if let server { Glibc.kill(server.processIdentifier, SIGSTOP) }
    }

    /// Lets a frozen server go on (SIGCONT); it then answers what waited for it.
    func thawServer() {
        if let server { Glibc.kill(server.processIdentifier, SIGCONT) }
    }

    private func serverIsUp() throws -> Bool {
        try helper(["has-owner"]) == "true"
    }

    /// Every `Notify` call the running server received, oldest first. A popup's id is its
    /// position in this list, from 1, since dbusmock numbers new popups that way (a call that
    /// replaces a popup, `replaces` non-zero, keeps the id it replaces and takes none).
    func notifyCalls() throws -> [NotifyCall] {
        try JSONDecoder().decode([NotifyCall].self, from: Data(try helper(["calls"]).utf8))
    }

    /// Waits until the server received at least `count` `Notify` calls and returns them.
    func waitForNotifyCalls(_ count: Int) throws -> [NotifyCall] {
        var calls: [NotifyCall] = []
        try waitUntil("the server received \(count) Notify call(s)") {
            calls = try self.notifyCalls()
            return calls.count >= count
        }
        return calls
    }

    private var monitorOutput: URL { folder.appendingPathComponent("notify.monitor") }

    /// Starts dbus-monitor on the bus for `Notify` calls (`notifyStamps()`) and waits until it
    /// watches: the bus takes its name away (`NameLost`) once its match rule is in place.
    func monitorNotifyCalls() throws {
        try Data().write(to: monitorOutput)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        process.arguments = [
            "--address", address, "type='method_call',interface='org.freedesktop.Notifications',member='Notify'",
        ]
        process.standardOutput = try FileHandle(forWritingTo: monitorOutput)
        process.standardError = FileHandle.nullDevice
        try process.run()
        monitor = process
        try waitUntil("dbus-monitor watches the bus") {
            try String(contentsOf: monitorOutput, encoding: .utf8).contains("NameLost")
        }
    }

    /// When the bus passed on each `Notify` call dbus-monitor saw, in microseconds since the
    /// epoch (dbusmock's own log keeps whole milliseconds), by summary, the first of each.
    ///
    /// dbus-monitor prints a call as a header line, `method call time=SECONDS.MICROSECONDS …
    /// member=Notify`, then a line an argument, indented by three spaces; the summary is the
    /// fourth argument.
    func notifyStamps() throws -> [String: Int64] {
        var stamps: [String: Int64] = [:]
        var stamp: Int64?
        var argument = 0
        for line in try String(contentsOf: monitorOutput, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("method call time="), line.hasSuffix("member=Notify") {
                let time = line.dropFirst("method call time=".count).prefix { $0 != " " }.split(separator: ".")
                guard time.count == 2, let seconds = Int64(time[0]), let microseconds = Int64(time[1]) else {
                    throw BusError("dbus-monitor printed an unexpected time: \(line)")
                }
                stamp = seconds * 1_000_000 + microseconds
                argument = 0
            } else if let called = stamp, line.hasPrefix("   "), !line.hasPrefix("    ") {
                argument += 1
                guard argument == 4 else { continue }
                let text = line.dropFirst(3)
                if text.hasPrefix("string \""), text.hasSuffix("\"") {
                    let summary = String(text.dropFirst("string \"".count).dropLast())
                    if stamps[summary] == nil { stamps[summary] = called }
                }
                stamp = nil
            }
        }
        return stamps
    }

    /// The ids of the popups closed with `CloseNotification`, in order.
    func closeCalls() throws -> [Int] {
        try JSONDecoder().decode([Int].self, from: Data(try helper(["close-calls"]).utf8))
    }

    /// Waits until the server received at least `count` `CloseNotification` calls and returns their ids.
    func waitForCloseCalls(_ count: Int) throws -> [Int] {
        var ids: [Int] = []
        try waitUntil("the server received \(count) CloseNotification call(s)") {
            ids = try self.closeCalls()
            return ids.count >= count
        }
        return ids
    }

    /// Presses the button `key` of popup `id` (`default` for a click on the popup); with
    /// `closing`, the server then closes the popup at once (reason 2), as most real servers do.
    func invokeAction(_ key: String, onPopup id: Int, closing: Bool = false) throws {
        _ = try helper([closing ? "action-closing" : "action", String(id), key])
    }

    /// Closes popup `id` with `reason` (1 expired, 2 dismissed, 3 closed by a call).
    func closePopup(_ id: Int, reason: Int) throws {
        _ = try helper(["closed", String(id), String(reason)])
    }

    // MARK: The URL handler

    /// The URLs the desktop's default handler was asked to open, in order.
    func openedURLs() -> [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("opened.txt"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits until the handler recorded `count` URLs and returns them.
    func waitForOpenedURLs(_ count: Int) throws -> [String] {
        try waitUntil("the URL handler recorded \(count) URL(s)") { self.openedURLs().count >= count }
        return openedURLs()
    }

    // MARK: Plumbing

    /// Ends `process` for sure: children started here may inherit a blocked SIGTERM.
    private static func kill(_ process: Process) {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Asks the bus driver, started at the first request; returns its answer, trimmed.
    private func helper(_ request: [String]) throws -> String {
        if busDriver == nil { busDriver = try BusDriver(python: Self.pythonPath, sessionAddress: address) }
        return try busDriver!.ask(request).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls `condition` every 50 ms for up to 20 s: these wait for other processes, not for a schedule.
    func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if try condition() { return }
            usleep(50_000)
        }
        throw BusError("timed out waiting until \(what)")
    }

    private static func writeURLRecorder(in folder: URL) throws {
        let script = folder.appendingPathComponent("record-url")
        try """
        #!/bin/sh
        printf '%s\\n' "$1" >> '\(folder.path)/opened.txt'

        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try """
        [Desktop Entry]
        Type=Application
        Name=URL recorder
        Exec=\(script.path) %u
        MimeType=x-scheme-handler/https;x-scheme-handler/http;
        NoDisplay=true

        """.write(
            to: folder.appendingPathComponent("data/applications/record-url.desktop"), atomically: true, encoding: .utf8
        )
        try """
        [Default Applications]
        x-scheme-handler/https=record-url.desktop
        x-scheme-handler/http=record-url.desktop

        """.write(to: folder.appendingPathComponent("config/mimeapps.list"), atomically: true, encoding: .utf8)
    }

    /// The bus's configuration: a session bus that activates only the services in the folder
    /// `services`, so no installed notification server can answer in the mock's place.
    private static func configuration(services: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <servicedir>\(services)</servicedir>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }
}

struct BusError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
