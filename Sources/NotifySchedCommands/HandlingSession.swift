import Foundation
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform
import NotifySchedStore

/// What `test` and `handle` share: the desktop, handling's decisions (`HandlingCore`) carried
/// out on it (`HandlingExecutor`) over the state database, and the lines they print about
/// what happened.
///
/// The database is the daemon's: a running daemon may write it at the same time (SQLite's WAL
/// and busy timeout keep the two apart), and an answer is stored as a change to the stored
/// state, so neither process undoes the other's.
final class HandlingSession {
    /// The main loop the popups' answers come from.
    let loop = MainLoop()
    let notifier: DesktopNotifier
    let store: StateStore
    /// Shows the popups and prompts, opens URLs, and hands the answers to `perform(_:)`.
    let popups: HandlingExecutor
    /// What handling decides, and what is on screen.
    private var core: HandlingCore
    /// The user's zone, where a snooze until tomorrow morning ends.
    private let zone: () -> ZoneRules
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
        core = HandlingCore(policy: policy)
        popups = HandlingExecutor(policy: policy, notifier: notifier)
        zone = { SystemTimeZone.current(environment: environment) }
        popups.screen = { [unowned self] in self.core }
        popups.note = { [unowned self] in self.core.note($0) }
        popups.respond = { [unowned self] in self.perform($0) }
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

    /// Hands the core what `request` makes of the occurrence delivered under `id` (a `handle`, a
    /// snooze), unless notify-sched delivered none under it.
    ///
    /// - Returns: false, having done nothing, when `id` is not one notify-sched delivered.
    ///   `handle` looks the id up itself first, so a database that cannot be read is reported
    ///   as such rather than as an id that is not notify-sched's.
    func handle(_ id: String, _ request: (DeliveredOccurrence) -> HandlingEvent) -> Bool {
        guard let occurrence = try? store.deliveredOccurrence(id: id) else { return false }
        perform(request(occurrence))
        return true
    }

    /// Hands `event` to the core, at the time it came, and carries out what it decides; the
    /// first outcome stops the main loop.
    private func perform(_ event: HandlingEvent) {
        for effect in core.handle(event, at: WallClock.now(), in: zone()) {
            if case .finished(let outcome) = effect {
                if self.outcome == nil { self.outcome = outcome }
                loop.stop()
            } else if let result = popups.carryOut(effect) {
                perform(result)
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
