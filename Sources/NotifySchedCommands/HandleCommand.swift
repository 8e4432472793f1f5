import ArgumentParser
import Foundation
import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform
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
            then), 3 when ID names no notification notify-sched delivered, or an entry of several sources \
            (nothing is shown or opened). When a daemon runs, it does the handling (unless --allow-scheme \
            is given); a prompt it shows stays until answered, also when the daemon restarts. With --check \
            it only says whether it could handle ID (ZBiM's canHandleLocalNotification): it prints \
            `can handle: OCCURRENCE-ID` and exits 0, or exits 3, and shows, opens and marks nothing. \
            With --snooze SPAN (or tomorrow, for 09:00 the next day) it answers "Remind Me Later" at \
            once for that long (a native or ZBiM entry): the occurrence comes back once, then, across \
            restarts, and it prints `marked: reminded` and `until: TIME`.
            """)

    @Argument(
        help: ArgumentHelp(
            "An occurrence id, as `list`, `status` and `test` print it and the popup's x-notify-sched-id hint "
                + "carries; or an entry id, for the entry's latest delivered occurrence.",
            valueName: "id"))
    var id: String

    @Flag(name: .customLong("no-alert"), help: "Act at once, without asking.")
    var noAlert = false

    @Flag(
        name: .customLong("check"),
        help: "Only say whether ID is a notification notify-sched can handle; do nothing with it.")
    var check = false

    @Option(
        help: ArgumentHelp(
            "Remind me of it again after this long (10min, 1h, 2d), or tomorrow (at 09:00), instead of after the "
                + "remind period, without asking.",
            valueName: "span"))
    var snooze: String?

    @OptionGroup var feedOptions: FeedOptions

    func validate() throws {
        if check, noAlert { throw ValidationError("--check does nothing, so it takes no --no-alert") }
        if snooze != nil, check || noAlert {
            throw ValidationError("--snooze is an answer of its own: give it without --check and --no-alert")
        }
        if let snooze {
            do { _ = try ControlCall.snooze(snooze) } catch { throw ValidationError("--snooze: \(error.message)") }
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let occurrenceID = try Self.occurrenceID(named: id, environment: environment)
        if check {
            Output.standardOutput.write("can handle: \(occurrenceID)")
            return
        }
        // `validate()` read it already.
        let asked = snooze.flatMap { try? ControlCall.snooze($0) }
        // A running daemon holds the popups and the state: it handles the id, unless this call
        // allows schemes of its own.
        let call: ControlCall =
            if let asked {
                .snooze(occurrenceID: occurrenceID, asked)
            } else {
                .handle(occurrenceID: occurrenceID, showAlert: !noAlert)
            }
        if feedOptions.allowedSchemes.isEmpty,
            case .handled(let status, let report) = try RunningDaemon.call(call, waits: asked == nil && !noAlert)
        {
            try Self.finish(status: status, report: report, id: id)
            return
        }
        let session = try HandlingSession(schemes: feedOptions.allowedSchemes, environment: environment)
        let server = asked == nil && !noAlert ? try? session.notifier.currentServer() : nil
        let handled = session.handle(occurrenceID) { occurrence in
            if let asked {
                .snoozeRequested(occurrence, asked)
            } else {
                .handleRequested(occurrence, showAlert: !noAlert, server: server)
            }
        }
        guard handled else {
            throw CommandError(.notOurs, OccurrenceLookup.notFound.problem(with: id, catalog: Messages.catalog) ?? id)
        }
        session.waitForOutcome()
        try session.finish()
    }

    /// The occurrence `name` names in the state database: an occurrence id, or an entry id for
    /// the entry's latest delivered occurrence.
    ///
    /// - Throws: `CommandError` with `.notOurs` when it names none or an entry of several
    ///   sources, `.failure` when the state database cannot be read.
    static func occurrenceID(named name: String, environment: [String: String]) throws(CommandError) -> String {
        let lookup: OccurrenceLookup
        do {
            let store = try StateStore(path: UserDirectories(environment: environment).stateDatabase)
            lookup = OccurrenceLookup(name, candidates: try store.occurrences(named: name))
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        guard case .found(let occurrenceID) = lookup else {
            throw CommandError(.notOurs, lookup.problem(with: name, catalog: Messages.catalog) ?? name)
        }
        return occurrenceID
    }

    /// Prints what the daemon reported and leaves with the status it stands for.
    static func finish(status: String, report: String, id: String) throws(CommandError) {
        let lines = report.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        switch status {
        case "unknown":
            throw CommandError(
                .notOurs, report.isEmpty ? "notify-sched: \(id): not a notification notify-sched delivered" : report)
        case "failed":
            for line in lines.dropLast() { Output.standardOutput.write(line) }
            throw CommandError(.failure, "notify-sched: \(lines.last ?? "handling failed")")
        default:
            for line in lines { Output.standardOutput.write(line) }
        }
    }
}
