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

    private let bus: SessionBus
    /// Whether the server's bus name is watched yet (`connect()`).
    private var watchesServer = false
    private var server: NotificationServer?
    private var serverOwner: String?
    private var waiting: [ObjectIdentifier: ShownPopup] = [:]
    /// Popups the server took after `answerLimit`, when their `show` had already failed.
    private var shownLate: [PopupKey: ShownPopup] = [:]
    /// Whether the server answers: calls still waiting for it after `answerLimit` make it overdue.
    private var answering = Answering.yes
    /// What waits for the server to answer again: libnotify objects to drop (not while an
    /// overdue call may use libnotify on its thread) and popups to close.
    private var heldReleases: [UnsafeMutablePointer<NotifyNotification>] = []
    private var heldCloses: [UnsafeMutablePointer<NotifyNotification>] = []
    /// Popups to close once the current callback is done.
    private var pendingCloses: [UnsafeMutablePointer<NotifyNotification>] = []
    /// The instant calls to the server wait for on their threads (`holdingCalls(until:_:)`).
    private var callsNotBefore: Instant?

    /// The server's ids of the popups waiting for an answer. A popup shown again for a new
    /// server gets its new id here.
    public private(set) var popupIDs: [PopupKey: UInt32] = [:]

    /// Names the notification server instance that shows popups now: the session bus's GUID
    /// and the server's unique name on it, which no other server and no later session shares.
    /// Nil when no server was seen yet or none runs.
    public var serverInstance: String? {
        guard let serverOwner, let guid = bus.guid else { return nil }
        return guid + " " + serverOwner
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
            for popup in waiting.values { releaseLater(popup.notification) }
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
        if let server { return server }
        try connect()
        let server = try readServer()
        self.server = server
        serverOwner = bus.owner(of: Self.serverBusName)
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
        if popupID == nil, let late = shownLate[key] {
            try update(late, with: layout, onResponse: onResponse)
            shownLate[key] = nil
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
        guard !requests.contains(where: { shownLate[$0.layout(server).key] != nil }) else {
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

    private func wait(for shown: ShownPopup) {
        shown.onFinished = { [weak self] popup in self?.finish(popup) }
        waiting[ObjectIdentifier(shown)] = shown
    }

    public func canOpen(_ url: ActionURL) -> Bool {
        hasHandler(forScheme: url.scheme)
    }

    /// Which of `schemes` the desktop has a default handler for now, as a core's event carries it.
    public func urlHandlers(among schemes: Set<String>) -> URLHandlers {
        URLHandlers(schemes: schemes.filter(hasHandler(forScheme:)))
    }

    private func hasHandler(forScheme scheme: String) -> Bool {
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

    // MARK: Showing

    private func present(_ shown: ShownPopup, on server: NotificationServer, replacing popupID: UInt32? = nil) throws {
        var failure: DesktopError?
        ask([(shown, popupID)], on: server) { failure = $0[0] }
        awaitAnswers()
        if let failure { throw failure }
    }

    /// Sends `Notify` for each of `popups` side by side on `server`, each in place of the
    /// server's popup of its id when it has one, and returns at once; `report` gets, for each
    /// popup, nil when the server took it, else why not: on the loop once every answer is in or
    /// `answerLimit` passed (`collectAnswers()`), or from `awaitAnswers()`.
    private func ask(
        _ popups: [(shown: ShownPopup, replacing: UInt32?)], on server: NotificationServer,
        then report: @escaping ([DesktopError?]) -> Void
    ) {
        do {
            try checkAnswering()
        } catch {
            return report(popups.map { _ in error })
        }
        let presentations = popups.map { prepare($0.shown, on: server, replacing: $0.replacing) }
        let calls = presentations.map { presentation in
            ServerCall.start(
                notBefore: callsNotBefore, { Self.show(presentation.notification) },
                whenDone: { [weak self] in self?.collectAnswers() })
        }
        let answers = AnswersToCome(
            presentations: presentations, calls: calls, asked: WallClock.now(),
            deadline: ServerCall<String?>.deadline(after: answerLimit, from: callsNotBefore), report: report)
        // A millisecond more: the timer counts whole milliseconds, and must not end before the limit.
        let limit = TimeSpan(microseconds: Int64(answers.deadline - g_get_monotonic_time())) + .milliseconds(1)
        answers.timeout = MainLoop.once(after: limit) { [weak self, weak answers] in
            answers?.timeout = 0
            self?.collectAnswers()
        }
        answersToCome.append(answers)
    }

    /// Calls to the server under way for popups made ready, and where their answers go.
    private final class AnswersToCome {
        let presentations: [Presentation]
        let calls: [ServerCall<String?>]
        let asked: Instant
        /// The monotonic clock's reading when the limit passes.
        let deadline: gint64
        let report: ([DesktopError?]) -> Void
        /// The main-loop timer for `deadline`; 0 once it fired.
        var timeout: guint = 0

        init(
            presentations: [Presentation], calls: [ServerCall<String?>], asked: Instant, deadline: gint64,
            report: @escaping ([DesktopError?]) -> Void
        ) {
            self.presentations = presentations
            self.calls = calls
            self.asked = asked
            self.deadline = deadline
            self.report = report
        }

        /// Whether every answer is in, or the limit passed: taking them waits no more.
        var isDue: Bool { deadline <= g_get_monotonic_time() || calls.allSatisfy(\.isDone) }
    }

    /// The calls under way, whose answers are yet to be reported, oldest first.
    private var answersToCome: [AnswersToCome] = []

    private var callsUnderWay: Int { answersToCome.reduce(0) { $0 + $1.calls.count } }

    /// Hands the batches of answers that are due (`AnswersToCome.isDue`), in order, to their
    /// reports: called from the loop when a call ends and when a limit passes.
    private func collectAnswers() {
        while let first = answersToCome.first, first.isDue {
            report(answersToCome.removeFirst(), waitingUntil: first.deadline)
        }
    }

    /// Takes the server's answers in `answers`, waiting for each until the monotonic clock reads
    /// `deadline` at most, and reports them.
    private func report(_ answers: AnswersToCome, waitingUntil deadline: gint64) {
        if answers.timeout != 0 { g_source_remove(answers.timeout) }
        let failures = zip(answers.presentations, answers.calls).map { presentation, call -> DesktopError? in
            do throws(DesktopError) {
                try complete(
                    presentation, call.wait(until: deadline, late: presentation.late), asked: answers.asked)
                return nil
            } catch {
                return error
            }
        }
        answers.report(failures)
    }

    /// A popup made ready for the server: its libnotify object, and what to do when the server
    /// takes it after the limit.
    private struct Presentation {
        var shown: ShownPopup
        var popup: Popup
        var server: NotificationServer
        var notification: UnsafeMutablePointer<NotifyNotification>
        var late: (String?) -> Void
    }

    /// Makes the libnotify object of `shown`, laid out for `server`, whose answers go to `shown`.
    private func prepare(
        _ shown: ShownPopup, on server: NotificationServer, replacing popupID: UInt32? = nil
    ) -> Presentation {
        let popup = shown.layout(server)
        let notification = notify_notification_new(popup.summary, popup.body, popup.icon)!
        // The property is a gint: an id beyond its range cannot be replaced, only shown anew.
        if let popupID, let id = gint(exactly: popupID) { cnotify_notification_set_id(notification, id) }
        configure(notification, as: popup, for: shown)
        _ = cnotify_connect_closed(
            notification,
            { notification, context in
                let code = notification.map { UInt32(clamping: notify_notification_get_closed_reason($0)) } ?? 4
                ShownPopup.from(context)?.respond(.closed(CloseReason(code: code)), from: notification)
            }, shown.retainedContext(), { context, _ in ShownPopup.release(context) })
        let late = { [weak self] (failure: String?) in
            guard let self else { return }
            if failure != nil {
                releaseLater(notification)
            } else {
                // Shown after all: the popup is on screen, and its buttons answer as usual.
                adopt(notification, showing: popup.key, for: shown)
                sent(shown, as: popup, on: server)
                if waiting[ObjectIdentifier(shown)] == nil {
                    wait(for: shown)
                    shownLate[popup.key] = shown
                }
            }
            overdueCallEnded()
        }
        return Presentation(shown: shown, popup: popup, server: server, notification: notification, late: late)
    }

    /// Takes the server's answer to `presentation` (`Notify`): nil when it had not come by the
    /// limit (the call is overdue then), else nil or why the server refused the popup.
    ///
    /// - Throws: `DesktopError` with `.notAnswering` when the answer had not come, or
    ///   `.showFailed` when the server refused the popup.
    private func complete(_ presentation: Presentation, _ answer: String??, asked: Instant) throws(DesktopError) {
        guard let failure = answer else { throw overdue(since: asked) }
        if let failure {
            g_object_unref(presentation.notification)
            throw DesktopError(.showFailed, "the notification server did not take the popup: \(failure)")
        }
        adopt(presentation.notification, showing: presentation.popup.key, for: presentation.shown)
        sent(presentation.shown, as: presentation.popup, on: presentation.server)
    }

    /// How long a popup stays on a server that never reports its expiry before notify-sched
    /// takes it as expired: notification-daemon hides one after 5 to 7 s.
    static let silentExpiry = TimeSpan.seconds(10)

    /// Counts a showing of `shown` (laid out as `popup`) by `server`. On a server that never
    /// reports expiry (`NotificationServer.reportsExpiry`), a popup that expires there (neither
    /// resident nor critical nor kept with a zero timeout) is taken as expired once its own
    /// timeout, or else `silentExpiry`, passed since its last showing (and a second more), unless
    /// answered by then, and removed from the server's list, which would otherwise fill up.
    private func sent(_ shown: ShownPopup, as popup: Popup, on server: NotificationServer) {
        shown.showings += 1
        guard !server.reportsExpiry, !popup.isResident, popup.urgency != .critical, popup.timeout != .zero
        else { return }
        let showing = shown.showings
        MainLoop.once(after: popup.timeout.map { $0 + .seconds(1) } ?? Self.silentExpiry) { [weak self, weak shown] in
            guard let self, let shown, shown.showings == showing, !shown.isAnswered,
                let notification = shown.notification
            else { return }
            g_object_ref(notification)
            closeOnServer(notification)
            shown.respond(.closed(.expired), from: notification)
        }
    }

    /// Makes `notification`, which the server took, the one that shows `shown`.
    private func adopt(
        _ notification: UnsafeMutablePointer<NotifyNotification>, showing key: PopupKey, for shown: ShownPopup
    ) {
        let previous = shown.notification
        shown.notification = notification
        shown.key = key
        popupIDs[key] = cnotify_notification_get_id(notification)
        releaseLater(previous)
    }

    /// `Notify`'s expire timeout for `popup`, in milliseconds: never for a resident one, else
    /// its own timeout (0 is never), else the server's default.
    static func expireTimeout(of popup: Popup) -> gint {
        if popup.isResident { return NOTIFY_EXPIRES_NEVER }
        guard let timeout = popup.timeout else { return NOTIFY_EXPIRES_DEFAULT }
        return gint(clamping: timeout.microseconds / 1000)
    }

    /// Sends `notification` to the server (`Notify`): nil when it took it, else why not.
    private static func show(_ notification: UnsafeMutablePointer<NotifyNotification>) -> String? {
        var error: UnsafeMutablePointer<GError>?
        return notify_notification_show(notification, &error) != 0 ? nil : GLibValues.take(error)
    }

    /// Sets everything of `popup` but its text on `notification`, whose answers go to `shown`.
    private func configure(
        _ notification: UnsafeMutablePointer<NotifyNotification>, as popup: Popup, for shown: ShownPopup
    ) {
        notify_notification_set_urgency(notification, popup.urgency.libnotify)
        notify_notification_set_hint(notification, Popup.occurrenceHint, g_variant_new_string(popup.occurrenceID))
        notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string(Popup.desktopEntry))
        if let category = popup.category { notify_notification_set_category(notification, category) }
        if popup.isResident {
            notify_notification_set_hint(notification, "resident", g_variant_new_boolean(1))
        }
        if let sound = popup.sound {
            notify_notification_set_hint(notification, "sound-name", g_variant_new_string(sound))
        }
        if let image = popup.image {
            notify_notification_set_hint(notification, "image-path", g_variant_new_string(image))
        }
        notify_notification_set_timeout(notification, Self.expireTimeout(of: popup))
        let onAction: NotifyActionCallback = { notification, key, context in
            ShownPopup.from(context)?.respond(.action(key.map { String(cString: $0) } ?? ""), from: notification)
        }
        for button in popup.buttons {
            notify_notification_add_action(
                notification, button.key, button.label, onAction, shown.retainedContext(), ShownPopup.release)
        }
        if popup.hasDefaultAction {
            notify_notification_add_action(
                notification, Popup.defaultActionKey, popup.summary, onAction, shown.retainedContext(),
                ShownPopup.release)
        }
    }

    // MARK: Feed changes

    public func replace(
        _ key: PopupKey, with layout: @escaping (NotificationServer) -> Popup,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws -> Bool {
        guard let shown = waitingPopup(key), shown.notification != nil else { return false }
        try update(shown, with: layout, onResponse: onResponse)
        return true
    }

    /// Shows `shown` again, laid out by `layout`, under the same server id; its answer now goes
    /// to `onResponse`.
    private func update(
        _ shown: ShownPopup, with layout: @escaping (NotificationServer) -> Popup,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws {
        guard let notification = shown.notification else { return }
        try checkAnswering()
        let server = try currentServer()
        let popup = layout(server)
        shown.layout = layout
        shown.onResponse = onResponse
        // The same libnotify object keeps its server id, so `show` sends it as `replaces_id`.
        notify_notification_clear_actions(notification)
        notify_notification_clear_hints(notification)
        _ = notify_notification_update(notification, popup.summary, popup.body, popup.icon)
        configure(notification, as: popup, for: shown)
        // A popup that now shows another occurrence (a newer one of its entry) keeps its server id.
        if let previous = shown.key, previous != popup.key, let popupID = popupIDs.removeValue(forKey: previous) {
            popupIDs[popup.key] = popupID
        }
        shown.key = popup.key
        // A late answer needs nothing more: the object is the one `shown` keeps either way.
        if let failure = try callServer({ Self.show(notification) }, late: { _ in }) {
            throw DesktopError(.showFailed, "the notification server did not take the new popup: \(failure)")
        }
        sent(shown, as: popup, on: server)
    }

    public func close(_ key: PopupKey) -> Bool {
        guard let shown = waitingPopup(key) else { return false }
        if let notification = shown.notification {
            g_object_ref(notification)
            closeOnServer(notification)
        }
        shown.withdraw()
        return true
    }

    /// Closes `notification` on the server, from the loop once the current callback is done
    /// (it may be inside a libnotify signal), or when the loop's `run()` returns, or once the server
    /// answers again; then drops it.
    private func closeOnServer(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        if pendingCloses.isEmpty {
            MainLoop.whenIdle { [weak self] in self?.closePending() }
        }
        pendingCloses.append(notification)
    }

    private func closePending() {
        let closes = pendingCloses
        pendingCloses = []
        for notification in closes { closeNow(notification) }
    }

    private func closeNow(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        guard answering == .yes else {
            heldCloses.append(notification)
            return
        }
        // libnotify forgets the id once the server reports the popup closed (after most button
        // presses): a close then would go out as CloseNotification(0), which Plasma answers
        // with a stray NotificationClosed(0).
        guard cnotify_notification_get_id(notification) != 0 else { return releaseLater(notification) }
        // A server that already dropped the popup answers with an error; it is gone either way.
        let close = { _ = notify_notification_close(notification, nil) }
        let done: ()? = try? callServer(close) { [weak self] _ in
            self?.releaseLater(notification)
        }
        if done != nil { releaseLater(notification) }
    }

    private func waitingPopup(_ key: PopupKey) -> ShownPopup? {
        waiting.values.first { $0.key == key && !$0.isAnswered }
    }

    /// Forgets an answered or withdrawn popup. One answered with a button is closed on the
    /// server too: a resident popup (the prompt) would stay with buttons that no longer act,
    /// and some servers keep any popup after an action.
    private func finish(_ shown: ShownPopup) {
        waiting[ObjectIdentifier(shown)] = nil
        if let key = shown.key, shownLate[key] === shown { shownLate[key] = nil }
        if let key = shown.key, let notification = shown.notification,
            popupIDs[key] == cnotify_notification_get_id(notification)
        {
            popupIDs[key] = nil
        }
        if case .action = shown.response, let notification = shown.notification {
            closeOnServer(notification)
        } else {
            releaseLater(shown.notification)
        }
    }

    /// Drops a libnotify object from an idle callback: it may be inside its own signal emission
    /// now. While a call to the server is overdue it waits, since dropping it changes libnotify's
    /// state that the call's thread may be changing too.
    private func releaseLater(_ notification: UnsafeMutablePointer<NotifyNotification>?) {
        guard let notification else { return }
        guard answering == .yes else {
            heldReleases.append(notification)
            return
        }
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { _ in 0 }, notification, g_object_unref)
    }

    // MARK: Calls that wait for the server

    /// Makes `work`, a call that waits for the notification server, holding the loop at most
    /// `answerLimit`.
    ///
    /// - Parameter late: Gets the value on the loop when the server answers after the limit.
    /// - Throws: `DesktopError` with `.notAnswering` when the limit passed first.
    private func callServer<Value>(
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
    private func overdue(since asked: Instant) -> DesktopError {
        switch answering {
        case .yes: answering = .overdue(calls: 1, since: asked)
        case .overdue(let calls, let since): answering = .overdue(calls: calls + 1, since: since)
        }
        return notAnswering()
    }

    /// Fails at once while a call to the server is overdue.
    private func checkAnswering() throws(DesktopError) {
        if answering != .yes { throw notAnswering() }
    }

    private func notAnswering() -> DesktopError {
        let waited = if case .overdue(_, let since) = answering { WallClock.now() - since } else { answerLimit }
        return DesktopError(
            .notAnswering,
            catalog.translated(
                "the notification server has not answered for {seconds} s; popups wait until it does",
                ["seconds": "\(max(1, waited.microseconds / 1_000_000))"]))
    }

    private func overdueCallEnded() {
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
        guard serverOwner != nil, let server = try? readServer() else { return }
        self.server = server
        onServerChange(server)
    }

    // MARK: The server

    /// Watches the server's bus name from the first use on.
    private func connect() throws {
        guard !watchesServer else { return }
        try bus.watch(
            Self.serverBusName, appeared: { [weak self] in self?.serverAppeared(owner: $0) },
            vanished: { [weak self] in self?.serverVanished() })
        watchesServer = true
    }

    private func readServer() throws -> NotificationServer {
        try checkAnswering()
        let read = try callServer(Self.askServer) { [weak self] server in
            if let server { self?.server = server }
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
    private static func askServer() -> NotificationServer? {
        var name: UnsafeMutablePointer<CChar>?
        var vendor: UnsafeMutablePointer<CChar>?
        var version: UnsafeMutablePointer<CChar>?
        var spec: UnsafeMutablePointer<CChar>?
        guard notify_get_server_info(&name, &vendor, &version, &spec) != 0 else { return nil }
        return NotificationServer(
            name: GLibValues.take(name), vendor: GLibValues.take(vendor), version: GLibValues.take(version),
            specVersion: GLibValues.take(spec), capabilities: Set(GLibValues.takeStrings(notify_get_server_caps())))
    }

    private func serverAppeared(owner: String) {
        guard owner != serverOwner else { return }
        serverOwner = owner
        // Let every other watcher of the name (libnotify's proxy among them) see the new owner
        // before popups are sent to it.
        MainLoop.whenIdle { [weak self] in self?.serverReplaced() }
    }

    private func serverReplaced() {
        guard let server = try? readServer() else { return }
        self.server = server
        // Popups already waiting go to the new server first: what the change handler shows
        // next is new, and must not be shown twice.
        for shown in waiting.values where !shown.isAnswered {
            do {
                try present(shown, on: server)
            } catch {
                onServerChange(nil)
                return
            }
        }
        onServerChange(server)
    }

    private func serverVanished() {
        guard serverOwner != nil else { return }
        serverOwner = nil
        server = nil
        onServerChange(nil)
    }
}

extension Urgency {
    var libnotify: NotifyUrgency {
        switch self {
        case .low: NOTIFY_URGENCY_LOW
        case .normal: NOTIFY_URGENCY_NORMAL
        case .critical: NOTIFY_URGENCY_CRITICAL
        }
    }
}

/// Whether the notification server answers the notifier's calls.
private enum Answering: Equatable {
    /// Every call was answered within `answerLimit`.
    case yes
    /// `calls` calls are still waiting for it after `answerLimit`, the first since `since`:
    /// every other call fails at once meanwhile.
    case overdue(calls: Int, since: Instant)
}
