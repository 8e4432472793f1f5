import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop

/// The control object on the session bus, exported before the daemon claims its name: D-Bus
/// activation hands the call that started the daemon over as soon as the name is claimed, and
/// it must find the object there. Calls are decoded (`ControlCall`) and answered on the loop,
/// once the daemon runs.
final class ControlObject {
    /// Answers a decoded call, at once or later through the closure it is given; set once the
    /// daemon is ready, before its loop runs.
    var answer: ((ControlCall, _ reply: @escaping (ControlReply) -> Void) throws -> ControlReply?)?
    private var service: BusService?

    /// Exports the object on the session bus.
    ///
    /// - Parameter urlPolicy: Which URLs a `test` call's action may open.
    /// - Throws: `DaemonError` with `.unavailable` when the session bus cannot be reached.
    init(urlPolicy: URLPolicy) throws(DaemonError) {
        do {
            service = try BusService(
                path: ControlInterface.objectPath, introspection: ControlInterface.introspection
            ) { [weak self] call in
                guard let self else { throw DaemonError(.unavailable, "the daemon is restarting; call again") }
                guard let answer = self.answer else {
                    throw DaemonError(.unavailable, "the daemon is starting; call again")
                }
                let decoded: ControlCall
                do throws(ControlError) {
                    decoded = try ControlCall(method: call.method, arguments: call.arguments, urlPolicy: urlPolicy)
                } catch {
                    throw DaemonError(.badCall, error.message, underlyingError: error)
                }
                return try answer(decoded) { call.reply($0) }?.values
            }
        } catch {
            throw DaemonError(.unavailable, "\(error)", underlyingError: error)
        }
    }

    /// Takes the object off the bus, for the daemon that follows in this process.
    func close() {
        service?.unexport()
        service = nil
    }
}
