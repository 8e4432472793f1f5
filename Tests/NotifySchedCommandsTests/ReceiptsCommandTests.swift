import Foundation
import NotifySchedTesting
import Testing

/// Receipts as a user and an operator see them: a daemon on a private bus shows three popups
/// (one clicked, one dismissed, one snoozed) from a source with receipts on; `status` says
/// where they go; `receipts --pending` prints the body; `receipts --send` delivers it, once,
/// to a real collector on 127.0.0.1 after its refusals. With receipts off, nothing is counted
/// or sent.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct ReceiptsCommandTests: DaemonScenario {
    private let feedText = """
        {"version": 5, "notifications": [
          {"id": "click", "title": "Click me", "action": {"label": "Open", "url": "https://example.org/go"}},
          {"id": "dismiss", "title": "Dismiss me"},
          {"id": "snooze", "title": "Snooze me"}
        ]}
        """

    /// Shows the feed's three popups and answers them: the action, a dismissal, a snooze.
    private func showAndAnswer(config: String, on bus: PrivateSessionBus) throws -> CLI.RunningCommand {
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        let calls = try bus.waitForNotifyCalls(3)
        func popup(_ title: String) throws -> Int { try #require(calls.firstIndex { $0.summary == title }) + 1 }
        try bus.invokeAction("open", onPopup: try popup("Click me"))
        _ = try bus.waitForOpenedURLs(1)
        try bus.closePopup(try popup("Dismiss me"), reason: 2)
        try bus.invokeAction("snooze-3600", onPopup: try popup("Snooze me"), closing: true)
        try bus.waitUntil("the three answers in the ledger") {
            try bus.queryState("SELECT count(*) FROM ledger WHERE outcome != 'delivered'") == ["3"]
        }
        return daemon
    }

    @Test func aClickADismissalAndASnoozeReachTheCollectorOnceAfterItsRefusals() throws {
        try #require(OTLPOracle.isInstalled, "run scripts/install-deps, which installs the OTLP oracle")
        let collector = try PortalTestServer()
        try collector.failCollector("otlp", with: ["503", "429 1"])
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let feed = try CLI.temporaryFile(feedText)
        let config = try CLI.temporaryFile(
            """
            snooze = 1h
            [source team]
            feed = \(feed)
            receipts = counts
            receipts-endpoint = \(collector.collectorURL("otlp"))
            """, name: "config")
        let daemon = try showAndAnswer(config: config, on: bus)
        let status = try CLI.run(["status"], environment: bus.environment)
        #expect(
            status.standardOutput.contains(
                "  receipts on, to \(collector.collectorURL("otlp")); 3 counted, 0 bodies waiting; last sent never"),
            "\(status.standardOutput)")
        #expect(stop(daemon).status == 0)

        let pending = try CLI.run(["receipts", "--pending", "--config", config], environment: bus.environment)
        #expect(pending.status == 0, "\(pending.standardError)")
        let body = pending.standardOutput.trimmingCharacters(in: .newlines)
        #expect(!body.contains("\n"), "one body")
        #expect(pending.standardError.contains("3 receipts to \(collector.collectorURL("otlp"))"))

        for refusal in ["503", "429"] {
            let refused = try CLI.run(["receipts", "--send", "--config", config], environment: bus.environment)
            #expect(refused.status == 1 && refused.standardError.contains("answered \(refusal)"), "\(refused)")
        }
        let sent = try CLI.run(["receipts", "--send", "--config", config], environment: bus.environment)
        #expect(sent.status == 0, "\(sent.standardError)")
        #expect(sent.standardOutput.contains("sent 3 receipts of \(feed) to \(collector.collectorURL("otlp"))"))
        let again = try CLI.run(["receipts", "--send", "--config", config], environment: bus.environment)
        #expect(again.standardOutput == "no receipts waiting\n")

        let received = try collector.received("otlp")
        #expect(received == [body], "the body printed, sent once, byte for byte")
        let verdict = try #require(try OTLPOracle.check(received).first)
        #expect(verdict.valid, "\(verdict.error ?? "")")
        var counts: [String: [String: Int64]] = [:]
        for record in verdict.records ?? [] {
            let entry = try #require(record.attributes["notify_sched.entry.id"]?.string)
            #expect(record.attributes["notify_sched.feed.version"]?.int == 5)
            for (key, value) in record.attributes where key.hasPrefix("notify_sched.count.") {
                counts[entry, default: [:]][String(key.dropFirst(19))] = value.int
            }
        }
        #expect(
            counts == [
                "click": ["shown": 1, "acted.open": 1], "dismiss": ["shown": 1, "dismissed": 1],
                "snooze": ["shown": 1, "snoozed": 1],
            ])
        let summary = try CLI.run(["receipts", "--config", config], environment: bus.environment)
        #expect(summary.standardOutput.hasPrefix("team: receipts on, to \(collector.collectorURL("otlp")); 0 counted"))
    }

    @Test func withReceiptsOffNothingIsCountedQueuedOrSent() throws {
        let collector = try PortalTestServer()
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let feed = try CLI.temporaryFile(feedText)
        // An endpoint without `receipts = counts` turns nothing on.
        let config = try CLI.temporaryFile(
            "snooze = 1h\nreceipts-endpoint = \(collector.collectorURL("otlp"))\n[source team]\nfeed = \(feed)\n",
            name: "config")
        let daemon = try showAndAnswer(config: config, on: bus)
        #expect(stop(daemon).status == 0)
        #expect(try bus.queryState("SELECT count(*) FROM receipt_count") == ["0"])
        let sent = try CLI.run(["receipts", "--send", "--config", config], environment: bus.environment)
        #expect(sent.status == 0 && sent.standardOutput == "no receipts waiting\n")
        let summary = try CLI.run(["receipts", "--config", config], environment: bus.environment)
        #expect(summary.standardOutput == "team: receipts off\n")
        #expect(try collector.received("otlp") == [])
    }
}
