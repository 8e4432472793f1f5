import Foundation
import NotifySchedTesting
import Testing

/// What a popup carries besides its text, as the server receives it: a feed entry's `timeout`,
/// `sound`, `image` and markup body through a running daemon, and `test` as notify-send is typed.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct PopupContentTests: DaemonScenario {
    @Test func aFeedEntrysTimeoutSoundImageAndMarkupReachTheServerAsItCanShowThem() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body", "body-markup", "sound"])
        let feed = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "rich", "title": "Rich", "body": "<b>Ship</b> <span>it</span>", "markup": true,
               "timeout": "8s", "sound": "message-new-instant", "image": "/usr/share/pixmaps/debian-logo.png"},
              {"id": "plain", "title": "Plain", "body": "<b>as text</b>", "timeout": 0}
            ]}
            """)
        let daemon = try CLI.start(["daemon", "--feed", feed], environment: bus.environment)
        let calls = try bus.waitForNotifyCalls(2)
        _ = stop(daemon)
        let rich = try #require(calls.first { $0.summary == "Rich" })
        #expect(rich.body == "<b>Ship</b> it" && rich.timeout == 8000, "\(rich)")
        #expect(rich.hints["sound-name"] == "message-new-instant")
        #expect(rich.hints["image-path"] == "/usr/share/pixmaps/debian-logo.png")
        let plain = try #require(calls.first { $0.summary == "Plain" })
        #expect(plain.body == "&lt;b&gt;as text&lt;/b&gt;" && plain.timeout == 0, "\(plain)")
        #expect(plain.hints["sound-name"] == nil && plain.hints["image-path"] == nil)
    }

    @Test func aServerThatPlaysNoSoundsGetsNoSoundAndOneWithoutMarkupTheText() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let outcome = try CLI.run(
            ["test", "Rich", "<i>in</i> <b>text</b>", "--markup", "-h", "string:sound-name:bell"],
            environment: bus.environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let call = try #require(try bus.notifyCalls().first)
        #expect(call.body.hasPrefix("in text"), "\(call.body)")
        #expect(call.hints["sound-name"] == nil)
    }

    /// `notify-send SUMMARY BODY -u critical -t 1500 -i ICON -h string:sound-name:bell
    /// -h string:image-path:PATH` typed with `notify-sched test` instead: the same popup, with
    /// or without a daemon to show it.
    @Test(arguments: [false, true])
    func testTakesNotifySendsArgumentsWithTheirMeanings(throughDaemon: Bool) throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body", "body-markup", "sound"])
        let daemon =
            throughDaemon
            ? try CLI.start(
                ["daemon", "--feed", try CLI.temporaryFile(#"{"notifications": []}"#)], environment: bus.environment)
            : nil
        if let daemon { try daemon.waitForStandardError(containing: "ready:") }
        let outcome = try CLI.run(
            [
                "test", "Build done", "All green", "-u", "critical", "-t", "1500", "-i", "dialog-information",
                "-h", "string:sound-name:bell", "-h", "string:image-path:/usr/share/pixmaps/debian-logo.png",
            ], environment: bus.environment)
        #expect(outcome.status == 0 && outcome.standardOutput.hasPrefix("delivered: "), "\(outcome)")
        let call = try #require(try bus.waitForNotifyCalls(1).first)
        if let daemon { _ = stop(daemon) }
        #expect(call.summary == "Build done" && call.body.hasPrefix("All green"), "\(call)")
        #expect(call.icon == "dialog-information" && call.timeout == 1500 && call.hints["urgency"] == "2", "\(call)")
        #expect(call.hints["sound-name"] == "bell")
        #expect(call.hints["image-path"] == "/usr/share/pixmaps/debian-logo.png")
    }

    @Test(arguments: [
        (
            ["--timeout", "5s"],
            "--timeout is how long other commands wait for a portal; for how long the popup stays, use -t/--expire-time"
        ),
        (["-a", "mail"], "-a/--app-name: popups always come from notify-sched"),
        (["-A", "yes=Yes"], "-A/--action: a notify-sched popup has one action, which opens a URL"),
        (["-h", "int:volume:3"], #"--hint "int:volume:3": give string:sound-name:NAME or string:image-path:PATH"#),
        (["-h", "string:image-path:https://example.org/a.png"], "the image must be an absolute path or a file:// URI"),
        (["-t", "soon"], "-t"),
        (["--title", "A", "B"], "give the title once"),
    ])
    func notifySendOptionsThatMeanSomethingElseSaySoAndExit2(arguments: [String], message: String) throws {
        let outcome = try CLI.run(["test"] + arguments)
        #expect(outcome.status == 2 && outcome.standardError.contains(message), "\(outcome.standardError)")
    }
}
