/// Shows popups and opens URLs on the desktop: the machine side of handling.
///
/// `NotifySchedDesktop.DesktopNotifier` talks to the real notification server through
/// libnotify; tests use a recording notifier. Responses arrive later, on the notifier's own
/// loop, through the closure given to `show`.
public protocol Notifier: AnyObject {
    /// The server popups go to now.
    ///
    /// - Throws: when no notification server answers on the bus.
    func currentServer() throws -> NotificationServer

    /// Shows a popup laid out by `layout` for the server that shows it.
    ///
    /// When the server is replaced before the user answered (it restarted), the notifier lays
    /// the popup out again for the new server and shows it there. `onResponse` is called once,
    /// with the action or the close.
    ///
    /// With `popupID`, the popup replaces the server's popup of that id in place (`Notify`'s
    /// replaces_id): a popup still on screen changes without flicker and its buttons answer to
    /// this notifier; a server that no longer has it shows a new one.
    ///
    /// - Throws: when no server answers or the server refuses the popup.
    func show(
        _ layout: @escaping (NotificationServer) -> Popup, replacing popupID: UInt32?,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws

    /// Shows new popups (`show(_:replacing:onResponse:)` replacing none) side by side: each goes
    /// to the server without waiting for its answer to the one before. `report` gets, for each
    /// popup, in order, nil when the server took it, else why not: at once, or later on the
    /// notifier's loop, so that the loop need not wait for the server meanwhile.
    func showSideBySide(_ requests: [PopupRequest], then report: @escaping ([(any Error)?]) -> Void)

    /// Shows a popup laid out by `layout` in place of the popup `key`: the server replaces it
    /// under the same popup id (`replaces_id`), and its answer now goes to `onResponse`
    /// instead. The new popup may show another occurrence, which then has that id.
    ///
    /// - Returns: false, having shown nothing, when the popup `key` does not wait for an answer.
    /// - Throws: when no server answers or the server refuses the new popup.
    func replace(
        _ key: PopupKey, with layout: @escaping (NotificationServer) -> Popup,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws -> Bool

    /// Closes the popup `key` (`CloseNotification`); its closing is not reported as an answer.
    ///
    /// - Returns: false when the popup `key` does not wait for an answer.
    func close(_ key: PopupKey) -> Bool

    /// Whether the desktop has a handler for `url`'s scheme. No side effects.
    func canOpen(_ url: ActionURL) -> Bool

    /// Opens `url` with the desktop's default handler for its scheme, never through a shell.
    ///
    /// - Throws: when nothing can open it.
    func open(_ url: ActionURL) throws
}

/// A new popup to show: `Notifier.show(_:replacing:onResponse:)`'s layout and answer.
public struct PopupRequest {
    /// Lays the popup out for the server that shows it.
    public var layout: (NotificationServer) -> Popup
    /// Called once, with the action or the close.
    public var onResponse: (PopupResponse) -> Void

    public init(
        layout: @escaping (NotificationServer) -> Popup, onResponse: @escaping (PopupResponse) -> Void
    ) {
        self.layout = layout
        self.onResponse = onResponse
    }
}

extension Notifier {
    /// Shows the popups one after the other (`showOneByOne`) and reports at once: for a notifier
    /// whose popups take no time to show.
    public func showSideBySide(_ requests: [PopupRequest], then report: @escaping ([(any Error)?]) -> Void) {
        report(showOneByOne(requests))
    }

    /// Shows the popups one after the other, each with `show(_:replacing:onResponse:)`.
    ///
    /// - Returns: For each popup, in order, nil when the server took it, else why not.
    public func showOneByOne(_ requests: [PopupRequest]) -> [(any Error)?] {
        requests.map { request in
            do {
                try show(request.layout, replacing: nil, onResponse: request.onResponse)
                return nil
            } catch {
                return error
            }
        }
    }

    /// Shows a new popup: `show(_:replacing:onResponse:)` replacing none.
    public func show(
        _ layout: @escaping (NotificationServer) -> Popup, onResponse: @escaping (PopupResponse) -> Void
    ) throws {
        try show(layout, replacing: nil, onResponse: onResponse)
    }
}
