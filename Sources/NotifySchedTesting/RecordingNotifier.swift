import NotifySchedCore

/// A `Notifier` that shows nothing: it records each popup and URL, and lets a test answer
/// popups the way a person at the desktop would.
open class RecordingNotifier: Notifier {
    /// What the notifier was asked to do, in order.
    public enum Call: Equatable {
        case show(Popup)
        case replace(Popup)
        case close(PopupKey)
        case open(String)
    }

    public var server: NotificationServer?
    /// URLs whose opening fails, as when no handler is registered for them.
    public var unopenable: Set<String> = []
    public private(set) var calls: [Call] = []
    /// How many popups each `showSideBySide` was given, in order.
    public private(set) var sideBySide: [Int] = []
    /// Whether `showSideBySide` holds its answers until `giveAnswers()`, as a notifier does
    /// whose loop goes on while the server answers.
    public var holdsAnswers = false
    private var heldAnswers: [() -> Void] = []
    /// The popups waiting for an answer, oldest first, with their responders.
    private var responders: [(key: PopupKey, respond: (PopupResponse) -> Void)] = []

    public init(server: NotificationServer? = RecordingNotifier.fullServer) {
        self.server = server
    }

    /// A server with every capability notify-sched adapts to.
    public static let fullServer = NotificationServer(
        name: "recording", vendor: "tests", version: "1", specVersion: "1.2",
        capabilities: ["actions", "body", "body-markup", "persistence"])

    public var shownPopups: [Popup] {
        calls.compactMap { if case .show(let popup) = $0 { popup } else { nil } }
    }

    public var replacedPopups: [Popup] {
        calls.compactMap { if case .replace(let popup) = $0 { popup } else { nil } }
    }

    public var openedURLs: [String] {
        calls.compactMap { if case .open(let url) = $0 { url } else { nil } }
    }

    /// Answers the last popup shown.
    public func answer(_ response: PopupResponse) {
        responders.removeLast().respond(response)
    }

    /// Answers the popup `key`, as a person at the desktop would.
    public func answer(_ key: PopupKey, _ response: PopupResponse) {
        guard let index = responders.lastIndex(where: { $0.key == key }) else { return }
        responders.remove(at: index).respond(response)
    }

    /// The popups waiting for an answer, oldest first.
    public var waitingKeys: [PopupKey] { responders.map(\.key) }

    /// Forgets the popup `key`, replaced on screen by another: nobody hears its buttons.
    public func forgetResponder(of key: PopupKey) {
        responders.removeAll { $0.key == key }
    }

    /// Forgets the popups waiting for an answer, as the server does with the answers to a
    /// process that is gone: they stay on screen, and nobody hears their buttons.
    public func forgetResponders() {
        responders = []
    }

    open func currentServer() throws -> NotificationServer {
        guard let server else { throw TestSupportError("no server") }
        return server
    }

    open func show(
        _ layout: @escaping (NotificationServer) -> Popup, replacing popupID: UInt32?,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws {
        let popup = layout(try currentServer())
        calls.append(.show(popup))
        responders.append((popup.key, onResponse))
    }

    open func replace(
        _ key: PopupKey, with layout: @escaping (NotificationServer) -> Popup,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws -> Bool {
        guard let index = responders.lastIndex(where: { $0.key == key }) else { return false }
        let popup = layout(try currentServer())
        calls.append(.replace(popup))
        responders[index] = (popup.key, onResponse)
        return true
    }

    open func close(_ key: PopupKey) -> Bool {
        guard let index = responders.lastIndex(where: { $0.key == key }) else { return false }
        calls.append(.close(key))
        responders.remove(at: index)
        return true
    }

    open func showSideBySide(_ requests: [PopupRequest], then report: @escaping ([(any Error)?]) -> Void) {
        sideBySide.append(requests.count)
        let failures = showOneByOne(requests)
        if holdsAnswers {
            heldAnswers.append { report(failures) }
        } else {
            report(failures)
        }
    }

    /// Whether answers are held (`holdsAnswers`) until `giveAnswers()`.
    public var hasHeldAnswers: Bool { !heldAnswers.isEmpty }

    /// Gives the answers held (`holdsAnswers`) in order, and those asked for meanwhile.
    public func giveAnswers() {
        while !heldAnswers.isEmpty { heldAnswers.removeFirst()() }
    }

    open func canOpen(_ url: ActionURL) -> Bool {
        !unopenable.contains(url.string)
    }

    open func open(_ url: ActionURL) throws {
        calls.append(.open(url.string))
        if unopenable.contains(url.string) { throw TestSupportError("no application handles \(url.scheme) URLs") }
    }
}
