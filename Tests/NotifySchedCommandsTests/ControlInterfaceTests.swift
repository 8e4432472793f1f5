import Foundation
import NotifySchedTesting
import Testing

/// The daemon's control interface (`org.notify_sched.Daemon1`) through the CLI: `list`,
/// `status`, `handle` and `test` go through a running daemon, and work on their own without one.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct ControlInterfaceTests {
    typealias CLI = CommandLineHarness

    /// A feed with an entry shown at once (with an action) and one due in an hour, and a
    /// configuration file that follows it.
    private func followedFeed() throws -> (feed: String, config: String) {
        let due = ISO8601DateFormatter().string(from: Date(timeIntervalSinceNow: 3600))
        let feed = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "now", "title": "Right away", "action": {"label": "Open", "url": "https://example.org/now"}},
              {"id": "later", "title": "In an hour", "fireDate": "\(due)"}
            ]}
            """)
        let config = try CLI.temporaryFile("[source team]\nfeed = \(feed)\n", name: "config")
        return (feed, config)
    }

    private func stop(_ daemon: CLI.RunningCommand) {
        kill(daemon.process.processIdentifier, SIGTERM)
        _ = daemon.finish()
    }

    /// A notification server and a daemon following `followedFeed()` on `bus`, once it showed
    /// the entry due at once; and that popup's occurrence id.
    private func daemonShowingItsFirstPopup(on bus: PrivateSessionBus) throws -> (CLI.RunningCommand, String) {
        try bus.startServer(capabilities: ["actions", "body"])
        let (_, config) = try followedFeed()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        let delivered = try #require(try bus.waitForNotifyCalls(1).first)
        return (daemon, try #require(delivered.hints["x-notify-sched-id"]))
    }

    private struct Row: Decodable {
        struct Health: Decodable {
            var lastSuccess: String?
            var copyTakenAt: String?
        }

        var id: String
        var state: String
        var lastDelivery: String?
        var lastOccurrenceID: String?
        var occurrences: [String]
        var sourceHealth: Health?
    }

    private func rows(_ outcome: CLI.Outcome) throws -> [String: Row] {
        let rows = try JSONDecoder().decode([Row].self, from: Data(outcome.standardOutput.utf8))
        return Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
    }

    @Test func listShowsTheDaemonsScheduleWithLastDeliveryAndStateAndTheStoredStateWithoutIt() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (_, config) = try followedFeed()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let live = try rows(try CLI.run(["list", "--json"], environment: bus.environment))
        #expect(live["now"]?.state == "delivered")
        #expect(live["now"]?.lastDelivery != nil)
        #expect(live["now"]?.occurrences == [], "an immediate entry once shown has no occurrence left")
        #expect(live["later"]?.state == "pending")
        #expect(live["later"]?.occurrences.count == 1)
        #expect(live["now"]?.sourceHealth?.copyTakenAt != nil, "each row says how its source fares")
        let table = try CLI.run(["list"], environment: bus.environment)
        #expect(table.standardOutput.hasPrefix("NEXT "))
        #expect(table.standardOutput.contains("delivered"))
        stop(daemon)

        let stored = try rows(try CLI.run(["list", "--json", "--config", config], environment: bus.environment))
        #expect(stored["now"]?.state == "delivered", "without a daemon, the state database still says so")
        #expect(stored["later"]?.state == "pending")
    }

    @Test func statusNamesTheDaemonItsSourcesAndTheServerAndExits1WithoutADaemon() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (feed, config) = try followedFeed()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let status = try CLI.run(["status"], environment: bus.environment)
        #expect(status.status == 0)
        #expect(status.standardOutput.contains("daemon: running (pid \(daemon.process.processIdentifier)"))
        #expect(status.standardOutput.contains("actions, body"))
        #expect(status.standardOutput.contains("source: \(feed) (native, 2 entries)"))
        #expect(status.standardOutput.contains("pending: 1 timed occurrence, next at "))
        let json = try CLI.run(["status", "--json"], environment: bus.environment)
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect(object?["pid"] as? Int == Int(daemon.process.processIdentifier))
        stop(daemon)

        let none = try CLI.run(["status"], environment: bus.environment)
        #expect(none.status == 1)
        #expect(none.standardOutput.hasPrefix("daemon: not running\nnotification server: "))
        #expect(none.standardError.contains("no notify-sched daemon is running"))
    }

    @Test func handleGoesThroughTheRunningDaemonWhichAsksThenActs() throws {
        let bus = try PrivateSessionBus()
        let (daemon, id) = try daemonShowingItsFirstPopup(on: bus)

        let handle = try CLI.start(["handle", id], environment: bus.environment)
        let prompt = try #require(try bus.waitForNotifyCalls(2).last)
        #expect(prompt.hints["urgency"] == "2", "the prompt is urgent")
        let actionKey = try #require(stride(from: 0, to: prompt.actions.count, by: 2).map { prompt.actions[$0] }.first)
        try bus.invokeAction(actionKey, onPopup: 2)
        let outcome = handle.finish()
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("opened: https://example.org/now"))
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/now"])

        let unknown = try CLI.run(["handle", "0123456789abcdef"], environment: bus.environment)
        #expect(unknown.status == 3)
        #expect(try bus.notifyCalls().count == 2, "an id notify-sched did not deliver shows nothing")
        // seed semantics §5.54: canHandle answers yes or no, with no side effect.
        let canHandle = try CLI.run(["handle", "--check", id], environment: bus.environment)
        #expect(canHandle.status == 0 && canHandle.standardOutput == "can handle: \(id)\n")
        let cannot = try CLI.run(["handle", "--check", "0123456789abcdef"], environment: bus.environment)
        #expect(cannot.status == 3 && cannot.standardOutput.isEmpty)
        #expect(try bus.notifyCalls().count == 2, "--check shows nothing")
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/now"], "--check opens nothing")
        stop(daemon)
    }

    @Test func listAndStatusShowTheOccurrenceIdsAndHandleTakesAnEntryIdToo() throws {
        let bus = try PrivateSessionBus()
        let (daemon, id) = try daemonShowingItsFirstPopup(on: bus)
        let listed = try rows(try CLI.run(["list", "--json"], environment: bus.environment))
        #expect(listed["now"]?.lastOccurrenceID == id)
        #expect(listed["later"]?.lastOccurrenceID == nil)
        #expect(try CLI.run(["list"], environment: bus.environment).standardOutput.contains(id))
        let status = try CLI.run(["status"], environment: bus.environment)
        #expect(status.standardOutput.contains("on screen: \(id) (now: Right away)"), "\(status.standardOutput)")

        let byEntry = try CLI.run(["handle", "now", "--no-alert"], environment: bus.environment)
        #expect(byEntry.status == 0, "\(byEntry.standardError)")
        #expect(byEntry.standardOutput.contains("opened: https://example.org/now"))
        let never = try CLI.run(["handle", "later"], environment: bus.environment)
        #expect(never.status == 3, "an entry not delivered yet names no occurrence")
        #expect(never.standardError.contains("`notify-sched list` shows each entry's last occurrence id"))
        stop(daemon)

        let withoutDaemon = try CLI.run(["handle", "now", "--no-alert"], environment: bus.environment)
        #expect(withoutDaemon.status == 0, "\(withoutDaemon.standardError)")
    }

    @Test func anEntryIdOfTwoSourcesIsRefusedNamingTheOccurrenceIdOfEach() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (first, _) = try followedFeed()
        let (second, _) = try followedFeed()
        let config = try CLI.temporaryFile(
            "[source one]\nfeed = \(first)\n[source two]\nfeed = \(second)\n", name: "config")
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        let ids = try bus.waitForNotifyCalls(2).compactMap { $0.hints["x-notify-sched-id"] }
        let refused = try CLI.run(["handle", "now", "--no-alert"], environment: bus.environment)
        #expect(refused.status == 3)
        #expect(ids.allSatisfy(refused.standardError.contains), "\(refused.standardError)")
        #expect(try CLI.run(["handle", ids[0], "--no-alert"], environment: bus.environment).status == 0)
        stop(daemon)
    }

    @Test func aTestPopupShownByTheDaemonKeepsItsButtonsWorkingAfterTheCommandExits() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (_, config) = try followedFeed()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let test = try CLI.run(
            ["test", "--title", "Hello", "--action-url", "https://example.org/test"], environment: bus.environment)
        #expect(test.status == 0, "\(test.standardError)")
        #expect(test.standardOutput.hasPrefix("delivered: "))
        let popup = try #require(try bus.waitForNotifyCalls(2).last)
        #expect(popup.summary == "Hello")
        try bus.invokeAction("default", onPopup: 2)
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/test"])
        var french = bus.environment
        french["LANG"] = "fr_FR.UTF-8"
        #expect(try CLI.run(["test", "--action-url", "https://example.org/fr"], environment: french).status == 0)
        let inFrench = try #require(try bus.waitForNotifyCalls(3).last)
        #expect(inFrench.summary == "Test de notify-sched", "in the caller's language")
        #expect(inFrench.actions.prefix(2) == ["open", "Plus d'info"], "its button too")
        stop(daemon)
        let id = test.standardOutput.dropFirst("delivered: ".count).trimmingCharacters(in: .newlines)
        let later = try CLI.run(["handle", id, "--no-alert"], environment: bus.environment)
        #expect(later.status == 0, "the daemon recorded the test popup: \(later.standardError)")
    }

    /// A local client cannot make the daemon build a listing without bound (one asked for 2^32 − 1
    /// occurrences per entry grew the daemon to 15 GB): the call is refused, the daemon goes on.
    @Test func anUnboundedListingIsRefusedOnTheBusAndOnTheCommandLine() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (_, config) = try followedFeed()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let call = try Self.gdbus(
            ["call", "--method", "org.notify_sched.Daemon1.List", "4294967295", "0", "10", ""],
            environment: bus.environment)
        #expect(call.status != 0)
        #expect(call.standardError.contains("upcoming must be between 1 and 1000"), "\(call.standardError)")
        let listed = try CLI.run(["list", "--upcoming", "1000"], environment: bus.environment)
        #expect(listed.status == 0, "the daemon still answers: \(listed.standardError)")
        let refused = try CLI.run(["list", "--upcoming", "1000000000"], environment: bus.environment)
        #expect(refused.status == 2, "a usage error")
        #expect(refused.standardError.contains("--upcoming must be between 1 and 1000"))
        stop(daemon)
    }

    /// `gdbus SUBCOMMAND` on the daemon's control object, with `arguments` after the object's address.
    private static func gdbus(_ arguments: [String], environment: [String: String]) throws -> ExternalCommand.Output {
        try ExternalCommand.run(
            "/usr/bin/gdbus",
            [
                arguments[0], "--session", "--dest", "org.notify_sched.Daemon", "--object-path",
                "/org/notify_sched/Daemon",
            ]
                + arguments.dropFirst(), environment: environment)
    }

    @Test func theControlObjectIsIntrospectable() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (_, config) = try followedFeed()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let text = try Self.gdbus(["introspect"], environment: bus.environment).standardOutput
        for method in ["PostEvent", "List", "Status", "Handle", "Snooze", "Test", "Sync"] {
            #expect(text.contains("\(method)("), "\(method) is missing from:\n\(text)")
        }
        stop(daemon)
    }
}
