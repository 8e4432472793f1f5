import Foundation
import NotifySchedTesting
import Testing

/// `notify-sched sync` through a running daemon, on the private bus: iNotify's manual check.
/// How the popups it chooses wait is pinned in virtual time (`EmbeddedWaitingPopupTests`).
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct INotifySyncTests: DaemonScenario {
    @Test func syncChecksAnINotifySourceAtOnceWhateverItsPeriodAndFirstStart() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let updates = try CLI.temporaryFile(#"{"2026/01/01": {"Title": "Update", "Message": "A new version"}}"#)
        let configuration = try CLI.temporaryFile(
            """
            [source updates]
            feed = \(updates)
            dialect = inotify
            check-period = 7d
            """, name: "config")
        let daemon = try CLI.start(["daemon", "--config", configuration], environment: bus.environment)
        try daemon.waitForStandardError(containing: "first start, not checking")
        #expect(try CLI.run(["sync"], environment: bus.environment).status == 0)
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["Update"], "sync checks as iNotify's manual check")
        try bus.invokeAction("ok", onPopup: 1)
        try bus.waitUntil("the ledger recorded the answer") {
            try bus.queryState("SELECT list, entry_id FROM handling_mark") == ["viewed|2026/01/01"]
        }
        #expect(try CLI.run(["sync"], environment: bus.environment).status == 0)
        try daemon.waitForStandardError(containing: "no new notifications")
        #expect(stop(daemon).status == 0)
        #expect(try bus.notifyCalls().count == 1, "a viewed message is not shown again")
    }
}
