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
            on the popup or its action button opens the action URL before it exits. Exit status 1 when \
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
            title: title ?? "notify-sched test",
            body: body ?? (title == nil ? "This is a test notification from notify-sched." : ""),
            urgency: urgency, action: action)
        let session = try HandlingSession(schemes: feedOptions.allowedSchemes, environment: environment)
        let id = "test-" + String(format: "%08x", UInt32.random(in: .min ... .max))
        var failure: CommandError?
        let deliver = {
            let occurrence = DeliveredOccurrence(
                id: id, source: "notify-sched test", entryID: id, dialect: .native, content: content,
                deliveredAt: WallClock.now())
            do {
                try session.handler.deliver(occurrence)
                // Recorded for `handle ID`; no server instance, so no daemon ever shows it again.
                try session.store.recordDelivery(
                    LedgerRecord(
                        occurrenceID: id, source: occurrence.source, entryID: id, occurrence: occurrence.deliveredAt,
                        popupID: session.notifier.popupIDs[id], outcome: .delivered,
                        recordedAt: occurrence.deliveredAt),
                    of: occurrence, server: nil)
                Output.standardOutput.write("delivered: \(id)")
                if wait, let server = try? session.notifier.currentServer(), !server.showsButtons {
                    Output.standardError.write(
                        "notify-sched: the notification server (\(server.name)) shows no buttons; waiting for the popup "
                            + "to close (or run: notify-sched handle \(id) --no-alert)")
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
}

extension Urgency: ExpressibleByArgument {}
