import Foundation
import NotifySchedTesting
import Testing

/// `notify-sched test` and `handle` on a real session bus against python3-dbusmock's
/// notification server: real libnotify, real GIO URL handlers. The same scenarios run as unit
/// tests against a recording notifier in NotifySchedCoreTests.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DesktopDeliveryTests {
    typealias CLI = CommandLineHarness

    static let withActions = ["actions", "body", "body-markup", "persistence"]

    /// The occurrence id `test` printed.
    func deliveredID(_ output: String) throws -> String {
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("delivered: ") })
        return String(line.dropFirst("delivered: ".count))
    }

    /// Runs `test ARGUMENTS --wait`, waits for its popup, lets `answer` act on popup 1, and
    /// returns what `test` printed.
    func waitingTest(
        _ arguments: [String], on bus: PrivateSessionBus, answer: (PrivateSessionBus) throws -> Void
    ) throws -> CLI.Outcome {
        let running = try CLI.start(["test"] + arguments + ["--wait"], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        try answer(bus)
        return running.finish()
    }

    @Test func aPopupCarriesTitleEscapedBodyHintsButtonsAndTheDefaultAction() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let outcome = try waitingTest(
            [
                "--title", "Release <1.2>", "--body", "Fish & chips <b>now</b>", "--action-label", "Read",
                "--action-url", "https://example.org/notes?a=1&b=2", "--urgency", "critical",
            ], on: bus
        ) { try $0.closePopup(1, reason: 2) }
        #expect(outcome.status == 0)
        #expect(outcome.standardError == "")
        let id = try deliveredID(outcome.standardOutput)
        #expect(outcome.standardOutput == "delivered: \(id)\nclosed: dismissed\n")
        #expect(
            try bus.notifyCalls() == [
                PrivateSessionBus.NotifyCall(
                    app: "notify-sched", replaces: 0, icon: "", summary: "Release <1.2>",
                    body: "Fish &amp; chips &lt;b&gt;now&lt;/b&gt;",
                    actions: ["open", "Read", "default", "Release <1.2>"],
                    hints: ["x-notify-sched-id": id, "desktop-entry": "notify-sched", "urgency": "2"], timeout: -1)
            ])
    }

    @Test func withoutATitleThePopupSaysItIsATestAndTheBodyIsPlainForAPlainServer() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        _ = try waitingTest(["--body", "a & b"], on: bus) { try $0.closePopup(1, reason: 2) }
        let calls = try bus.notifyCalls()
        #expect(calls.map(\.summary) == ["notify-sched test"])
        #expect(calls.map(\.body) == ["a & b"])
        #expect(calls.map(\.actions) == [["default", "notify-sched test"]])
    }

    @Test func withoutWaitOrADaemonTheTestPopupHasNoButtonsThatWouldDieAndSaysHowToAct() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let outcome = try CLI.run(["test", "--action-url", "https://example.org/later"], environment: bus.environment)
        #expect(outcome.status == 0)
        let id = try deliveredID(outcome.standardOutput)
        let call = try #require(try bus.notifyCalls().first)
        #expect(call.actions == [], "nothing hears a click once test exits")
        #expect(
            call.body
                == "This is a test notification from notify-sched.\n\n"
                + "To act on it, run: notify-sched handle \(id) --no-alert")
        let acted = try CLI.run(["handle", id, "--no-alert"], environment: bus.environment)
        #expect(acted.status == 0, "\(acted.standardError)")
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/later"])
    }

    @Test func aTestWithoutAnActionShowsTheBodyAsTypedAsNotifySendDoes() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let outcome = try CLI.run(["test", "Lunch", "Now & then"], environment: bus.environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let calls = try bus.notifyCalls()
        #expect(calls.map(\.summary) == ["Lunch"])
        #expect(calls.map(\.body) == ["Now & then"], "there is nothing to act on, so nothing is added")
        #expect(calls.map(\.actions) == [[]])
    }

    @Test func aClickOnThePopupOpensTheURLWithTheDesktopsHandlerBeforeTestExits() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let url = "https://example.org/notes?a=1&b=$(id);`id`|'x'"
        let outcome = try waitingTest(["--action-url", url], on: bus) { try $0.invokeAction("default", onPopup: 1) }
        let id = try deliveredID(outcome.standardOutput)
        #expect(
            outcome
                == .init(
                    status: 0, standardOutput: "delivered: \(id)\naction: default\nopened: \(url)\nmarked: viewed\n",
                    standardError: ""))
        #expect(
            try bus.waitForOpenedURLs(1) == [url], "the handler gets the URL as one argument, never through a shell")
    }

    @Test func theActionButtonOpensTheURLToo() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let outcome = try waitingTest(["--action-url", "https://example.org/a"], on: bus) {
            try $0.invokeAction("open", onPopup: 1)
        }
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasSuffix("action: open\nopened: https://example.org/a\nmarked: viewed\n"))
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/a"])
    }

    @Test func closingThePopupEndsTheWaitWithTheReasonAndOpensNothing() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let outcome = try waitingTest(["--action-url", "https://example.org/a"], on: bus) {
            try $0.closePopup(1, reason: 2)
        }
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasSuffix("\nclosed: dismissed\n"))
        #expect(bus.openedURLs() == [])
    }

    @Test func aURLNothingOpensIsAnErrorTheUserSeesAndNothingIsMarked() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let outcome = try waitingTest(["--action-url", "mailto:news@example.org"], on: bus) {
            try $0.invokeAction("default", onPopup: 1)
        }
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.hasSuffix("\naction: default\n"))
        #expect(outcome.standardError.hasPrefix("notify-sched: cannot open mailto:news@example.org: "))
        #expect(try bus.queryState("SELECT count(*) FROM handling_mark") == ["0"])
    }

    @Test func aDisallowedSchemeIsRefusedWithExit1AndNothingIsShown() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let outcome = try CLI.run(["test", "--action-url", "javascript:alert(1)"], environment: bus.environment)
        #expect(
            outcome
                == .init(
                    status: 1, standardOutput: "",
                    standardError:
                        "--action-url: the URL scheme \"javascript:\" is not allowed (allowed: http, https, mailto)\n"))
        #expect(try bus.notifyCalls() == [])
    }

    @Test func withNoServerOnTheBusTestFailsWithAClearMessage() throws {
        let bus = try PrivateSessionBus()
        let outcome = try CLI.run(["test"], environment: bus.environment)
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        #expect(outcome.standardError.hasPrefix("notify-sched: cannot show notification test-"))
        #expect(
            outcome.standardError.hasSuffix(
                ": no notification server answers on the session bus (nothing provides org.freedesktop.Notifications); "
                    + "start one, such as your desktop's, dunst or notification-daemon\n"))
    }

    @Test func aServerWithoutActionsGetsNoButtonsAndABodyThatSaysHowToAct() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["body"])
        let delivered = try CLI.run(
            ["test", "--body", "Read me", "--action-url", "https://example.org/a"], environment: bus.environment)
        let id = try deliveredID(delivered.standardOutput)
        let call = try #require(try bus.notifyCalls().first)
        #expect(call.actions == [])
        #expect(call.body == "Read me\n\nTo act on it, run: notify-sched handle \(id) --no-alert")

        let asked = try CLI.run(["handle", id], environment: bus.environment)
        #expect(
            asked
                == .init(
                    status: 1, standardOutput: "",
                    standardError:
                        "notify-sched: the notification server (mock-notify) shows no buttons, so it cannot ask; run `notify-sched handle \(id) --no-alert` to act at once\n"
                ))
        let acted = try CLI.run(["handle", id, "--no-alert"], environment: bus.environment)
        #expect(
            acted
                == .init(
                    status: 0, standardOutput: "opened: https://example.org/a\nmarked: viewed\n", standardError: ""))
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/a"])
    }

    @Test func aServerThatRestartsGetsTheWaitingPopupAgainLaidOutForItsCapabilities() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let running = try CLI.start(
            ["test", "--body", "Still here", "--action-url", "https://example.org/a", "--wait"],
            environment: bus.environment)
        #expect(
            try bus.waitForNotifyCalls(1).map(\.actions) == [["open", "More Info", "default", "notify-sched test"]])
        bus.stopServer()
        try bus.startServer(capabilities: ["body", "body-markup"])
        let again = try bus.waitForNotifyCalls(1)
        #expect(again.map(\.actions) == [[]])
        #expect(again.first?.body.hasPrefix("Still here\n\n<i>To act on it, run: notify-sched handle test-") == true)
        try bus.closePopup(1, reason: 1)
        let outcome = running.finish()
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasSuffix("\nclosed: expired\n"))
        #expect(
            outcome.standardError
                == """
                notify-sched: the notification server went away; waiting for one to show the popup again
                notify-sched: notification server now mock-notify 1.0 (test vendor; body body-markup); showing again

                """)
    }

    @Test func handlePromptsWithAnUrgentResidentPopupInTheUsersLanguageAndActsOnTheAnswer() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let id = try deliveredID(
            try CLI.run(
                ["test", "--title", "Neu", "--action-url", "https://example.org/neu"], environment: bus.environment
            )
            .standardOutput)
        var environment = bus.environment
        environment["LANG"] = "de_DE.UTF-8"
        let running = try CLI.start(["handle", id], environment: environment)
        let prompt = try #require(try bus.waitForNotifyCalls(2).last)
        #expect(prompt.summary == "Neu")
        #expect(
            prompt.actions == ["open", "Mehr info", "remind", "Mich später erinnern", "ignore", "Ignorieren"])
        #expect(
            prompt.hints == [
                "x-notify-sched-id": id, "desktop-entry": "notify-sched", "urgency": "2", "resident": "true",
            ])
        #expect(prompt.timeout == 0, "the prompt never expires")
        #expect(bus.openedURLs() == [], "nothing opens before the answer")
        try bus.invokeAction("open", onPopup: 2)
        let outcome = running.finish()
        #expect(
            outcome
                == .init(
                    status: 0, standardOutput: "action: open\nopened: https://example.org/neu\nmarked: viewed\n",
                    standardError: ""))
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/neu"])
    }

    @Test func remindAndIgnoreOnThePromptChangeTheStoredStateAndOpenNothing() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let id = try deliveredID(
            try CLI.run(["test", "--action-url", "https://example.org/x"], environment: bus.environment).standardOutput)
        for (index, key) in ["remind", "ignore"].enumerated() {
            let running = try CLI.start(["handle", id], environment: bus.environment)
            _ = try bus.waitForNotifyCalls(index + 2)
            try bus.invokeAction(key, onPopup: index + 2)
            let outcome = running.finish()
            let change = key == "remind" ? "reminded" : "ignored"
            #expect(
                outcome == .init(status: 0, standardOutput: "action: \(key)\nmarked: \(change)\n", standardError: ""))
        }
        #expect(try bus.queryState("SELECT list, entry_id FROM handling_mark") == ["ignored|\(id)"])
        #expect(try bus.queryState("SELECT count(*) FROM reminder") == ["0"], "ignoring clears the reminder")
        #expect(try bus.queryState("SELECT outcome FROM ledger WHERE occurrence_id = '\(id)'") == ["ignored"])
        #expect(bus.openedURLs() == [])
    }

    @Test func handleWithoutAlertActsAtOnceWithNoPopup() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let id = try deliveredID(
            try CLI.run(["test", "--action-url", "https://example.org/now"], environment: bus.environment)
                .standardOutput)
        let outcome = try CLI.run(["handle", id, "--no-alert"], environment: bus.environment)
        #expect(
            outcome
                == .init(
                    status: 0, standardOutput: "opened: https://example.org/now\nmarked: viewed\n", standardError: ""))
        #expect(try bus.notifyCalls().count == 1, "no prompt")
        #expect(try bus.waitForOpenedURLs(1) == ["https://example.org/now"])
    }

    @Test func handleOfAnIdNotifySchedDidNotDeliverExits3AndDoesNothing() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        _ = try CLI.run(["test", "--action-url", "https://example.org/x"], environment: bus.environment)
        for arguments in [["handle", "someone-elses-42"], ["handle", "someone-elses-42", "--no-alert"]] {
            let outcome = try CLI.run(arguments, environment: bus.environment)
            #expect(
                outcome
                    == .init(
                        status: 3, standardOutput: "",
                        standardError:
                            "notify-sched: someone-elses-42: not a notification notify-sched delivered; nothing was done\n"
                            + "`notify-sched list` shows each entry's last occurrence id; `notify-sched handle` takes it, "
                            + "or the entry's id\n"))
        }
        #expect(try bus.notifyCalls().count == 1)
        #expect(bus.openedURLs() == [])
    }

    @Test func testInWaitsBeforeDelivering() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: Self.withActions)
        let started = Date()
        let outcome = try CLI.run(["test", "--in", "300ms"], environment: bus.environment)
        #expect(outcome.status == 0)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(try bus.notifyCalls().count == 1)
    }
}
