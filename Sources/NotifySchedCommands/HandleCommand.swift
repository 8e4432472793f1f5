import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedStore

/// `notify-sched handle ID`: `handleLocalNotification` for an occurrence notify-sched delivered.
struct HandleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "handle",
        abstract: "Act on a notification notify-sched delivered.",
        discussion: """
            Asks first with an urgent popup ([action, "Remind Me Later", "Ignore"], or "OK"), then acts \
            on the answer; with --no-alert it acts at once, as a click on the popup does. Prints the \
            answer (`action: KEY` or `closed: REASON`), `opened: URL` and `marked: CHANGE`. Exit status 0 \
            when handled, 1 when the prompt could not be shown or the URL not opened (nothing is marked \
            then), 3 when ID is not a notification notify-sched delivered (nothing is shown or opened). \
            When a daemon runs, it does the handling (unless --allow-scheme is given).
            """)

    @Argument(
        help: "The occurrence id, as `notify-sched test` prints it and the popup's x-notify-sched-id hint carries.")
    var id: String

    @Flag(name: .customLong("no-alert"), help: "Act at once, without asking.")
    var noAlert = false

    @OptionGroup var feedOptions: FeedOptions

    func run() throws {
        // A running daemon holds the popups and the state: it handles the id, unless this call
        // allows schemes of its own.
        if feedOptions.allowedSchemes.isEmpty,
            let results = try RunningDaemon.call("Handle", [.string(id), .boolean(!noAlert)], waits: !noAlert),
            results.count == 2, let status = results[0].string, let report = results[1].string
        {
            try Self.finish(status: status, report: report, id: id)
            return
        }
        let session = try HandlingSession(
            schemes: feedOptions.allowedSchemes, environment: ProcessInfo.processInfo.environment)
        do {
            _ = try session.store.deliveredOccurrence(id: id)
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        guard session.handler.handleLocalNotification(LocalNotification(occurrenceID: id), showAlert: !noAlert) else {
            throw CommandError(
                .notOurs,
                Messages.catalog.translated(
                    "notify-sched: {id}: not a notification notify-sched delivered; nothing was done", ["id": id]))
        }
        session.waitForOutcome()
        try session.finish()
    }

    /// Prints what the daemon reported and leaves with the status it stands for.
    static func finish(status: String, report: String, id: String) throws(CommandError) {
        let lines = report.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        switch status {
        case "unknown":
            throw CommandError(
                .notOurs, "notify-sched: \(id): not a notification notify-sched delivered; nothing was done")
        case "failed":
            for line in lines.dropLast() { Output.standardOutput.write(line) }
            throw CommandError(.failure, "notify-sched: \(lines.last ?? "handling failed")")
        default:
            for line in lines { Output.standardOutput.write(line) }
        }
    }
}
