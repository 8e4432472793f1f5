import Foundation
import NotifySchedTesting
import Testing

/// `notify-sched handle ID --snooze SPAN` as a person uses it: the popup goes, and the same
/// occurrence comes back once, SPAN later rather than after the remind period, also when the
/// daemon restarts in between or when no daemon runs at the time.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct SnoozeTests: DaemonScenario {
    /// A configuration whose remind period (a day) no test waits for, and its one source;
    /// `snooze` sets the snooze buttons.
    private func configuration(snooze: String? = nil) throws -> String {
        let feed = try CLI.temporaryFile(
            #"{"notifications": [{"id": "call", "title": "Call the bank", "action": {"url": "https://example.org/"}}]}"#
        )
        let choices = snooze.map { "snooze = \($0)\n" } ?? ""
        return try CLI.temporaryFile("remind-period = 1d\n\(choices)[source bank]\nfeed = \(feed)\n", name: "config")
    }

    /// The Notify calls of the scheduled popup of occurrence `id` (not its prompt).
    private func shows(of id: String, on bus: PrivateSessionBus) throws -> [PrivateSessionBus.NotifyCall] {
        try bus.notifyCalls().filter { $0.hints["x-notify-sched-id"] == id && $0.hints["resident"] == nil }
    }

    /// A snooze button on the popup itself acts at once, as its action button does; the popup
    /// the server closed after the press is not closed a second time under no id.
    @Test func theSnoozeButtonOfThePopupActsAtOnce() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let daemon = try CLI.start(
            ["daemon", "--config", try configuration(snooze: "3s, 1h")], environment: bus.environment)
        let popup = try #require(try bus.waitForNotifyCalls(1).first)
        let id = try #require(popup.hints["x-notify-sched-id"])
        #expect(
            popup.actions.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                == ["open", "snooze-3", "snooze-3600", "default"])
        let pressed = Date()
        try bus.invokeAction("snooze-3", onPopup: 1, closing: true)
        try bus.waitUntil("the snoozed popup back") { try shows(of: id, on: bus).count == 2 }
        #expect(try !bus.closeCalls().contains(0), "CloseNotification(0) draws a stray NotificationClosed on Plasma")
        let back = Date().timeIntervalSince(pressed)
        _ = stop(daemon)
        #expect(back >= 2.9 && back < 4.5, "back \(back) s after a 3 s snooze, not the day remind-period gives")
    }

    @Test func aTestPopupIsNotSnoozedSinceNoScheduleBringsItBack() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let shown = try CLI.run(["test", "Tea is ready"], environment: bus.environment)
        let id = try #require(
            shown.standardOutput.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(try bus.waitForNotifyCalls(1).first?.actions.contains { $0.hasPrefix("snooze-") } == false)
        let outcome = try CLI.run(["handle", id, "--snooze", "10min"], environment: bus.environment)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(outcome.standardError.contains("is a test popup, which no schedule brings back"), "\(outcome)")
    }

    @Test func aSnoozeMadeWithoutADaemonSurvivesToTheNextStartAndComesBackOnTime() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let config = try configuration()
        let first = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        let id = try #require(try bus.waitForNotifyCalls(1).first?.hints["x-notify-sched-id"])
        _ = stop(first)
        let asked = Date()
        let snoozed = try CLI.run(["handle", id, "--snooze", "4s"], environment: bus.environment)
        #expect(snoozed.status == 0, "\(snoozed.standardError)")
        #expect(
            try bus.queryState("SELECT count(*) FROM reminder WHERE until_us IS NOT NULL") == ["1"],
            "the snooze is stored")
        let second = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        try bus.waitUntil("the snoozed popup back") { try shows(of: id, on: bus).count >= 2 }
        let back = Date().timeIntervalSince(asked)
        _ = stop(second)
        #expect(back >= 3.9 && back < 5.5, "back \(back) s after a 4 s snooze, across a restart")
    }

    @Test(arguments: [
        (["--snooze", "later"], #""later" is neither tomorrow nor a duration from 1s to 366d"#),
        (["--snooze", "0s"], "is neither tomorrow nor a duration from 1s to 366d"),
        (["--snooze", "10min", "--no-alert"], "--snooze is an answer of its own"),
    ])
    func aSnoozeThatIsNoDurationOrComesWithAnotherAnswerIsAUsageError(arguments: [String], message: String) throws {
        let outcome = try CLI.run(["handle", "0123456789abcdef"] + arguments)
        #expect(outcome.status == 2 && outcome.standardError.contains(message), "\(outcome.standardError)")
    }

    /// `--snooze tomorrow` without a daemon: the reminder is stored for 09:00 the next day in the
    /// user's zone (`TZ`), which `list` then shows as the entry's next occurrence.
    @Test func tomorrowMeansNineOClockTheNextDayInTheUsersZone() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let environment = bus.environment.merging(["TZ": "Pacific/Kiritimati"]) { $1 }
        let daemon = try CLI.start(["daemon", "--config", try configuration()], environment: environment)
        let id = try #require(try bus.waitForNotifyCalls(1).first?.hints["x-notify-sched-id"])
        _ = stop(daemon)
        let snoozed = try CLI.run(["handle", id, "--snooze", "tomorrow"], environment: environment)
        #expect(snoozed.status == 0, "\(snoozed.standardError)")
        let until = try #require(snoozed.standardOutput.split(separator: "\n").last { $0.hasPrefix("until: ") })
        // Kiritimati is UTC+14: 09:00 there is 19:00 UTC the day before.
        #expect(until.hasSuffix("T19:00:00Z"), "\(until)")
    }

    @Test func anINotifyMessageIsNotSnoozedSinceItsLibraryRemindsByTheSourcesPeriod() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let config = try CLI.temporaryFile(
            """
            [source updates]
            feed = \(CLI.demoFeed("demo-inotify.plist"))
            show-on-first-launch = true
            """, name: "config")
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        let id = try #require(try bus.waitForNotifyCalls(1).first?.hints["x-notify-sched-id"])
        let outcome = try CLI.run(["handle", id, "--snooze", "10min"], environment: bus.environment)
        _ = stop(daemon)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(
            outcome.standardError.contains("reminded only after its source's remind-period"), "\(outcome.standardError)"
        )
    }
}
