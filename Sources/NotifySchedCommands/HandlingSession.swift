import Foundation
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform

/// What `test` and `handle` share: the desktop, a handler over the delivery log, and the lines
/// they print about what happened.
final class HandlingSession {
    let notifier = DesktopNotifier()
    let logFile: DeliveryLogFile
    let handler: NotificationHandler
    /// Set by the first outcome; the main loop stops then.
    private(set) var outcome: HandlingOutcome?

    /// - Throws: `CommandError` when the delivery log cannot be read.
    init(schemes: [String], environment: [String: String]) throws(CommandError) {
        logFile = DeliveryLogFile(environment: environment)
        let log: DeliveryLog
        do {
            log = try logFile.read()
        } catch {
            throw CommandError(.failure, error.message)
        }
        notifier.catalog = Messages.catalog
        let policy = HandlingPolicy(catalog: Messages.catalog, urlPolicy: URLPolicy(extraSchemes: schemes))
        handler = NotificationHandler(
            policy: policy, notifier: notifier, state: log.state, lookup: log.occurrence(id:), now: WallClock.now)
        handler.onOutcome = { [unowned self] outcome in
            if self.outcome == nil { self.outcome = outcome }
            self.notifier.stop()
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
        if outcome == nil { notifier.run() }
    }

    /// Prints the outcome, stores the state it changed, and fails when handling failed.
    func finish() throws(CommandError) {
        guard let outcome else { return }
        for line in outcome.reportLines { Output.standardOutput.write(line) }
        if outcome.change != nil {
            let source = outcome.occurrence.source
            let state = handler.state[source]
            do {
                try logFile.update { $0.state[source] = state }
            } catch {
                throw CommandError(.failure, error.message)
            }
        }
        if let failure = outcome.failure { throw CommandError(.failure, "notify-sched: \(failure.message)") }
    }
}
