import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

/// `notify-sched daemon` as a process on a private session bus with dbusmock's notification
/// server: real libnotify, a real timerfd, a real SQLite ledger.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DaemonTests: DaemonScenario {
    /// The trial that found repeating, calendar and zero-lateness entries never shown: one entry
    /// of each timed kind due within seconds, beside an expired one and one for a newer
    /// application version. Exactly the due ones arrive, none early, the recurring ones again.
    @Test func everyTimedKindDueWithinSecondsArrivesOnTimeAndNothingElse() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let due = Date(timeIntervalSinceNow: 3).rounded()
        let stamp = ISO8601DateFormatter().string(from: due)
        let feed = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "calendar", "title": "Calendar", "calendar": "*:*:0/2"},
              {"id": "minutely", "title": "Minutely", "fireDate": "\(stamp)", "repeatInterval": "minute"},
              {"id": "prompt", "title": "No lateness", "fireDate": "\(stamp)", "maxLateness": "0s"},
              {"id": "once", "title": "Once", "fireDate": "\(stamp)"},
              {"id": "expired", "title": "Expired", "expires": "2020-01-01T00:00:00Z"},
              {"id": "newer", "title": "Newer version", "fireDate": "\(stamp)", "minVersion": "3.0"}
            ]}
            """)
        let config = try CLI.temporaryFile(
            "application-version = 2.0\n[source trial]\nfeed = \(feed)\n", name: "config")
        let started = Date()
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        // The due ones arrive; then two more of the calendar entry's, 4 s, for anything that
        // should not come.
        var calendarBefore = 0
        try bus.waitUntil("the entries due arrived") {
            let titles = try bus.notifyCalls().map(\.summary)
            calendarBefore = titles.filter { $0 == "Calendar" }.count
            return ["Minutely", "No lateness", "Once"].allSatisfy(titles.contains)
        }
        try bus.waitUntil("the calendar entry arrived twice more") {
            try bus.notifyCalls().filter { $0.summary == "Calendar" }.count >= calendarBefore + 2
        }
        let stopped = Date()
        let log = stop(daemon).standardError
        let calls = try bus.notifyCalls().filter { $0.replaces == 0 }
        let titles = calls.map(\.summary)
        for title in ["Minutely", "No lateness", "Once"] {
            #expect(titles.filter { $0 == title }.count == 1, "\(title) arrives once: \(titles)\n\(log)")
        }
        // Nobody answers: each occurrence shows in place of the one before.
        let calendar = try bus.notifyCalls().filter { $0.summary == "Calendar" }.count
        #expect(
            calendar >= Int(stopped.timeIntervalSince(started) / 2) - 1,
            "the calendar entry due every 2 s arrives each time: \(calendar) in \(titles)\n\(log)")
        #expect(!titles.contains("Expired") && !titles.contains("Newer version"), "\(titles)")
        #expect(
            try bus.queryState("SELECT count(*) FROM ledger WHERE outcome = 'missed'") == ["0"],
            "nothing due while the daemon watched is recorded missed")
    }

    /// A source is its canonical location: the daemon run once with a relative `--feed` path
    /// and once through a configuration that names the feed by a symlink follows one source,
    /// and delivers a one-shot entry once.
    @Test func oneFeedNamedByARelativePathOrASymlinkIsOneSource() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let feed = try CLI.temporaryFile(#"{"notifications": [{"id": "welcome", "title": "Welcome"}]}"#)
        let folder = URL(fileURLWithPath: feed).deletingLastPathComponent()
        let first = try CLI.start(
            ["daemon", "--feed", URL(fileURLWithPath: feed).lastPathComponent], environment: bus.environment,
            in: folder)
        _ = try bus.waitForNotifyCalls(1)
        #expect(stop(first).status == 0)
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path)
        let config = try CLI.temporaryFile(
            "[source team]\nfeed = \(link)/\(URL(fileURLWithPath: feed).lastPathComponent)\n", name: "config")
        let again = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        // What is due shows before the daemon says it is ready.
        try again.waitForStandardError(containing: "ready:")
        let log = stop(again).standardError
        #expect(
            try bus.notifyCalls().filter { $0.replaces == 0 }.count == 1, "welcome is delivered once\n\(log)")
        #expect(try bus.queryState("SELECT DISTINCT source FROM ledger") == [SourceLocation.canonical(feed)])
    }

    @Test func aSecondDaemonSaysOneIsRunningAndExits1() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (path, _) = try feed(dueIn: 3600)
        let first = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let second = try CLI.run(["daemon", "--feed", path], environment: bus.environment)
        #expect(second.status == 1)
        #expect(second.standardError.contains("another notify-sched daemon is already running"))
        #expect(stop(first).status == 0)
    }

    @Test func aClickOnAScheduledPopupOpensItsActionAndHandleKnowsIt() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let path = try CLI.temporaryFile(
            #"{"notifications": [{"id": "go", "title": "Go", "action": {"label": "Open", "url": "https://example.org/go"}}]}"#
        )
        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        let call = try #require(try bus.waitForNotifyCalls(1).first)
        try bus.invokeAction("open", onPopup: 1)
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/go"])
        #expect(stop(daemon).status == 0)
        let id = try #require(call.hints["x-notify-sched-id"])
        let handled = try CLI.run(["handle", id, "--no-alert"], environment: bus.environment)
        #expect(handled.status == 0, "\(handled.standardError)")
    }
}

extension DaemonTests {
    @Test func killMinus9DuringARunLosesNothingAndDuplicatesAtMostOnce() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let start = Date(timeIntervalSinceNow: 2).rounded()
        let formatter = ISO8601DateFormatter()
        let entries = (0..<6).map { index in
            #"{"id": "e\#(index)", "title": "Entry \#(index)", "fireDate": "\#(formatter.string(from: start + Double(index)))"}"#
        }
        let path = try CLI.temporaryFile(#"{"notifications": [\#(entries.joined(separator: ", "))]}"#)
        let first = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        // Killed in the middle of the run: once the third popup is out.
        _ = try bus.waitForNotifyCalls(3)
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.finish()
        let second = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        try bus.waitUntil("the ledger records all six") { try bus.queryState("SELECT count(*) FROM ledger") == ["6"] }
        #expect(stop(second).status == 0)
        // Popups taken over in place (replaces_id set) are not new ones.
        let titles = try bus.notifyCalls().filter { $0.replaces == 0 }.map(\.summary)
        for index in 0..<6 {
            #expect(titles.contains("Entry \(index)"), "Entry \(index) was lost")
        }
        #expect(titles.count <= 7, "at most one duplicate per crash: \(titles)")
        #expect(try bus.queryState("PRAGMA integrity_check") == ["ok"])
        #expect(try bus.queryState("SELECT count(*) FROM ledger") == ["6"])
    }

    @Test func twentyDaemonsStartedAtOnceLeaveExactlyOne() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let (path, _) = try feed(dueIn: 3600)
        let daemons = try (0..<20).map { _ in try CLI.start(["daemon", "--feed", path], environment: bus.environment) }
        _ = try bus.waitForNotifyCalls(1)
        try bus.waitUntil("the nineteen others exited") { daemons.filter(\.process.isRunning).count <= 1 }
        let running = daemons.filter(\.process.isRunning)
        #expect(running.count == 1, "exactly one daemon may own the bus name")
        for daemon in daemons where !daemon.process.isRunning {
            let outcome = daemon.finish()
            #expect(outcome.status == 1)
            #expect(outcome.standardError.contains("another notify-sched daemon is already running"))
        }
        for daemon in running { #expect(stop(daemon).status == 0) }
        #expect(try bus.notifyCalls().count == 1, "the losers must not have shown anything")
    }

    @Test func postedEventsDriveISmartNewsPatterns() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let path = try CLI.temporaryFile(
            #"""
            [{"event": {"name": "build:done", "pattern": "OFF=1|ON=1"}}, {"event": {"name": "app:didfinishlaunching"}},
             {"title": "Build news", "always": true}]
            """#,
            name: "news.json")
        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        // Ready once the feed is in force and the session start has run.
        try daemon.waitForStandardError(containing: "notify-sched: ready:")
        #expect(
            try CLI.run(["event", "build:done"], environment: bus.environment).standardOutput == "build:done: 0 shown\n"
        )
        #expect(
            try CLI.run(["event", "Build:Done"], environment: bus.environment).standardOutput == "Build:Done: 1 shown\n"
        )
        // Once at the launch (its global event, ON=1 without a pattern) and once for the second
        // build:done, in place of the first: one popup per message.
        #expect(try bus.notifyCalls().map(\.summary) == ["Build news", "Build news"])
        #expect(try bus.notifyCalls().map(\.replaces) == [0, 1])
        #expect(stop(daemon).status == 0)
        let none = try CLI.run(["event", "build:done"], environment: bus.environment)
        #expect(none.status == 1)
        #expect(none.standardError.hasPrefix("notify-sched: no notify-sched daemon is running"))
    }

    @Test func aQueuedNewsMessageFollowsAfterItsQueuesTimeout() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let path = try CLI.temporaryFile(
            #"""
            [{"queues": [{"name": "tips", "timeout": 2}]},
             {"event": {"name": "build:done", "pattern": "ON=1"}}, {"event": {"name": "session:start"}},
             {"title": "Build news", "always": true},
             {"title": "Tip", "queue": "tips", "always": true}]
            """#,
            name: "news.json")
        // The session start runs a cycle: its global event is on.
        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let first = Date()
        #expect(try bus.notifyCalls().map(\.summary) == ["Build news"])
        #expect(try bus.waitForNotifyCalls(2).map(\.summary) == ["Build news", "Tip"])
        #expect(Date().timeIntervalSince(first) >= 1.5, "the queued message must wait for its queue's timeout")
        let posted = try CLI.run(["event", "build:done"], environment: bus.environment)
        #expect(posted.standardOutput == "build:done: 1 shown, 1 to follow\n")
        #expect(try bus.waitForNotifyCalls(4).map(\.summary) == ["Build news", "Tip", "Build news", "Tip"])
        #expect(stop(daemon).status == 0)
    }

    @Test func eventsOfANativeEntryShowItOnThePatternsOnSteps() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let path = try CLI.temporaryFile(
            #"""
            {"notifications": [
              {"id": "welcome", "title": "Welcome back", "events": {"session:start": "ON=1|OFF=1"}},
              {"id": "build", "title": "Build finished", "events": {"build:done": "OFF=1|ON=1"}}
            ]}
            """#)
        let first = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let posted = try (0..<4).map { _ in
            try CLI.run(["event", "build:done"], environment: bus.environment).standardOutput
        }
        #expect(
            posted == [
                "build:done: 0 shown\n", "build:done: 1 shown\n", "build:done: 0 shown\n", "build:done: 1 shown\n",
            ])
        #expect(stop(first).status == 0)
        // The second on step shows the entry in place of its first popup, still unanswered. The
        // second session start is an off step: the progress outlived the daemon. The new daemon
        // takes over the two popups still on screen in place, after its session start; those are
        // not new popups.
        let second = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(5)
        #expect(stop(second).status == 0)
        let calls = try bus.notifyCalls()
        #expect(calls.filter { $0.replaces == 0 }.map(\.summary) == ["Welcome back", "Build finished"], "\(calls)")
        #expect(calls[2].summary == "Build finished" && calls[2].replaces == 2, "\(calls)")
    }

    @Test func popupsWaitForANotificationServerAndGoOutWhenOneAppears() throws {
        let bus = try PrivateSessionBus()
        let (path, _) = try feed(dueIn: 3600)
        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        try daemon.waitForStandardError(containing: "no notification server answers on the session bus")
        let asked = Date()
        try bus.startServer(capabilities: ["actions", "body"])
        let calls = try bus.waitForNotifyCalls(1)
        #expect(calls.map(\.summary) == ["Right away"])
        #expect(
            Date().timeIntervalSince(asked) < 5,
            "a waiting popup must go out when the server appears, not at the next retry")
        #expect(stop(daemon).status == 0)
    }

    @Test func aPortalFeedIsFetchedOverHTTPAndItsEntriesDelivered() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let portal = try PortalTestServer()
        defer { portal.stop() }
        try portal.write("team.json", #"{"notifications": [{"id": "hello", "title": "From the portal"}]}"#)
        let daemon = try CLI.start(["daemon", "--feed", portal.feedURL("team.json")], environment: bus.environment)
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["From the portal"])
        #expect(stop(daemon).status == 0)
        #expect(portal.requests().first?.header("User-Agent")?.hasPrefix("notify-sched/") == true)
    }

    @Test func aCachedCopyThatCrashedTheLastStartIsSetAsideUntilAFreshOneArrives() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let portal = try PortalTestServer()
        defer { portal.stop() }
        let url = portal.feedURL("team.json")
        try portal.write("team.json", #"{"notifications": [{"id": "old", "title": "From the cached copy"}]}"#)
        let first = try CLI.start(["daemon", "--feed", url], environment: bus.environment)
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["From the cached copy"])
        #expect(stop(first).status == 0)
        let folder = bus.environment["HOME"]! + "/.cache/notify-sched/feeds"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.count == 1, "a start that went through leaves its copy in place, set aside no more: \(files)")
        // The start that read the copy ended before it went through, as a crash does.
        let copy = try #require(files.first)
        #expect(FileManager.default.createFile(atPath: folder + "/" + copy + ".set-aside", contents: Data()))

        try portal.write("team.json", #"{"notifications": [{"id": "new", "title": "Fetched afresh"}]}"#, age: 600)
        let second = try CLI.start(["daemon", "--feed", url], environment: bus.environment)
        #expect(try bus.waitForNotifyCalls(2).map(\.summary) == ["From the cached copy", "Fetched afresh"])
        let outcome = stop(second)
        #expect(outcome.standardError.contains("the copy is set aside until a fresh one arrives"))
        let request = try #require(portal.requests().last)
        #expect(
            request.header("If-None-Match") == nil && request.header("If-Modified-Since") == nil,
            "the whole feed is asked for again")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [copy], "the fresh copy ends it")
    }

    @Test func anINotifyPortalWithNothingCachedIsCheckedOnceItsFeedArrives() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let portal = try PortalTestServer()
        defer { portal.stop() }
        try portal.write("updates.plist", Self.updatesPlist)
        let configuration = try CLI.temporaryFile(
            """
            [source updates]
            feed = \(portal.feedURL("updates.plist"))
            dialect = inotify
            show-on-first-launch = true
            """, name: "config")
        let daemon = try CLI.start(["daemon", "--config", configuration], environment: bus.environment)
        // Start-up does not wait for the network: the daemon is ready before the portal answered.
        try daemon.waitForStandardError(containing: "no usable copy in the cache; fetching it")
        #expect(
            try bus.waitForNotifyCalls(1).map(\.summary) == ["Update"], "the session start's check follows the feed")
        #expect(stop(daemon).status == 0)
    }

    /// An iNotify feed with one message, as an XML plist.
    static let updatesPlist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        <key>2026/01/01</key><dict><key>Title</key><string>Update</string><key>Message</key><string>A new version</string></dict>
        </dict></plist>
        """
}

extension Date {
    /// This date rounded up to the next whole second.
    func rounded() -> Date {
        Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.up))
    }
}
