import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop

/// The CLI's side of the daemon's control interface (`org.notify_sched.Daemon1`): commands that
/// the running daemon serves go through it, and work on their own when no daemon runs.
enum RunningDaemon {
    /// How long a call that answers at once may take.
    static let promptTimeout = TimeSpan.seconds(25)

    /// Makes `call` on the running daemon.
    ///
    /// - Parameter waits: The call answers only once the user acted (a prompt, `test --wait`),
    ///   so it has no timeout.
    /// - Returns: The daemon's reply, or nil when no daemon runs (nothing owns its name, or there
    ///   is no session bus at all).
    /// - Throws: `CommandError` when the daemon runs but the call failed or its reply is malformed.
    static func call(_ call: ControlCall, waits: Bool = false) throws(CommandError) -> ControlReply? {
        let method = call.method.rawValue
        let values: [ControlValue]
        do {
            values = try BusService.call(
                ControlInterface.busName, path: ControlInterface.objectPath, interface: ControlInterface.interface,
                method: method, arguments: call.arguments, timeout: waits ? nil : promptTimeout)
        } catch let error as DesktopError where error.code == .noService || error.code == .noSessionBus {
            return nil
        } catch let error as DesktopError where error.code == .noReply && waits {
            // The call had no time limit: the daemon left the bus before it could answer.
            throw CommandError(
                .failure,
                Messages.catalog.translated(
                    "notify-sched: the daemon stopped before it answered (it was killed or crashed); a prompt "
                        + "or popup it showed stays on screen, and the next daemon takes it over: {cause}",
                    ["cause": error.message]))
        } catch {
            throw CommandError(.failure, "notify-sched: the daemon's \(method) call failed: \(error)")
        }
        do {
            return try ControlReply(call.method, values: values)
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
    }

    /// Says that no daemon runs, and how to start one: a whole line for standard error.
    static var notRunning: String {
        Messages.catalog.translated(
            "notify-sched: no notify-sched daemon is running (start one with `notify-sched daemon` or "
                + "`systemctl --user start notify-sched`)")
    }
}
