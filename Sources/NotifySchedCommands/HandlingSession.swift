import Foundation
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform
import NotifySchedStore

/// What `test` and `handle` share: the desktop, a handler over the state database, and the
/// lines they print about what happened.
///
/// The database is the daemon's: a running daemon may write it at the same time (SQLite's WAL
/// and busy timeout keep the two apart), and an answer is stored as a change to the stored
/// state, so neither process undoes the other's.
final class HandlingSession {
    let notifier = DesktopNotifier()
    let store: StateStore
    let handler: NotificationHandler
    /// Set by the first outcome; the main loop stops then.
    private(set) var outcome: HandlingOutcome?

    /// - Throws: `CommandError` when the state database cannot be opened.
    init(schemes: [String], environment: [String: String]) throws(CommandError) {
        do {
            store = try StateStore(path: UserDirectories(environment: environment).stateDatabase)
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        let policy = HandlingPolicy(
            labels: ButtonLabels(language: .fromEnvironment(environment)),
            urlPolicy: URLPolicy(extraSchemes: schemes))
        let store = self.store
        // `handle` looks the id up itself first, so a database that cannot be read is reported
        // as such rather than as an id that is not notify-sched's.
        handler = NotificationHandler(
            policy: policy, notifier: notifier, lookup: { try? store.deliveredOccurrence(id: $0) }, now: WallClock.now)
        handler.onOutcome = { [unowned self] outcome in
            if self.outcome == nil { self.outcome = outcome }
            self.notifier.stop()
        }
        notifier.onServerChange = { server in
            if let server {
                Output.standardError.write("notify-sched: notification server now \(server.summary); showing again")
            } else {
                Output.standardError.write(
                    "notify-sched: the notification server went away; waiting for one to show the popup again")
            }
        }
    }

    /// Runs the main loop until the first outcome, unless there is one already.
    func waitForOutcome() {
        if outcome == nil { notifier.run() }
    }

    /// Prints the outcome, stores the state it changed and the occurrence's ledger outcome, and
    /// fails when handling failed.
    func finish() throws(CommandError) {
        guard let outcome else { return }
        if let response = outcome.response { Output.standardOutput.write(response.description) }
        if let url = outcome.opened { Output.standardOutput.write("opened: \(url)") }
        if let change = outcome.change { Output.standardOutput.write("marked: \(change.rawValue)") }
        do {
            try store.recordHandling(outcome, at: WallClock.now())
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        if let failure = outcome.failure { throw CommandError(.failure, "notify-sched: \(failure.message)") }
    }
}
