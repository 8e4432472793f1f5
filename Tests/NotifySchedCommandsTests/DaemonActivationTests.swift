import Foundation
import Glibc
import Testing

/// The daemon started by D-Bus activation: a call to its name starts it through the activation
/// file `share/dbus-1/services/` ships, as happens after login when the first call comes before
/// the user unit ran.
extension DaemonTests {
    @Test func aCallToTheDaemonsNameStartsItThroughItsActivationFile() throws {
        let feed = try CLI.temporaryFile(#"{"notifications": [{"id": "hello", "title": "Started by a call"}]}"#)
        let shipped = try String(
            contentsOf: CLI.repository.appendingPathComponent("share/dbus-1/services/org.notify_sched.Daemon.service"),
            encoding: .utf8)
        // The shipped file with the program just built in place of the installed one.
        let activation = shipped.replacingOccurrences(
            of: "Exec=/usr/bin/notify-sched daemon", with: "Exec=\(CLI.executable.path) daemon --feed \(feed)")
        #expect(activation != shipped, "the shipped file starts `notify-sched daemon`")
        let bus = try PrivateSessionBus(services: ["org.notify_sched.Daemon.service": activation])
        try bus.startServer(capabilities: ["actions", "body"])
        let answer = try bus.drive(
            """
            daemon = session.get_object('org.notify_sched.Daemon', '/org/notify_sched/Daemon')
            print(daemon.Status(dbus_interface='org.notify_sched.Daemon1'))
            """)
        #expect(answer.contains("\"pid\""), "the started daemon answered the call that started it")
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["Started by a call"])
        let status = try CLI.run(["status", "--json"], environment: bus.environment)
        let object = try JSONSerialization.jsonObject(with: Data(status.standardOutput.utf8)) as? [String: Any]
        let pid = try #require(object?["pid"] as? Int32)
        kill(pid, SIGTERM)
        try bus.waitUntil("the started daemon left the bus") {
            try bus.drive("print(session.name_has_owner('org.notify_sched.Daemon'))") == "False"
        }
    }
}
