import CLibnotify
import NotifySchedCore

/// One popup on screen, waiting for the user: the context libnotify's callbacks receive.
///
/// Each callback registration holds one retained reference (`Unmanaged.passRetained`),
/// released by the destroy notify libnotify or GObject calls when the registration ends.
final class ShownPopup {
    /// Lays the popup out for a server; replaced when its entry changes in the feed.
    var layout: (NotificationServer) -> Popup
    /// Where the answer goes; replaced with the layout.
    var onResponse: (PopupResponse) -> Void
    /// The libnotify object currently showing it; replaced when the server restarts.
    var notification: UnsafeMutablePointer<NotifyNotification>?
    /// Which popup it is, once shown, as last laid out.
    var key: PopupKey?
    /// How many times it went to a server: an expiry notify-sched keeps counts from the last.
    var showings = 0
    /// Whether the server took it after `answerLimit`, when its showing had already failed:
    /// showing its occurrence again updates it in place rather than adding a second.
    var cameLate = false
    /// Its id on the server, while its libnotify object has one.
    var popupID: UInt32? {
        notification.map(cnotify_notification_get_id).flatMap { $0 == 0 ? nil : $0 }
    }
    /// Where the wait for an answer stands.
    private var state = State.waiting
    /// Whether the wait is over, answered or withdrawn.
    var isAnswered: Bool {
        if case .waiting = state { false } else { true }
    }
    /// The answer, once the user gave one.
    var response: PopupResponse? {
        if case .answered(let response) = state { response } else { nil }
    }
    /// Called once, after the response, so the owner can forget it.
    var onFinished: (ShownPopup) -> Void = { _ in }

    init(layout: @escaping (NotificationServer) -> Popup, onResponse: @escaping (PopupResponse) -> Void) {
        self.layout = layout
        self.onResponse = onResponse
    }

    /// Reports `response` if it concerns the current libnotify object and nothing was reported yet:
    /// the server also closes a popup after an action, and an object replaced after a restart
    /// may share its id with the new one.
    func respond(_ response: PopupResponse, from source: UnsafeMutablePointer<NotifyNotification>?) {
        guard !isAnswered, source == notification else { return }
        state = .answered(response)
        onResponse(response)
        onFinished(self)
    }

    /// Ends the wait without an answer: the popup's entry was withdrawn, and its closing is
    /// not the user's.
    func withdraw() {
        guard !isAnswered else { return }
        state = .withdrawn
        onFinished(self)
    }

    /// A retained pointer to hand to C as callback data.
    func retainedContext() -> gpointer {
        Unmanaged.passRetained(self).toOpaque()
    }

    /// The popup a callback's data points to.
    static func from(_ context: gpointer?) -> ShownPopup? {
        context.map { Unmanaged<ShownPopup>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Releases the reference `retainedContext()` took: the destroy notify of every registration.
    static let release: @convention(c) (gpointer?) -> Void = { context in
        if let context { Unmanaged<ShownPopup>.fromOpaque(context).release() }
    }

    private enum State {
        case waiting
        case answered(PopupResponse)
        /// Its entry was withdrawn: no answer will come.
        case withdrawn
    }
}
