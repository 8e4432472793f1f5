import CLibnotify
import Glibc
import NotifySchedCore
import NotifySchedPlatform

// The notification server: its bus name watched, its information read, and the calls that wait
// for it, none holding the loop past `answerLimit`.
extension DesktopNotifier {
    /// Makes `work`, a call that waits for the notification server, holding the loop at most
    /// `answerLimit`.
    ///
    /// - Parameter late: Gets the value on the loop when the server answers after the limit.
    /// - Throws: `DesktopError` with `.notAnswering` when the limit passed first.
    func callServer<Value>(
        _ work: @escaping () -> Value, late: @escaping (Value) -> Void
    ) throws(DesktopError) -> Value {
        let asked = WallClock.now()
        if let value = ServerCall.run(
            within: answerLimit, notBefore: callsNotBefore, work,
            late: { [weak self] value in
                late(value)
                self?.overdueCallEnded()
            })
        {
            return value
        }
        throw overdue(since: asked)
    }

    /// Counts a call the server has not answered by the limit: the error to throw for it.
    func overdue(since asked: Instant) -> DesktopError {
        switch answering {
        case .yes: answering = .overdue(calls: 1, since: asked)
        case .overdue(let calls, let since): answering = .overdue(calls: calls + 1, since: since)
        }
        return notAnswering()
    }

    /// Fails at once while a call to the server is overdue.
    func checkAnswering() throws(DesktopError) {
        if answering != .yes { throw notAnswering() }
    }

    func notAnswering() -> DesktopError {
        let waited = if case .overdue(_, let since) = answering { WallClock.now() - since } else { answerLimit }
        return DesktopError(
            .notAnswering,
            catalog.translated(
                "the notification server has not answered for {seconds} s; popups wait until it does",
                ["seconds": "\(max(1, waited.microseconds / 1_000_000))"]))
    }

    func overdueCallEnded() {
        guard case .overdue(let calls, let since) = answering else { return }
        guard calls == 1 else {
            answering = .overdue(calls: calls - 1, since: since)
            return
        }
        answering = .yes
        for notification in heldReleases { releaseLater(notification) }
        heldReleases = []
        let closes = heldCloses
        heldCloses = []
        for notification in closes { closeOnServer(notification) }
        guard case .owned(let owner, _) = serverState, let server = try? readServer() else { return }
        serverState = .owned(by: owner, server)
        onServerChange(server)
    }

    // MARK: The server

    /// Watches the server's bus name from the first use on.
    func connect() throws {
        guard serverState == .unwatched else { return }
        try bus.watch(
            Self.serverBusName, appeared: { [weak self] in self?.serverAppeared(owner: $0) },
            vanished: { [weak self] in self?.serverVanished() })
        // GLib reports the name's owner from the main loop, after this returns.
        serverState = .absent
    }

    func readServer() throws -> NotificationServer {
        try checkAnswering()
        let read = try callServer(Self.askServer) { [weak self] server in
            // An answer after the limit, from the owner the notifier knows still.
            guard let self, let server, case .owned(let owner, _) = serverState else { return }
            serverState = .owned(by: owner, server)
        }
        guard let read else {
            throw DesktopError(
                .noServer,
                catalog.translated(
                    "no notification server answers on the session bus (nothing provides {name}); "
                        + "start one, such as your desktop's, dunst or notification-daemon",
                    ["name": Self.serverBusName]))
        }
        return read
    }

    /// The server's information and capabilities; nil when no server answers.
    static func askServer() -> NotificationServer? {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        var spec: UnsafeMutablePointer<CChar>?
        guard notify_get_server_info(&name, &vendor, &version, &spec) != 0 else { return nil }
        return NotificationServer(
            name: GLibValues.take(name), vendor: GLibValues.take(vendor), version: GLibValues.take(version),
            specVersion: GLibValues.take(spec), capabilities: Set(GLibValues.takeStrings(notify_get_server_caps())))
    }

    func serverAppeared(owner: String) {
        if case .owned(owner, _) = serverState { return }
        serverState = .owned(by: owner, nil)
        // Let every other watcher of the name (libnotify's proxy among them) see the new owner
        // before popups are sent to it.
        MainLoop.whenIdle { [weak self] in self?.serverReplaced() }
    }

    func serverReplaced() {
        guard case .owned(let owner, _) = serverState, let server = try? readServer() else { return }
        serverState = .owned(by: owner, server)
        // Popups already waiting go to the new server first: what the change handler shows
        // next is new, and must not be shown twice.
        for shown in popups.values where !shown.isAnswered {
            do {
                try present(shown, on: server)
            } catch {
                onServerChange(nil)
                return
            }
        }
        onServerChange(server)
    }

    func serverVanished() {
        guard case .owned = serverState else { return }
        serverState = .absent
        onServerChange(nil)
    }
}

/// What a `DesktopNotifier` knows of the notification server.
enum ServerState: Equatable {
    /// Its bus name is not watched yet: nothing asked for a server (`connect()`).
    case unwatched
    /// Watched, and no process owns the name as far as the notifier knows.
    case absent
    /// The process of this unique bus name owns it; its information once read.
    case owned(by: String, NotificationServer?)
}

/// Whether the notification server answers the notifier's calls.
enum Answering: Equatable {
    /// Every call was answered within `answerLimit`.
    case yes
    /// `calls` calls are still waiting for it after `answerLimit`, the first since `since`:
    /// every other call fails at once meanwhile.
    case overdue(calls: Int, since: Instant)
}
