import CLibnotify
import NotifySchedCore

/// One popup on screen, waiting for the user: the context libnotify's callbacks receive.
///
/// Each callback registration holds one retained reference (`Unmanaged.passRetained`),
/// released by the destroy notify libnotify or GObject calls when the registration ends.
final class ShownPopup {
    let layout: (NotificationServer) -> Popup
    private let onResponse: (PopupResponse) -> Void
    /// The libnotify object currently showing it; replaced when the server restarts.
    var notification: UnsafeMutablePointer<NotifyNotification>?
    /// The occurrence it shows, once shown.
    var occurrenceID: String?
    private(set) var isAnswered = false
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
        isAnswered = true
        onResponse(response)
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
}
