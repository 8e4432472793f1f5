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
    /// The main loop the popups' answers come from.
    let loop = MainLoop()
    let notifier: DesktopNotifier
    let store: StateStore
    let handler: NotificationHandler
    /// Set by the first outcome; the main loop stops then.
    private(set) var outcome: HandlingOutcome?

    /// - Throws: `CommandError` when the state database cannot be opened.
    init(schemes: [String], environment: [String: String]) throws(CommandError) {
        notifier = DesktopNotifier(bus: SessionBus(), loop: loop)
        do {
            store = try StateStore(path: UserDirectories(environment: environment).stateDatabase)
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        notifier.catalog = Messages.catalog
        // The sources' own button labels; a configuration with errors has printed them and
        // leaves the translated labels.
        let configuration = try? UserConfiguration.load(nil, environment: environment)
        let policy = HandlingPolicy(
            catalog: Messages.catalog, urlPolicy: URLPolicy(extraSchemes: schemes),
            customLabels: configuration?.customButtonLabels ?? [:],
            snoozeChoices: configuration?.snoozeChoices ?? Snooze.defaultChoices)
        let store = self.store
        // `handle` looks the id up itself first, so a database that cannot be read is reported
        // as such rather than as an id that is not notify-sched's.
        handler = NotificationHandler(
            policy: policy, notifier: notifier, lookup: { try? store.deliveredOccurrence(id: $0) }, now: WallClock.now,
            zone: { SystemTimeZone.current(environment: environment) })
        handler.onOutcome = { [unowned self] outcome in
            if self.outcome == nil { self.outcome = outcome }
            self.loop.stop()
        }
        notifier.onServerChange = { server in
            if let server {
                Output.standardError.write(
                    Messages.catalog.translated(
                        "notify-sched: notification server now {server}; showing again", ["server": server.summary]))
            } else {
                Output.standardError.write(
                    Messages.catalog.translated(
                        "notify-sched: the notification server went away; waiting for one to show the popup again"))
            }
        }
    }

    /// Runs the main loop until the first outcome, unless there is one already.
    func waitForOutcome() {
        if outcome == nil { loop.run() }
    }

    /// Prints the outcome, stores the state it changed and the occurrence's ledger outcome, and
    /// fails when handling failed.
    func finish() throws(CommandError) {
        guard let outcome else { return }
        for line in outcome.reportLines { Output.standardOutput.write(line) }
        do {
            try store.recordHandling(outcome, at: WallClock.now())
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
        if let failure = outcome.failure { throw CommandError(.failure, "notify-sched: \(failure.message)") }
    }
}
