import CLibnotify
import Glibc
import NotifySchedCore
import NotifySchedPlatform

// Replacing and closing popups on the server, and letting go of their libnotify objects.
extension DesktopNotifier {
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
    func update(
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
        if let previous = shown.key, previous != popup.key, popups[previous] === shown {
            popups[previous] = nil
            popups[popup.key] = shown
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
    func closeOnServer(_ notification: UnsafeMutablePointer<NotifyNotification>) {
        if pendingCloses.isEmpty {
            MainLoop.whenIdle { [weak self] in self?.closePending() }
        }
        pendingCloses.append(notification)
    }

    func closePending() {
        let closes = pendingCloses
        pendingCloses = []
        for notification in closes { closeNow(notification) }
    }

    func closeNow(_ notification: UnsafeMutablePointer<NotifyNotification>) {
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

    func waitingPopup(_ key: PopupKey) -> ShownPopup? {
        popups[key].flatMap { $0.isAnswered ? nil : $0 }
    }

    /// Forgets an answered or withdrawn popup. One answered with a button is closed on the
    /// server too: a resident popup (the prompt) would stay with buttons that no longer act,
    /// and some servers keep any popup after an action.
    func finish(_ shown: ShownPopup) {
        if let key = shown.key, popups[key] === shown { popups[key] = nil }
        if case .action = shown.response, let notification = shown.notification {
            closeOnServer(notification)
        } else {
            releaseLater(shown.notification)
        }
    }

    /// Drops a libnotify object from an idle callback: it may be inside its own signal emission
    /// now. While a call to the server is overdue it waits, since dropping it changes libnotify's
    /// state that the call's thread may be changing too.
    func releaseLater(_ notification: UnsafeMutablePointer<NotifyNotification>?) {
        guard let notification else { return }
        guard answering == .yes else {
            heldReleases.append(notification)
            return
        }
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, { _ in 0 }, notification, g_object_unref)
    }
}
