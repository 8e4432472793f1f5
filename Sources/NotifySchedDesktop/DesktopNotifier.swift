import CLibnotify
import Glibc
import NotifySchedCore
import NotifySchedPlatform

/// Popups through libnotify on the session bus (`SessionBus`), and URLs through GIO's default
/// handlers: the only user of libnotify in notify-sched.
///
/// libnotify reports button presses and closes only while the main loop (`MainLoop`) runs, so
/// a caller that waits for an answer runs the loop and stops it from a callback. Everything
/// happens on the thread that created the notifier; it is not `Sendable`.
///
/// The server's information and capabilities are read on first use and again whenever
/// `org.freedesktop.Notifications` changes owner; popups still waiting for an answer are then
/// laid out for the new server and shown there again.
///
/// No call to the server holds the loop longer than `answerLimit`, and new popups shown side by
/// side (`showSideBySide(_:then:)`) do not hold it at all. A server that takes longer
/// (hung, stopped, swamped) is left to answer in the background; until it does, every call to
/// it fails at once with `.notAnswering`, so callers keep their popups waiting, and when it
/// does, `onServerChange` reports it again. A popup it took late stays on screen and answers
/// as usual; showing that occurrence again updates it in place instead of adding a second.
public final class DesktopNotifier: Notifier {
    /// The name the bus knows notification servers by.
    public static let serverBusName = "org.freedesktop.Notifications"

    /// The translations of the errors a person reads (no notification server); English by default.
    public var catalog = MessageCatalog.english

    /// Called when the server changes: a new one (or the first), nil when it went away, and
    /// the same one again when it answers after it had stopped answering.
    public var onServerChange: (NotificationServer?) -> Void = { _ in }

    /// How long the loop waits for the notification server to answer one call.
    public var answerLimit = TimeSpan.seconds(3)

    let bus: SessionBus
    /// What the notifier knows of the notification server (`DesktopNotifier+Server.swift`).
    var serverState = ServerState.unwatched
    /// The popups on the server waiting for an answer, by key: each holds its libnotify object,
    /// whose id is the popup's on the server (`popupID(of:)`).
    var popups: [PopupKey: ShownPopup] = [:]
    /// Whether the server answers: calls still waiting for it after `answerLimit` make it overdue.
    var answering = Answering.yes
    /// What waits for the server to answer again: libnotify objects to drop (not while an
    /// overdue call may use libnotify on its thread) and popups to close.
    var heldReleases: [UnsafeMutablePointer<NotifyNotification>] = []
    var heldCloses: [UnsafeMutablePointer<NotifyNotification>] = []
    /// The calls under way, whose answers are yet to be reported, oldest first.
    var answersToCome: [AnswersToCome] = []
    /// Popups to close once the current callback is done.
    var pendingCloses: [UnsafeMutablePointer<NotifyNotification>] = []
    /// The instant calls to the server wait for on their threads (`holdingCalls(until:_:)`).
    var callsNotBefore: Instant?

    /// The server's id of the popup `key` while it waits for an answer. A popup shown again
    /// for a new server has its new id.
    public func popupID(of key: PopupKey) -> UInt32? {
        popups[key]?.popupID
    }

    /// The server's ids of the popups waiting for an answer.
    public var popupIDs: [PopupKey: UInt32] {
        popups.compactMapValues(\.popupID)
    }

    /// Names the notification server instance that shows popups now: the session bus's GUID
    /// and the server's unique name on it, which no other server and no later session shares.
    /// Nil when no server was seen yet or none runs.
    public var serverInstance: String? {
        guard case .owned(let owner, _) = serverState, let guid = bus.guid else { return nil }
        return guid + " " + owner
    }

    /// Sets libnotify up under `applicationName` (the app name servers show), on `bus`; popups
    /// answered when `loop` stops are closed before its `run()` returns.
    public init(applicationName: String = "notify-sched", bus: SessionBus, loop: MainLoop) {
        _ = notify_init(applicationName)
        self.bus = bus
        loop.whenReturning { [weak self] in self?.closePending() }
    }

    deinit {
        // Objects an overdue call may still use are left to the process's end.
        if answering == .yes {
            for popup in popups.values { releaseLater(popup.notification) }
            for notification in heldReleases + heldCloses + pendingCloses { releaseLater(notification) }
        }
    }

    /// Runs `body`, in which every call to the server (a popup shown, replaced or closed) is
    /// made ready on this thread at once but goes out from its own thread at `instant`, not
    /// before: the popups due then are laid out ahead of their due time, and only the sending
    /// is left for it. The waits for the server's answers count from `instant`.
    public func holdingCalls<Result>(until instant: Instant, _ body: () -> Result) -> Result {
        let outer = callsNotBefore
        callsNotBefore = instant
        defer { callsNotBefore = outer }
        return body()
    }

    // MARK: Notifier

    public func currentServer() throws -> NotificationServer {
        if case .owned(_, let server?) = serverState { return server }
        try connect()
        let server = try readServer()
        // A server whose owner the bus does not name yet is read again next time.
        serverState = bus.owner(of: Self.serverBusName).map { .owned(by: $0, server) } ?? .absent
        return server
    }

    /// Shows a popup, replacing the server's popup `popupID` when given.
    ///
    /// libnotify routes a server's `ActionInvoked` and `NotificationClosed` to the
    /// `NotifyNotification` whose id they name, but it listens for them only from
    /// `notify_notification_show` on, which always sends `Notify` (with the object's id as
    /// replaces_id). So a new process cannot silently adopt a popup another one left on screen:
    /// it takes it over by showing it again under its id, which a server that still has it
    /// updates in place and one that dropped it (GNOME drops an app's popups when its bus name
    /// goes) shows anew. Either way its buttons then answer to this process.
    public func show(
        _ layout: @escaping (NotificationServer) -> Popup, replacing popupID: UInt32?,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws {
        let server = try currentServer()
        let key = layout(server).key
        if popupID == nil, let late = popups[key], late.cameLate {
            try update(late, with: layout, onResponse: onResponse)
            late.cameLate = false
            return
        }
        let shown = ShownPopup(layout: layout, onResponse: onResponse)
        try present(shown, on: server, replacing: popupID)
        wait(for: shown)
    }

    /// Shows new popups side by side, and returns at once: each `Notify` goes out without
    /// waiting for the server's answer to the one before, on a thread of its own (libnotify's
    /// calls block; those of distinct popups share nothing but the bus connection and its proxy,
    /// both made for use across threads). `report` gets the answers on the loop, once all are in
    /// or `answerLimit` passed, or at once when the loop needs them (`awaitAnswers()`). So a
    /// popup due a moment after these goes out at its time, whenever the server answers them.
    ///
    /// At most `ServerCallThread.keptLimit` calls are under way at a time: more wait for the
    /// answers under way first, and a burst of more goes in turns, each turn's answers awaited.
    public func showSideBySide(_ requests: [PopupRequest], then report: @escaping ([(any Error)?]) -> Void) {
        let server: NotificationServer
        do {
            server = try currentServer()
        } catch {
            return report(requests.map { _ in error })
        }
        // One shown late under the same key is updated instead (see `show`): one at a time.
        guard !requests.contains(where: { popups[$0.layout(server).key]?.cameLate == true }) else {
            return report(showOneByOne(requests))
        }
        if callsUnderWay + requests.count > ServerCallThread.keptLimit { awaitAnswers() }
        let turns = stride(from: 0, to: requests.count, by: ServerCallThread.keptLimit).map { start in
            requests[start..<min(start + ServerCallThread.keptLimit, requests.count)].map {
                ShownPopup(layout: $0.layout, onResponse: $0.onResponse)
            }
        }
        var failures: [(any Error)?] = []
        for (turn, together) in turns.enumerated() {
            ask(together.map { ($0, nil) }, on: server) { [weak self] answers in
                for (shown, failure) in zip(together, answers) where failure == nil { self?.wait(for: shown) }
                failures += answers as [(any Error)?]
                if turn == turns.count - 1 { report(failures) }
            }
            if turn < turns.count - 1 { awaitAnswers() }
        }
    }

    /// Hands each batch of answers under way, in order, to its report: all of them, waiting for
    /// each until its limit. Whatever reads or changes what the answers decide calls this first.
    ///
    /// - Parameter stopping: The process is stopping (a SIGTERM came): the server has a moment
    ///   left to answer, as a call that waits when the signal comes (`ServerCall`), so that a
    ///   stop neither waits for a hung server nor shows again, on the next start, a popup a live
    ///   one was taking.
    public func awaitAnswers(stopping: Bool = false) {
        let grace = g_get_monotonic_time() + ServerCall<String?>.stopGrace
        while !answersToCome.isEmpty {
            let answers = answersToCome.removeFirst()
            report(answers, waitingUntil: stopping ? min(answers.deadline, grace) : answers.deadline)
        }
    }

    /// Keeps `shown`, which the server took, until it is answered or withdrawn.
    func wait(for shown: ShownPopup) {
        guard let key = shown.key else { return }
        shown.onFinished = { [weak self] popup in self?.finish(popup) }
        popups[key] = shown
    }

    public func canOpen(_ url: ActionURL) -> Bool {
        hasHandler(forScheme: url.scheme)
    }

    /// Which of `schemes` the desktop has a default handler for now, as a core's event carries it.
    public func urlHandlers(among schemes: Set<String>) -> URLHandlers {
        URLHandlers(schemes: schemes.filter(hasHandler(forScheme:)))
    }

    func hasHandler(forScheme scheme: String) -> Bool {
        guard let handler = g_app_info_get_default_for_uri_scheme(scheme) else { return false }
        g_object_unref(UnsafeMutableRawPointer(handler))
        return true
    }

    public func open(_ url: ActionURL) throws {
        var error: UnsafeMutablePointer<GError>?
        guard g_app_info_launch_default_for_uri(url.string, nil, &error) != 0 else {
            throw DesktopError(.openFailed, GLibValues.take(error))
        }
    }
}
