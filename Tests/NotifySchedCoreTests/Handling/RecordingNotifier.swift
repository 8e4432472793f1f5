import NotifySchedCore

/// A `Notifier` that shows nothing: it records each popup and URL, and lets a test answer
/// popups the way a person at the desktop would.
final class RecordingNotifier: Notifier {
    /// What the notifier was asked to do, in order.
    enum Call: Equatable {
        case show(Popup)
        case replace(Popup)
        case close(PopupKey)
        case open(String)
    }

    var server: NotificationServer?
    /// URLs whose opening fails, as when no handler is registered for them.
    var unopenable: Set<String> = []
    private(set) var calls: [Call] = []
    /// How many popups each `showSideBySide` was given, in order.
    private(set) var sideBySide: [Int] = []
    /// Whether `showSideBySide` holds its answers until `giveAnswers()`, as a notifier does
    /// whose loop goes on while the server answers.
    var holdsAnswers = false
    private var heldAnswers: [() -> Void] = []
    /// The popups waiting for an answer, oldest first, with their responders.
    private var responders: [(key: PopupKey, respond: (PopupResponse) -> Void)] = []

    init(server: NotificationServer? = RecordingNotifier.fullServer) {
        self.server = server
    }

    /// A server with every capability notify-sched adapts to.
    static let fullServer = NotificationServer(
        name: "recording", vendor: "tests", version: "1", specVersion: "1.2",
        capabilities: ["actions", "body", "body-markup", "persistence"])

    var shownPopups: [Popup] {
        calls.compactMap { if case .show(let popup) = $0 { popup } else { nil } }
    }

    var openedURLs: [String] {
        calls.compactMap { if case .open(let url) = $0 { url } else { nil } }
    }

    /// Answers the last popup shown.
    func answer(_ response: PopupResponse) {
        responders.removeLast().respond(response)
    }

    /// Answers the popup `key`, as a person at the desktop would.
    func answer(_ key: PopupKey, _ response: PopupResponse) {
        guard let index = responders.lastIndex(where: { $0.key == key }) else { return }
        responders.remove(at: index).respond(response)
    }

    /// The popups waiting for an answer, oldest first.
    var waitingKeys: [PopupKey] { responders.map(\.key) }

    func currentServer() throws -> NotificationServer {
        guard let server else { throw TestFailure("no server") }
        return server
    }

    func show(
        _ layout: @escaping (NotificationServer) -> Popup, replacing popupID: UInt32?,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws {
        let popup = layout(try currentServer())
        calls.append(.show(popup))
        responders.append((popup.key, onResponse))
    }

    func replace(
        _ key: PopupKey, with layout: @escaping (NotificationServer) -> Popup,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws -> Bool {
        guard let index = responders.lastIndex(where: { $0.key == key }) else { return false }
        let popup = layout(try currentServer())
        calls.append(.replace(popup))
        responders[index] = (popup.key, onResponse)
        return true
    }

    func close(_ key: PopupKey) -> Bool {
        guard let index = responders.lastIndex(where: { $0.key == key }) else { return false }
        calls.append(.close(key))
        responders.remove(at: index)
        return true
    }

    func showSideBySide(_ requests: [PopupRequest], then report: @escaping ([(any Error)?]) -> Void) {
        sideBySide.append(requests.count)
        let failures = showOneByOne(requests)
        if holdsAnswers {
            heldAnswers.append { report(failures) }
        } else {
            report(failures)
        }
    }

    /// Gives the answers held (`holdsAnswers`) in order, and those asked for meanwhile.
    func giveAnswers() {
        while !heldAnswers.isEmpty { heldAnswers.removeFirst()() }
    }

    func canOpen(_ url: ActionURL) -> Bool {
        !unopenable.contains(url.string)
    }

    func open(_ url: ActionURL) throws {
        calls.append(.open(url.string))
        if unopenable.contains(url.string) { throw TestFailure("no application handles \(url.scheme) URLs") }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Occurrences of each dialect, as the handling tests use them.
enum Occurrences {
    static let policy = URLPolicy()
    static let moment = Instant(secondsSinceEpoch: 1_800_000_000)

    static func url(_ text: String) -> ActionURL {
        try! ActionURL(text, policy: policy)
    }

    static func make(
        _ dialect: FeedDialect, id: String = "occ-1", entry: String = "2011/02/01", source: String = "feed",
        title: String = "New version", body: String = "Get it now", label: String? = nil, url: String? = nil,
        news: NewsHandling? = nil
    ) -> DeliveredOccurrence {
        DeliveredOccurrence(
            id: id, source: source, entryID: entry, dialect: dialect,
            content: NotificationContent(
                title: title, body: body, action: url.map { NotificationAction(label: label, url: Occurrences.url($0)) }
            ),
            news: news, deliveredAt: moment)
    }
}
