import ArgumentParser
import Foundation
import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform

/// `notify-sched status`: the daemon, its sources, the notification server and its capabilities.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the daemon, its sources and the notification server.",
        discussion: """
            Asks the running daemon. With no daemon running, says so, shows the notification server \
            and exits 1.
            """
    )

    @Flag(help: "Print the daemon's status as a JSON object.")
    var json = false

    func run() throws {
        guard case .status(let text) = try RunningDaemon.call(.status) else {
            Output.standardOutput.write("daemon: not running")
            Output.standardOutput.write("notification server: \(Self.serverSummary())")
            throw CommandError(.failure, RunningDaemon.notRunning)
        }
        if json {
            Output.standardOutput.write(text)
            return
        }
        let status: DaemonStatus
        do {
            status = try JSONDecoder().decode(DaemonStatus.self, from: Data(text.utf8))
        } catch {
            throw CommandError(.failure, "notify-sched: the daemon's status is malformed: \(error)")
        }
        for line in Self.lines(of: status) { Output.standardOutput.write(line) }
    }

    /// The status in a few lines, for people.
    static func lines(of status: DaemonStatus) -> [String] {
        var lines = ["daemon: running (pid \(status.pid), notify-sched \(status.version), since \(status.startedAt))"]
        if let server = status.server {
            lines.append(
                "notification server: \(server.name) \(server.version) by \(server.vendor) "
                    + "(spec \(server.specVersion)): \(server.capabilities.joined(separator: ", "))")
        } else {
            lines.append("notification server: none on the session bus (popups wait for one)")
        }
        lines.append(
            "pending: \(status.pending) timed occurrence\(status.pending == 1 ? "" : "s")"
                + (status.nextDeadline.map { ", next at \($0)" } ?? ""))
        for source in status.sources {
            let what =
                source.dialect.map { "\($0), \(source.entries) entr\(source.entries == 1 ? "y" : "ies")" }
                ?? (source.health.lastCheck == nil ? "not checked yet" : "could not be read")
            lines.append("source: \(source.location) (\(what))")
            let health = source.health.summary
            if !health.isEmpty { lines.append("  \(health)") }
            if let receipts = source.receipts { lines.append("  \(receipts)") }
            for rollout in source.rollouts ?? [] {
                let range = Rollout(
                    namespace: rollout.namespace, start: rollout.start, count: rollout.count, total: rollout.total)
                lines.append(
                    "  rollout: this desktop's bucket \(rollout.bucket) is \(rollout.inRange ? "in" : "outside") "
                        + TerminalText.escaped(range.words))
            }
        }
        for shown in status.onScreen ?? [] {
            let what = shown.role == .prompt ? "prompt" : "on screen"
            lines.append(
                "\(what): \(shown.occurrenceID) (\(TerminalText.escaped(shown.entryID)): "
                    + "\(TerminalText.escaped(shown.title)))")
        }
        return lines
    }

    /// The notification server on the session bus, in words.
    private static func serverSummary() -> String {
        do {
            return try DesktopNotifier(bus: SessionBus(), loop: MainLoop()).currentServer().summary
        } catch {
            return "none (\(error))"
        }
    }
}
