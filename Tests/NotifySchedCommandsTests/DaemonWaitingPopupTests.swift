import Foundation
import Glibc
import NotifySchedTesting
import Testing

/// Popups chosen by session events, posted events and iSmartNews queues wait in the state
/// database until they are shown: for a notification server, for a queue's timeout, for quiet
/// hours to end. Neither a crash nor a restart loses them or shows them twice.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DaemonWaitingPopupTests: DaemonScenario {
    /// An iSmartNews message and a native entry that the session start shows.
    private func sessionStartFeeds() throws -> String {
        let news = try CLI.temporaryFile(#"[{"title": "Welcome", "text": "Read the news"}]"#, name: "news.json")
        let native = try CLI.temporaryFile(
            #"{"notifications": [{"id": "hello", "title": "Hello again", "events": {"session:start": "ON=1"}}]}"#)
        return try CLI.temporaryFile(
            """
            [source news]
            feed = \(news)
            dialect = ismartnews
            [source native]
            feed = \(native)
            """, name: "config")
    }

    @Test func sessionPopupsWaitForANotificationServerEvenAcrossACrash() throws {
        let bus = try PrivateSessionBus()
        let configuration = try sessionStartFeeds()
        let first = try CLI.start(["daemon", "--config", configuration], environment: bus.environment)
        try first.waitForStandardError(containing: "ready:")
        try bus.waitUntil("both session popups wait in the database") {
            try bus.queryState("SELECT entry_id FROM waiting_popup ORDER BY entry_id").count == 2
        }
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.finish()

        // The next login: the daemon starts before the notification server, as a user unit may.
        let second = try CLI.start(["daemon", "--config", configuration], environment: bus.environment)
        try second.waitForStandardError(containing: "ready:")
        try bus.startServer(capabilities: ["actions", "body"])
        let calls = try bus.waitForNotifyCalls(2)
        #expect(calls.map(\.summary).sorted() == ["Hello again", "Welcome"])
        try bus.waitUntil("the deliveries took the popups off the waiting list") {
            try bus.queryState("SELECT count(*) FROM waiting_popup") == ["0"]
        }
        Thread.sleep(forTimeInterval: 0.5)
        #expect(stop(second).status == 0)
        #expect(try bus.notifyCalls().count == 2, "the second session start adds no second popup of a waiting entry")
    }

    @Test func aQueuedNewsMessageFollowsOnTimeAfterARestart() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        try bus.monitorNotifyCalls()
        let path = try CLI.temporaryFile(
            #"""
            [{"queues": [{"name": "tips", "timeout": 4}]},
             {"title": "Build news", "always": true},
             {"title": "Tip", "queue": "tips", "always": true}]
            """#,
            name: "news.json")
        let first = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        #expect(stop(first).status == 0)
        #expect(try bus.queryState("SELECT entry_id FROM waiting_popup").count == 1, "the tip waits in the database")

        let second = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        let calls = try bus.waitForNotifyCalls(4)
        // Measured between the bus's own stamps: a loaded machine delays what the test sees, not them.
        try bus.waitUntil("dbus-monitor saw the tip") { try bus.notifyStamps()["Tip"] != nil }
        let stamps = try bus.notifyStamps()
        let waited = Double(try #require(stamps["Tip"]) - (try #require(stamps["Build news"]))) / 1_000_000
        #expect(waited >= 3.5, "the tip still waits for its queue's timeout, \(waited) s after the first news")
        // The first popup taken over in place, the new cycle's own, then the tip.
        #expect(calls.map(\.summary) == ["Build news", "Build news", "Build news", "Tip"])
        #expect(calls[1].replaces == 1)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(stop(second).status == 0)
        #expect(try bus.notifyCalls().count == 4, "the second cycle's tip is not queued beside the waiting one")
    }

    @Test func quietHoursHoldEveryPopupThatIsNotCritical() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let feed = try CLI.temporaryFile(
            #"""
            {"notifications": [
              {"id": "calm", "title": "Calm"},
              {"id": "alarm", "title": "Alarm", "urgency": "critical"},
              {"id": "hello", "title": "Hello again", "events": {"session:start": "ON=1"}}
            ]}
            """#)
        // Quiet hours from two hours ago to two hours ahead, in UTC.
        let minute = Int(Date().timeIntervalSince1970 / 60) % 1440
        func clock(_ minutes: Int) -> String {
            let wrapped = (minutes + 1440) % 1440
            return String(format: "%02d:%02d", wrapped / 60, wrapped % 60)
        }
        let configuration = try CLI.temporaryFile(
            """
            quiet-hours = \(clock(minute - 120))-\(clock(minute + 120))
            [source feed]
            feed = \(feed)
            """, name: "config")
        var environment = bus.environment
        environment["TZ"] = "UTC"
        let daemon = try CLI.start(["daemon", "--config", configuration], environment: environment)
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["Alarm"])
        Thread.sleep(forTimeInterval: 1)
        #expect(stop(daemon).status == 0)
        #expect(try bus.notifyCalls().map(\.summary) == ["Alarm"], "quiet hours let only the critical popup through")
        #expect(try bus.queryState("SELECT entry_id FROM ledger") == ["alarm"])
        #expect(try bus.queryState("SELECT entry_id FROM waiting_popup") == ["hello"])
    }
}

extension DaemonWaitingPopupTests {
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

extension DaemonWaitingPopupTests {
    @Test func aRestartedDaemonShowsNoSecondINotifyMessageBesideTheOneItTookOver() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let updates = try CLI.temporaryFile(
            #"{"2026/01/01": {"Title": "Older"}, "2026/02/01": {"Title": "Newer"}}"#)
        // `debug` checks at every start, whatever the period.
        let configuration = try CLI.temporaryFile(
            """
            debug = true
            [source updates]
            feed = \(updates)
            dialect = inotify
            """, name: "config")
        let first = try CLI.start(["daemon", "--config", configuration], environment: bus.environment)
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["Newer"])
        #expect(stop(first).status == 0)

        let second = try CLI.start(["daemon", "--config", configuration], environment: bus.environment)
        try second.waitForStandardError(containing: "its last message is on screen or waiting")
        let calls = try bus.waitForNotifyCalls(2)
        #expect(calls.map(\.summary) == ["Newer", "Newer"], "the unanswered message is taken over")
        #expect(calls[1].replaces == 1)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(stop(second).status == 0)
        #expect(try bus.notifyCalls().count == 2, "iNotify shows one message at a time, across restarts too")
    }
}
