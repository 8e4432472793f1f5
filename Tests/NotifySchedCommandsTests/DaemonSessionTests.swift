import Foundation
import Glibc
import NotifySchedTesting
import Testing

/// The daemon across restarts, beside a `handle` sharing its database, and in a session that
/// suspends, locks and changes its time zone (logind, timedated and the screen saver as
/// dbusmock templates, on a private system bus next to the private session bus).
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DaemonSessionTests: DaemonScenario {
    static let actionURL = "https://example.org/go"

    /// A feed with one entry, due at once, whose action opens `actionURL`.
    private func actionFeed() throws -> String {
        try CLI.temporaryFile(
            #"{"notifications": [{"id": "go", "title": "Go", "action": {"label": "Open", "url": "\#(Self.actionURL)"}}]}"#
        )
    }

    /// Waits until the ledger recorded `count` delivered occurrences, and returns their ids.
    private func waitForDeliveries(_ count: Int, on bus: PrivateSessionBus) throws -> [String] {
        var ids: [String] = []
        try bus.waitUntil("the ledger recorded \(count) deliveries") {
            ids = try bus.queryState("SELECT occurrence_id FROM delivered ORDER BY delivered_us")
            return ids.count >= count
        }
        return ids
    }

    @Test(arguments: [SIGTERM, SIGKILL])
    func aRestartedDaemonTakesOverItsPopupInPlaceAndItsButtonsWork(signal: Int32) throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let path = try actionFeed()
        let first = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        let shown = try #require(try bus.waitForNotifyCalls(1).first)
        let id = try #require(try waitForDeliveries(1, on: bus).first)
        kill(first.process.processIdentifier, signal)
        _ = first.finish()

        let second = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        let again = try bus.waitForNotifyCalls(2)[1]
        #expect(again.replaces == 1, "the popup is shown again under its id, replacing it in place")
        #expect(again.hints["x-notify-sched-id"] == id)
        #expect([again.summary, again.body] == [shown.summary, shown.body])
        #expect(again.actions == shown.actions)
        try bus.invokeAction("open", onPopup: 1)
        #expect(try bus.waitForOpenedURLs(1) == [Self.actionURL])
        try bus.waitUntil("the ledger recorded the click") {
            try bus.queryState("SELECT outcome, popup_id FROM ledger") == ["acted|1"]
        }
        #expect(stop(second).status == 0)
        #expect(try bus.notifyCalls().count == 2, "nothing else was shown")
    }

    /// A test popup shown without a daemon keeps its source, a name, when a daemon starts
    /// later: it is no path to move to a canonical location, and `handle` still finds it.
    @Test func aTestPopupsSourceStaysAsItIsWhenADaemonStarts() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let shown = try CLI.run(["test", "Before the daemon"], environment: bus.environment)
        #expect(shown.status == 0, "\(shown.standardError)")
        let daemon = try CLI.start(
            ["daemon", "--feed", try CLI.temporaryFile(#"{"notifications": []}"#)], environment: bus.environment)
        try daemon.waitForStandardError(containing: "ready:")
        let log = stop(daemon).standardError
        #expect(!log.contains("is kept under"), "\(log)")
        #expect(try bus.queryState("SELECT DISTINCT source FROM ledger") == ["notify-sched test"])
    }

    @Test func handleActsWhileTheDaemonHoldsTheSameDatabase() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let daemon = try CLI.start(["daemon", "--feed", try actionFeed()], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        let id = try #require(try waitForDeliveries(1, on: bus).first)
        let handled = try CLI.run(["handle", id, "--no-alert"], environment: bus.environment)
        #expect(
            handled
                == .init(status: 0, standardOutput: "opened: \(Self.actionURL)\nmarked: viewed\n", standardError: ""))
        #expect(try bus.queryState("SELECT outcome FROM ledger") == ["acted"])
        #expect(try bus.queryState("SELECT list, entry_id FROM handling_mark") == ["viewed|go"])
        let unknown = try CLI.run(["handle", "0123456789abcdef", "--no-alert"], environment: bus.environment)
        #expect(unknown.status == 3)
        #expect(daemon.process.isRunning)
        #expect(stop(daemon).status == 0)
    }

    /// logind's PrepareForSleep(false) reaches the daemon as a resume: the live twin of
    /// `EmbeddedWaitingPopupTests.aResumeRunsTheSessionResumeEventOfEverySource`.
    @Test func resumeFromSuspendReplansAndPostsSessionResume() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        try bus.startSystemBus(templates: [
            ("logind", "org.freedesktop.login1"), ("timedated", "org.freedesktop.timedate1"),
        ])
        let news = try CLI.temporaryFile(
            #"""
            [{"event": {"name": "session:resume", "pattern": "ON=1"}}, {"event": {"name": "app:didfinishlaunching"}},
             {"title": "Welcome back", "always": true}]
            """#,
            name: "news.json")
        let daemon = try CLI.start(["daemon", "--feed", news], environment: bus.environment)
        try daemon.waitForStandardError(containing: "on the system bus: watching logind (resume)")
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["Welcome back"], "the session-start cycle")
        let emit = """
            manager = dbus.Interface(system.get_object('org.freedesktop.login1', '/org/freedesktop/login1'),
                                     'org.freedesktop.DBus.Mock')
            manager.EmitSignal('org.freedesktop.login1.Manager', 'PrepareForSleep', 'b', [dbus.Boolean(%@)])
            """
        try bus.drive(emit.replacingOccurrences(of: "%@", with: "True"))
        try bus.drive(emit.replacingOccurrences(of: "%@", with: "False"))
        #expect(try bus.waitForNotifyCalls(2).map(\.summary) == ["Welcome back", "Welcome back"])
        let outcome = stop(daemon)
        #expect(outcome.standardError.contains("notify-sched: resumed from suspend; planning again"))
    }

    @Test func unlockingTheScreenPostsSessionUnlock() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        try bus.startMock("gnome_screensaver", owning: "org.gnome.ScreenSaver")
        let news = try CLI.temporaryFile(
            #"""
            [{"event": {"name": "app:activate", "pattern": "ON=1"}}, {"event": {"name": "app:didfinishlaunching"}},
             {"title": "Unlocked", "always": true}]
            """#,
            name: "news.json")
        let daemon = try CLI.start(["daemon", "--feed", news], environment: bus.environment)
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["Unlocked"], "the session-start cycle")
        let screenSaver = """
            saver = dbus.Interface(session.get_object('org.gnome.ScreenSaver', '/org/gnome/ScreenSaver'),
                                   'org.gnome.ScreenSaver')
            """
        try bus.drive(screenSaver + "\nsaver.SetActive(True)")
        try bus.drive(screenSaver + "\nsaver.SetActive(False)")
        #expect(try bus.waitForNotifyCalls(2).map(\.summary) == ["Unlocked", "Unlocked"])
        let outcome = stop(daemon)
        #expect(try bus.notifyCalls().count == 2)
        #expect(outcome.standardError.contains("no system bus"), "a missing system bus is one line, not an error")
    }

    @Test func aZoneChangeFromTimedatedMovesAFloatingEntry() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        try bus.startSystemBus(templates: [("timedated", "org.freedesktop.timedate1")])
        // Due in a few seconds on a clock 14 hours ahead of UTC: hours away in this machine's zone.
        let due = Date(timeIntervalSinceNow: 4).rounded()
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 14 * 3600)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let path = try CLI.temporaryFile(
            #"{"notifications": [{"id": "local", "title": "Local time", "fireDate": "\#(formatter.string(from: due))"}]}"#
        )
        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment, unsetting: ["TZ"])
        try daemon.waitForStandardError(containing: "on the system bus: watching timedated (zone)")
        #expect(try bus.notifyCalls().isEmpty)
        try bus.drive(
            """
            dbus.Interface(system.get_object('org.freedesktop.timedate1', '/org/freedesktop/timedate1'),
                           'org.freedesktop.timedate1').SetTimezone('Etc/GMT-14', False)
            """)
        #expect(try bus.waitForNotifyCalls(1).map(\.summary) == ["Local time"])
        #expect(Date() >= due, "the popup must not come early")
        #expect(Date().timeIntervalSince(due) < 2)
        let outcome = stop(daemon)
        #expect(outcome.standardError.contains("notify-sched: the time zone is now Etc/GMT-14; planning again"))
    }
}
