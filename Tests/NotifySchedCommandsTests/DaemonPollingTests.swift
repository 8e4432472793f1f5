import Foundation
import NotifySchedTesting
import Testing

/// The daemon checking portal feeds on their period (issue 6, "Polling") and reconciling what
/// changed (DESIGN §5), against a real portal on 127.0.0.1 and dbusmock's notification server.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DaemonPollingTests: DaemonScenario {
    /// A configuration file that follows `url` (with `key`), checked every `period`.
    private func configuration(_ url: String, period: String, key: String? = nil) throws -> String {
        try CLI.temporaryFile(
            """
            fetch-period = \(period)

            [source team]
            feed = \(url)
            \(key.map { "public-key = \($0)" } ?? "")
            """, name: "config")
    }

    /// A native feed of immediate entries, `id: title` each.
    private func feed(_ entries: KeyValuePairs<String, String>, version: Int? = nil) -> String {
        let items = entries.map { #"{"id": "\#($0.key)", "title": "\#($0.value)"}"# }
        let header = version.map { #""version": \#($0), "# } ?? ""
        return #"{\#(header)"notifications": [\#(items.joined(separator: ", "))]}"#
    }

    /// A private bus with dbusmock's notification server, a portal serving `text` as `team.json`
    /// (two minutes old), and a daemon following it, checked every `period`.
    private func daemonFollowingPortal(
        serving text: String, period: String
    ) throws -> (bus: PrivateSessionBus, portal: PortalTestServer, url: String, daemon: CLI.RunningCommand) {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let portal = try PortalTestServer()
        try portal.write("team.json", text, age: 120)
        let url = portal.feedURL("team.json")
        let daemon = try CLI.start(
            ["daemon", "--config", try configuration(url, period: period)], environment: bus.environment)
        return (bus, portal, url, daemon)
    }

    @Test func aPolledChangeReplacesChangedPopupsInPlaceAndClosesWithdrawnOnes() throws {
        let (bus, portal, url, daemon) = try daemonFollowingPortal(
            serving: feed(["keep": "Kept", "change": "Before", "drop": "Dropped"]), period: "1s")
        let shown = try bus.waitForNotifyCalls(3)
        #expect(Set(shown.map(\.summary)) == ["Kept", "Before", "Dropped"])
        let before = try #require(shown.firstIndex { $0.summary == "Before" }) + 1
        let dropped = try #require(shown.firstIndex { $0.summary == "Dropped" }) + 1

        try portal.write("team.json", feed(["keep": "Kept", "change": "After", "new": "Added"]), age: 10)
        let calls = try bus.waitForNotifyCalls(5)
        #expect(try bus.waitForCloseCalls(1) == [dropped], "the withdrawn entry's popup must be closed")
        let replaced = try #require(calls.first { $0.summary == "After" })
        #expect(replaced.replaces == UInt32(before), "the changed entry's popup must be replaced in place")
        #expect(replaced.hints["x-notify-sched-id"] == shown[before - 1].hints["x-notify-sched-id"])
        #expect(calls.contains { $0.summary == "Added" && $0.replaces == 0 })
        let outcome = stop(daemon)
        #expect(calls.count == 5, "nothing else is shown: \(calls.map(\.summary))")
        #expect(outcome.standardError.contains("\(url): 1 added, 1 changed, 1 withdrawn"))
        #expect(portal.requests().filter { $0.header("If-None-Match") != nil }.count >= 1, "checks are conditional")
    }

    /// The portal's `Cache-Control: max-age` is the source's period (when the configuration
    /// sets none), and `status` says so; the check after the first copy falls at a new phase
    /// within that period.
    @Test func thePortalsMaxAgeSetsThePeriodAndStatusSaysSo() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let portal = try PortalTestServer()
        try portal.write("team.json", feed(["a": "Alpha"]), age: 120)
        try portal.setCacheControl("team.json", "public, max-age=7200")
        let config = try CLI.temporaryFile("[source team]\nfeed = \(portal.feedURL("team.json"))\n", name: "config")
        let started = Date()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let text = try CLI.run(["status"], environment: bus.environment).standardOutput
        let json = try CLI.run(["status", "--json"], environment: bus.environment).standardOutput
        _ = stop(daemon)
        #expect(text.contains("the portal asks for a check every 2h"), "\(text)")
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let health = try #require(((object?["sources"] as? [[String: Any]])?.first)?["health"] as? [String: Any])
        #expect(health["portalPeriodSeconds"] as? Int == 7200)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let next = try #require((health["nextCheck"] as? String).flatMap(formatter.date(from:)))
        #expect(next > started && next <= started.addingTimeInterval(7200 + 10), "within the portal's period")
    }

    /// How a failed check backs off is the core's (`DaemonCorePollingTests`); this is the
    /// daemon handing it the portal's status and `Retry-After`.
    @Test func aRetryAfterHoldsTheNextCheckBackAndTheFeedInForceStays() throws {
        let (bus, portal, url, daemon) = try daemonFollowingPortal(serving: feed(["a": "Alpha"]), period: "1s")
        _ = try bus.waitForNotifyCalls(1)
        try portal.setStatus("team.json", 429, retryAfter: "3")
        let before = portal.requests().count
        try bus.waitUntil("the daemon met the 429") { portal.requests().count > before }
        let refused = Date()
        // A one-second period would ask again within a second without the Retry-After.
        try bus.waitUntil("the check after the Retry-After") { portal.requests().count > before + 1 }
        let waited = Date().timeIntervalSince(refused)
        #expect(waited > 2.5, "no check may come before the Retry-After of 3 s: the next came after \(waited) s")
        let outcome = stop(daemon)
        #expect(try bus.closeCalls() == [], "Alpha stays in force")
        #expect(
            outcome.standardError.contains(
                "\(url): check failed, the feed in force stays: \(url): the server answered 429 Too Many Requests "
                    + "(Retry-After: 3 s)"))
    }

    /// Which feeds are refused is the loader's (`PortalFeedLoaderTests`), what a refusal keeps in
    /// force the core's; this is the daemon checking with the configured key.
    @Test func aTamperedFeedIsRefusedAndTheLastGoodOneStays() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let portal = try PortalTestServer()
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)").path
        let publicKey = try CLI.run(["keygen", "--output", keyFile]).standardOutput
            .trimmingCharacters(in: .whitespacesAndNewlines)
        /// Publishes `text`, signed; with `tampered`, the signature is of other bytes.
        func publish(_ text: String, age: TimeInterval, tampered: Bool = false) throws {
            let file = try CLI.temporaryFile(tampered ? text + " " : text)
            #expect(try CLI.run(["sign", file, "--key", keyFile]).status == 0)
            try portal.write("team.json", text, age: age)
            try portal.write("team.json.sig", try String(contentsOfFile: file + ".sig", encoding: .utf8), age: age)
        }
        try publish(feed(["a": "Alpha"], version: 2), age: 120)
        let url = portal.feedURL("team.json")
        let daemon = try CLI.start(
            ["daemon", "--config", try configuration(url, period: "1s", key: publicKey)], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)

        let asked = portal.requests().count
        try publish(feed(["b": "Tampered"], version: 3), age: 60, tampered: true)
        try bus.waitUntil("the daemon fetched the tampered feed") { portal.requests().count >= asked + 2 }
        #expect(try bus.notifyCalls().map(\.summary) == ["Alpha"])
        #expect(try bus.closeCalls() == [], "the last good feed stays in force")

        try publish(feed(["d": "Delta"], version: 4), age: 10)
        #expect(try bus.waitForNotifyCalls(2).map(\.summary) == ["Alpha", "Delta"])
        let outcome = stop(daemon)
        #expect(outcome.standardError.contains("signature"))
    }

    @Test func syncThroughTheDaemonChecksNowAndPrintsWhatChanged() throws {
        let (bus, portal, url, daemon) = try daemonFollowingPortal(
            serving: feed(["a": "Alpha", "b": "Beta"]), period: "1d")
        _ = try bus.waitForNotifyCalls(2)
        #expect(try CLI.run(["sync"], environment: bus.environment).standardOutput == "\(url): not modified\n")

        try portal.write("team.json", feed(["a": "Alpha, again", "c": "Gamma"]), age: 10)
        let synced = try CLI.run(["sync"], environment: bus.environment)
        #expect(
            synced
                == .init(
                    status: 0,
                    standardOutput:
                        "\(url): 1 added, 1 changed, 1 withdrawn\n~ a  Alpha, again\n+ c  Gamma\n- b  Beta\n",
                    standardError: ""))
        #expect(try bus.waitForNotifyCalls(4).map(\.summary).suffix(2).sorted() == ["Alpha, again", "Gamma"])

        try portal.setStatus("team.json", 503)
        let failed = try CLI.run(["sync"], environment: bus.environment)
        #expect(failed.status == 1)
        #expect(failed.standardOutput == "\(url): failed: \(url): the server answered 503 Service Unavailable\n")
        #expect(stop(daemon).status == 0)
    }

    @Test func slowPortalsAreCheckedSideBySideSoSyncWaitsForTheSlowestOnly() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let portal = try PortalTestServer()
        let urls = (1...3).map { portal.url("/slow?seconds=3&portal=\($0)") }
        let sections = urls.enumerated().map { "[source slow\($0.offset)]\nfeed = \($0.element)\n" }
        let configuration = try CLI.temporaryFile(
            "fetch-period = 1d\n\n" + sections.joined(separator: "\n"), name: "config")
        let daemon = try CLI.start(["daemon", "--config", configuration], environment: bus.environment)
        try bus.waitUntil("the daemon began its first checks") {
            portal.requests().filter { $0.path.hasPrefix("/slow") }.count == 3
        }
        // Sync follows the checks under way with fresh ones: side by side, what is left of the
        // first three (under 3 s), then 3 s; one at a time, all three first, then 9 s more.
        let asked = Date()
        let synced = try CLI.run(["sync"], environment: bus.environment)
        let elapsed = Date().timeIntervalSince(asked)
        #expect(synced.status == 0, "\(synced.standardError)")
        #expect(synced.standardOutput.split(separator: "\n").filter { $0.hasPrefix(portal.baseURL) }.count == 3)
        #expect(portal.requests().filter { $0.path.hasPrefix("/slow") }.count == 6)
        #expect(elapsed < 9, "sync took \(elapsed) s: the checks ran one after the other")
        #expect(stop(daemon).status == 0)
    }
}
