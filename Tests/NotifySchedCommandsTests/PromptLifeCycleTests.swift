import Foundation
import NotifySchedTesting
import Testing

/// The prompt `notify-sched handle ID` asks with, through a running daemon on a private bus: only
/// an answer on it (or its dismissal) ends `handle`, it is closed once answered with the
/// occurrence's popup, it outlives a kill -9, and a new server shows nothing answered again.
/// The live twins of `EmbeddedPromptTests`, which pin the same decisions in virtual time.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct PromptLifeCycleTests {
    typealias CLI = CommandLineHarness

    /// A notification server, and a daemon following a feed whose one entry is shown at once,
    /// with an action; the occurrence id of that popup, the server's popup 1; and the daemon's
    /// configuration file.
    private func daemonWithPopup(
        on bus: PrivateSessionBus
    ) throws -> (daemon: CLI.RunningCommand, id: String, config: String) {
        try bus.startServer(capabilities: ["actions", "body"])
        let feed = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "now", "title": "Right away", "action": {"label": "Open", "url": "https://example.org/now"}}
            ]}
            """)
        let config = try CLI.temporaryFile("[source team]\nfeed = \(feed)\n", name: "config")
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        let delivered = try #require(try bus.waitForNotifyCalls(1).first)
        return (daemon, try #require(delivered.hints["x-notify-sched-id"]), config)
    }

    private func stop(_ daemon: CLI.RunningCommand) -> CLI.Outcome {
        kill(daemon.process.processIdentifier, SIGTERM)
        return daemon.finish()
    }

    /// Runs `handle ID` and waits until its prompt, the server's popup 2, is shown.
    private func prompt(about id: String, on bus: PrivateSessionBus) throws -> CLI.RunningCommand {
        let handle = try CLI.start(["handle", id], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(2)
        return handle
    }

    /// Runs `handle ID` and waits until its prompt, the server's popup 2, is stored for the
    /// next daemon.
    private func storedPrompt(about id: String, on bus: PrivateSessionBus) throws -> CLI.RunningCommand {
        let handle = try prompt(about: id, on: bus)
        try bus.waitUntil("the daemon stores the prompt") {
            try bus.queryState("SELECT popup_id FROM prompt WHERE occurrence_id = '\(id)'") == ["2"]
        }
        return handle
    }

    private func ledgerOutcome(of id: String, on bus: PrivateSessionBus) throws -> String? {
        try bus.queryState("SELECT outcome FROM ledger WHERE occurrence_id = '\(id)'").first
    }

    @Test func handleWaitsThroughThePopupsClosingAndClosesThePromptAndThePopupOnceAnswered() throws {
        let bus = try PrivateSessionBus()
        let (daemon, id, _) = try daemonWithPopup(on: bus)
        let handle = try CLI.start(["handle", id], environment: bus.environment)
        let prompt = try #require(try bus.waitForNotifyCalls(2).last)
        #expect(prompt.hints["resident"] == "true")

        try bus.closePopup(1, reason: 1)
        try bus.waitUntil("the daemon records the popup's closing") {
            try ledgerOutcome(of: id, on: bus) == "closed"
        }

        try bus.invokeAction("open", onPopup: 2)
        let outcome = handle.finish()
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("action: open"))
        #expect(outcome.standardOutput.contains("opened: https://example.org/now"))
        #expect(try bus.waitForCloseCalls(1) == [2], "the answered prompt is closed")
        #expect(try ledgerOutcome(of: id, on: bus) == "acted")
        _ = stop(daemon)
    }

    @Test func aHandleWhoseDaemonIsKilledSaysSoAndThePromptIsTakenOverByTheNext() throws {
        let bus = try PrivateSessionBus()
        let (daemon, id, config) = try daemonWithPopup(on: bus)
        let handle = try storedPrompt(about: id, on: bus)
        kill(daemon.process.processIdentifier, SIGKILL)
        _ = daemon.finish()
        let told = handle.finish()
        #expect(told.status == 1)
        #expect(told.standardError.contains("the daemon stopped before it answered"), "\(told.standardError)")

        let next = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        try bus.waitUntil("the next daemon shows the prompt again in place") {
            try bus.notifyCalls().dropFirst(2).contains { $0.replaces == 2 && $0.hints["urgency"] == "2" }
        }
        _ = stop(next)
    }

    @Test func anAnsweredOccurrenceIsNotShownAgainWhenTheServerRestarts() throws {
        let bus = try PrivateSessionBus()
        let (daemon, id, _) = try daemonWithPopup(on: bus)
        let handle = try prompt(about: id, on: bus)
        try bus.invokeAction("open", onPopup: 2)
        #expect(handle.finish().status == 0)
        _ = try bus.waitForCloseCalls(2)
        bus.stopServer()
        try bus.startServer(capabilities: ["actions", "body"])
        // Logged once the popups still waiting went to the new server (nothing else may ask
        // the daemon for the server before: it would meet the new one without that hand-over).
        try daemon.waitForStandardError(
            containing: "notify-sched: notification server: none\nnotify-sched: notification server: ")
        #expect(try bus.notifyCalls() == [], "neither the popup nor the prompt comes back")
        _ = stop(daemon)
    }

    @Test func aDelayedTestStillWaitingWhenTheDaemonStopsIsToldSo() throws {
        let bus = try PrivateSessionBus()
        let (daemon, _, _) = try daemonWithPopup(on: bus)
        let test = try CLI.start(["test", "--in", "1h"], environment: bus.environment)
        try daemon.waitForStandardError(containing: "notify-sched: a test popup is due at ")
        _ = stop(daemon)
        let told = test.finish()
        #expect(told.status == 1)
        #expect(
            told.standardError.contains("the daemon stopped before the test popup was shown"), "\(told.standardError)")
    }
}
