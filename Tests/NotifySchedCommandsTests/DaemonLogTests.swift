import Foundation
import NotifySchedTesting
import Testing

/// The daemon's log under journald: each line carries its priority as the `<N>` prefix systemd
/// reads from standard error, so `journalctl -p warning` shows only what went wrong.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DaemonLogTests: DaemonScenario {
    /// A feed with an entry due at once beside a portal that refuses connections: the failed
    /// check, the delivery and the start each at their own priority.
    private func run(journalStream: Bool, environment extra: [String: String] = [:]) throws -> [String] {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let feed = try CLI.temporaryFile(#"{"notifications": [{"id": "now", "title": "Now"}]}"#)
        let daemon = try CLI.start(
            ["daemon", "--feed", feed, "--feed", "http://127.0.0.1:9/feed.json"],
            environment: bus.environment.merging(extra) { $1 },
            journalStream: journalStream)
        try daemon.waitForStandardError(containing: "delivered now")
        try daemon.waitForStandardError(containing: "check failed")
        return stop(daemon).standardError.split(separator: "\n").map(String.init)
    }

    @Test func onTheJournalsStreamEachLineStartsWithItsPriority() throws {
        let lines = try run(journalStream: true)
        #expect(
            lines.allSatisfy { $0.range(of: #"^<[3-6]>notify-sched: "#, options: .regularExpression) != nil },
            "\(lines)")
        #expect(
            lines.contains { $0.hasPrefix("<4>notify-sched: http://127.0.0.1:9/feed.json: check failed") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<6>notify-sched: delivered now ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("<5>notify-sched: ready: ") }, "\(lines)")
        #expect(lines.contains("<5>notify-sched: stopping"), "\(lines)")
    }

    /// A terminal, a file, or a child that inherited `JOURNAL_STREAM` but writes elsewhere.
    @Test func elsewhereTheLinesCarryNoPriority() throws {
        let lines = try run(journalStream: false, environment: ["JOURNAL_STREAM": "8:12345"])
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("notify-sched: ") }, "\(lines)")
    }
}
