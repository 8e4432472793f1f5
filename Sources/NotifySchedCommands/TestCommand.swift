import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched test`: a popup through the same path as a scheduled one.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Show a test popup the way a scheduled notification is shown.",
        discussion: """
            Prints `delivered: ID`; `notify-sched handle ID` acts on it later. With --wait it stays \
            until the popup is clicked or closed and prints `action: KEY` or `closed: REASON`; a click \
            on the popup or its action button opens the action URL before it exits. A running daemon \
            shows the popup and hears its buttons after the command exits; without a daemon and \
            without --wait nothing would, so the popup has no buttons and says to run \
            `notify-sched handle ID --no-alert` instead. Exit status 1 when \
            the URL's scheme is not allowed, no notification server answers, or the URL cannot be opened.
            """)

    @Option(help: "The popup's title (default: a title that says it is a test).")
    var title: String?

    @Option(help: "The popup's body, plain text.")
    var body: String?

    @Option(name: .customLong("action-label"), help: "The action button's label (default: \"More Info\", translated).")
    var actionLabel: String?

    @Option(name: .customLong("action-url"), help: "The URL the action button and a click on the popup open.")
    var actionURL: String?

    @Option(help: "low, normal or critical.")
    var urgency: Urgency = .normal

    @Option(
        name: .customLong("in"), help: ArgumentHelp("Show it after this long (90s, 5min, 1h).", valueName: "duration"))
    var delay: String?

    @Flag(help: "Stay until the popup is acted on or closed, and print what happened.")
    var wait = false

    @OptionGroup var feedOptions: FeedOptions

    func validate() throws {
        if let delay, TimeSpan.parse(delay) == nil {
            throw ValidationError("--in: \"\(delay)\" is not a duration (such as 90s, 5min, 1h)")
        }
        if actionLabel != nil, actionURL == nil {
            throw ValidationError("--action-label needs --action-url")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        var action: NotificationAction?
        if let actionURL {
            do {
                action = NotificationAction(
                    label: actionLabel,
                    url: try ActionURL(actionURL, policy: URLPolicy(extraSchemes: feedOptions.allowedSchemes)))
            } catch {
                throw CommandError(.failure, "--action-url: \(error.message)")
            }
        }
        let content = NotificationContent(
            title: title ?? Messages.catalog.translated("notify-sched test"),
            body: body
                ?? (title == nil ? Messages.catalog.translated("This is a test notification from notify-sched.") : ""),
            urgency: urgency, action: action)
        if feedOptions.allowedSchemes.isEmpty, try testThroughDaemon(content) { return }
        let session = try HandlingSession(schemes: feedOptions.allowedSchemes, environment: environment)
        let id = "test-" + String(format: "%08x", UInt32.random(in: .min ... .max))
        var failure: CommandError?
        let deliver = {
            let occurrence = DeliveredOccurrence(
                id: id, source: "notify-sched test", entryID: id, dialect: .native, content: content,
                deliveredAt: WallClock.now())
            do {
                // Without --wait nothing hears a click once this command exits.
                try session.handler.deliver(occurrence, answerable: wait)
                // Recorded for `handle ID`; no server instance, so no daemon ever shows it again.
                try session.store.recordDelivery(
                    LedgerRecord(
                        occurrenceID: id, source: occurrence.source, entryID: id, occurrence: occurrence.deliveredAt,
                        popupID: session.notifier.popupIDs[.scheduled(id)], outcome: .delivered,
                        recordedAt: occurrence.deliveredAt),
                    of: occurrence, server: nil)
                Output.standardOutput.write("delivered: \(id)")
                if wait, let server = try? session.notifier.currentServer(), !server.showsButtons {
                    Output.standardError.write(
                        Messages.catalog.translated(
                            "notify-sched: the notification server ({server}) shows no buttons; waiting for the popup "
                                + "to close (or run: {command})",
                            ["server": server.name, "command": "notify-sched handle \(id) --no-alert"]))
                }
            } catch let error as CoreError {
                failure = CommandError(.failure, "notify-sched: \(error.message)")
            } catch let error as StoreError {
                failure = CommandError(.failure, "notify-sched: \(error.message)")
            } catch {
                failure = CommandError(.failure, "notify-sched: \(error)")
            }
        }
        if let delay = delay.flatMap(TimeSpan.parse) {
            session.notifier.after(delay) {
                deliver()
                if failure != nil || !wait { session.notifier.stop() }
            }
            session.notifier.run()
        } else {
            deliver()
        }
        if let failure { throw failure }
        if wait {
            session.waitForOutcome()
            try session.finish()
        }
    }

    /// Has the running daemon show the popup, so that its buttons keep working after this
    /// command exits; false when no daemon runs. The title, body and button label are sent as
    /// this command made them, in the caller's language.
    private func testThroughDaemon(_ content: NotificationContent) throws(CommandError) -> Bool {
        let delaySeconds = delay.flatMap(TimeSpan.parse).map { UInt32(clamping: $0.microseconds / 1_000_000) } ?? 0
        let label = content.action.map { HandlingPolicy(catalog: Messages.catalog).actionLabel(of: $0) } ?? ""
        let arguments: [BusValue] = [
            .string(content.title), .string(content.body), .string(label), .string(actionURL ?? ""),
            .string(urgency.rawValue), .unsigned(delaySeconds), .boolean(wait),
        ]
        guard let results = try RunningDaemon.call("Test", arguments, waits: wait || delaySeconds > 0) else {
            return false
        }
        guard results.count == 3, let id = results[0].string, let status = results[1].string,
            let report = results[2].string
        else {
            throw CommandError(.failure, "notify-sched: the daemon's answer to Test is malformed")
        }
        if !id.isEmpty { Output.standardOutput.write("delivered: \(id)") }
        if status == "failed", id.isEmpty { throw CommandError(.failure, "notify-sched: \(report)") }
        try HandleCommand.finish(status: status, report: report, id: id)
        return true
    }
}

extension Urgency: ExpressibleByArgument {}
