import Foundation
import NotifySchedTesting
import Testing

/// A local feed file edited under a running daemon: GIO's file monitor sees the edit, and what
/// it adds is shown within a second, as a person editing their feed expects, however the editor
/// saves it.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct LiveFeedFileTests: DaemonScenario {
    private func feed(_ ids: [String]) -> String {
        let entries = ids.map { #"{"id": "\#($0)", "title": "Entry \#($0)"}"# }
        return #"{"notifications": [\#(entries.joined(separator: ", "))]}"#
    }

    @Test func anEditInPlaceAndASaveThroughARenameAreEachShownWithinASecond() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let path = try CLI.temporaryFile(feed(["first"]))
        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        try daemon.waitForStandardError(containing: "ready:")

        // In place, as `echo … > feed.json` writes it.
        var edited = Date()
        try Data(feed(["first", "second"]).utf8).write(to: URL(fileURLWithPath: path))
        var calls = try bus.waitForNotifyCalls(2)
        #expect(calls.last?.summary == "Entry second")
        #expect(Date().timeIntervalSince(edited) < 1, "shown \(Date().timeIntervalSince(edited)) s after the edit")

        // As editors save: a new file renamed over the old one.
        edited = Date()
        let temporary = path + ".swp"
        try Data(feed(["first", "second", "third"]).utf8).write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, path) == 0)
        calls = try bus.waitForNotifyCalls(3)
        #expect(calls.last?.summary == "Entry third")
        #expect(Date().timeIntervalSince(edited) < 1, "shown \(Date().timeIntervalSince(edited)) s after the save")

        let log = stop(daemon).standardError
        #expect(log.contains("\(path): changed on disk; reading it again"), "\(log)")
        #expect(try bus.notifyCalls().count == 3, "nothing shown twice")
    }

    /// The configuration file edited under a running daemon: an edit with an error is logged and
    /// changes nothing; one that adds a source restarts the daemon in the same process, which
    /// keeps its bus name, shows the new source's entry and takes the old popup over rather than
    /// showing it again.
    @Test func aConfigurationEditRestartsTheDaemonInPlaceAndOneWithErrorsIsIgnored() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let first = try CLI.temporaryFile(feed(["first"]))
        let second = try CLI.temporaryFile(feed(["second"]))
        let config = try CLI.temporaryFile("[source one]\nfeed = \(first)\n", name: "config")
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        try daemon.waitForStandardError(containing: "ready:")

        try Data("quiet-hours = soon\n[source one]\nfeed = \(first)\n".utf8).write(to: URL(fileURLWithPath: config))
        try daemon.waitForStandardError(containing: "has errors; the configuration in force stays")

        let edited = Date()
        try Data("[source one]\nfeed = \(first)\n[source two]\nfeed = \(second)\n".utf8).write(
            to: URL(fileURLWithPath: config))
        // The new daemon takes the first popup over (a Notify in place) before its loop shows
        // the second source's entry: wait for that entry itself.
        try bus.waitUntil("the second source's entry is shown") {
            try bus.notifyCalls().contains { $0.summary == "Entry second" }
        }
        #expect(Date().timeIntervalSince(edited) < 1.5, "shown \(Date().timeIntervalSince(edited)) s after the edit")
        let status = try CLI.run(["status"], environment: bus.environment)
        #expect(status.status == 0 && status.standardOutput.contains("(pid \(daemon.process.processIdentifier),"))
        #expect(status.standardOutput.contains(second), "\(status.standardOutput)")

        let log = stop(daemon).standardError
        #expect(
            log.contains("\(config) changed") && log.contains("restarting to apply the new configuration"), "\(log)")
        #expect(log.components(separatedBy: "ready:").count == 3, "two starts in one process\n\(log)")
        #expect(
            try bus.notifyCalls().filter { $0.summary == "Entry first" && $0.replaces == 0 }.count == 1,
            "the first popup is taken over, not shown again\n\(log)")
    }
}
