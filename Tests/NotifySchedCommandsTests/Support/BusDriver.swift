import Foundation
import Glibc

/// One Python process that drives a private bus for the whole test, through dbus-python: it
/// asks dbusmock what it received, emits its signals, runs a test's own dbus-python code and
/// reads or changes the state database with Python's sqlite3, as another process would.
///
/// One process answering a request a line, rather than one process per request: the waits poll
/// every 50 ms, and each new Python that loads dbus-python costs some 70 ms of CPU, which made
/// the waiting tests the busiest of the suite.
final class BusDriver {
    private let process = Process()
    private let requests: FileHandle
    private let replies: FileHandle
    /// Reply bytes read past the last full line.
    private var pending = Data()
    /// One request and its reply at a time, whichever thread asks.
    private let lock = NSLock()

    /// Starts the driver with `sessionAddress` as its session bus.
    init(python: String, sessionAddress: String) throws {
        let input = Pipe()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", Self.script]
        process.environment = ["DBUS_SESSION_BUS_ADDRESS": sessionAddress, "PATH": "/usr/bin:/bin"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        requests = input.fileHandleForWriting
        replies = output.fileHandleForReading
    }

    deinit {
        try? requests.close()
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Sends `request` (a command and its arguments, as `script` reads them) and returns what
    /// the command answered.
    ///
    /// - Throws: `BusError` with Python's error when the command failed, or when the driver
    ///   is gone.
    func ask(_ request: [String]) throws -> String {
        lock.lock()
        defer { lock.unlock() }
        var line = try JSONEncoder().encode(request)
        line.append(UInt8(ascii: "\n"))
        do {
            try requests.write(contentsOf: line)
        } catch {
            throw BusError("the bus driver is gone (\(request.first ?? "")): \(error)")
        }
        let reply = try JSONDecoder().decode([String: String].self, from: try readLine())
        if let error = reply["error"] { throw BusError("\(request.first ?? "") failed: \(error)") }
        return reply["output"] ?? ""
    }

    private func readLine() throws -> Data {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = pending[..<end]
                pending = Data(pending[pending.index(after: end)...])
                return Data(line)
            }
            let data = replies.availableData
            guard !data.isEmpty else { throw BusError("the bus driver exited") }
            pending.append(data)
        }
    }

    /// Reads a request a line, a JSON array: the command, then its arguments. Answers a line,
    /// a JSON object: `output`, or `error`.
    ///
    /// - `has-owner`: whether the notification server's name has an owner (`true`, `false`).
    /// - `calls`, `close-calls`: the `Notify` and `CloseNotification` calls dbusmock received.
    /// - `action ID KEY`, `action-closing ID KEY`, `closed ID REASON`: dbusmock's signals.
    /// - `run CODE SYSTEM-ADDRESS`: runs CODE with `session` and `system` (None without an
    ///   address) connections; answers what it printed.
    /// - `query DATABASE SQL`, `update DATABASE SQL`: the rows SQL selects, one a line and their
    ///   columns joined by `|`; or runs and commits SQL's statements.
    private static let script = """
        import contextlib, dbus, dbus.bus, io, json, os, sqlite3, sys
        NAME = "org.freedesktop.Notifications"
        session = dbus.bus.BusConnection(os.environ["DBUS_SESSION_BUS_ADDRESS"])
        systems = {}
        def mock():
            # A proxy a request: the server's owner changes when a test restarts it.
            return dbus.Interface(session.get_object(NAME, "/org/freedesktop/Notifications", introspect=False),
                                  "org.freedesktop.DBus.Mock")
        def emit(member, signature, values):
            mock().EmitSignal(NAME, member, signature, values, signature="sssav")
        def text(value):
            if isinstance(value, dbus.Boolean):
                return "true" if value else "false"
            return str(int(value)) if isinstance(value, int) else str(value)
        def answer(command, arguments):
            if command == "has-owner":
                return "true" if session.name_has_owner(NAME) else "false"
            if command == "calls":
                calls = []
                for _, args in mock().GetMethodCalls("Notify"):
                    app, replaces, icon, summary, body, actions, hints, timeout = args
                    calls.append({"app": str(app), "replaces": int(replaces), "icon": str(icon),
                                  "summary": str(summary), "body": str(body), "actions": [str(a) for a in actions],
                                  "hints": {str(k): text(v) for k, v in hints.items() if k != "sender-pid"},
                                  "timeout": int(timeout)})
                return json.dumps(calls)
            if command == "close-calls":
                return json.dumps([int(args[0]) for _, args in mock().GetMethodCalls("CloseNotification")])
            if command in ("action", "action-closing"):
                popup, key = arguments
                emit("ActionInvoked", "us", [dbus.UInt32(int(popup)), key])
                if command == "action-closing":
                    emit("NotificationClosed", "uu", [dbus.UInt32(int(popup)), dbus.UInt32(2)])
                return ""
            if command == "closed":
                popup, reason = arguments
                emit("NotificationClosed", "uu", [dbus.UInt32(int(popup)), dbus.UInt32(int(reason))])
                return ""
            if command == "run":
                code, address = arguments
                if address and address not in systems:
                    systems[address] = dbus.bus.BusConnection(address)
                printed = io.StringIO()
                with contextlib.redirect_stdout(printed):
                    exec(code, {"dbus": dbus, "session": session, "system": systems.get(address)})
                return printed.getvalue()
            if command in ("query", "update"):
                path, sql = arguments
                database = sqlite3.connect(path)
                try:
                    if command == "query":
                        return "\\n".join("|".join(map(str, row)) for row in database.execute(sql))
                    database.executescript(sql)
                    database.commit()
                    return ""
                finally:
                    database.close()
            raise ValueError("unknown command " + command)
        for line in sys.stdin:
            request = json.loads(line)
            try:
                reply = {"output": answer(request[0], request[1:])}
            except Exception as error:
                reply = {"error": "%s: %s" % (type(error).__name__, error)}
            print(json.dumps(reply), flush=True)
        """
}
