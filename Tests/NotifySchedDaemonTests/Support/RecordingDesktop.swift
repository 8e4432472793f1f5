import NotifySchedCore
import NotifySchedDaemon
import NotifySchedTesting

/// The desktop as the embedded driver sees it: a recording notifier (`RecordingNotifier`) that
/// gives each popup an id and notes the instant the server took it, with a server a test can
/// take away and bring back, and popups that stay on screen when the daemon is killed.
final class RecordingDesktop: RecordingNotifier, DesktopPort {
    /// A popup the server took, and when.
    struct Shown: Equatable, CustomStringConvertible {
        var popup: Popup
        /// The instant its call reached the server: the clock's, or later when the calls were
        /// held until a due time (`holdingCalls(until:_:)`).
        var at: Instant
        /// A popup of an occurrence to deliver, rather than one shown again in place: taken over
        /// by a new daemon (under the id of the popup a killed daemon left), or changed.
        var isDelivery = true
        var description: String { "\(popup.role) \(popup.occurrenceID) at \(at.rfc3339)" }
    }

    var onServerChange: (NotificationServer?) -> Void = { _ in }
    private let clock: ManualClock
    private(set) var shown: [Shown] = []
    /// The id the server gave each popup on screen.
    private var ids: [PopupKey: UInt32] = [:]
    private var lastID: UInt32 = 0
    private var callsNotBefore: Instant?
    /// How many times the server started: a popup of an earlier start is gone.
    private var serverStarts = 1
    /// Schemes the desktop has no handler for.
    var unhandledSchemes: Set<String> = []
    /// Whether the daemon dies in the middle of its next new popup: the server takes it, and
    /// the daemon hears that it failed and shows or closes nothing more until it is killed
    /// (`crashed`).
    var crashesOnNextPopup = false
    /// Whether the daemon died in the middle of a popup and waits to be killed.
    private(set) var crashed = false

    init(clock: ManualClock) {
        self.clock = clock
        super.init()
    }

    var serverInstance: String? { server == nil ? nil : "recording \(serverStarts)" }

    func popupID(of key: PopupKey) -> UInt32? {
        waitingKeys.contains(key) ? ids[key] : nil
    }

    var popupIDs: [PopupKey: UInt32] {
        Dictionary(uniqueKeysWithValues: waitingKeys.compactMap { key in ids[key].map { (key, $0) } })
    }

    func awaitAnswers(stopping: Bool) {
        giveAnswers()
    }

    func urlHandlers(among schemes: Set<String>) -> URLHandlers {
        URLHandlers(schemes: schemes.subtracting(unhandledSchemes))
    }

    func holdingCalls<Result>(until instant: Instant, _ body: () -> Result) -> Result {
        let outer = callsNotBefore
        callsNotBefore = instant
        defer { callsNotBefore = outer }
        return body()
    }

    override func show(
        _ layout: @escaping (NotificationServer) -> Popup, replacing popupID: UInt32?,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws {
        try refuseWhileCrashed()
        try super.show(layout, replacing: popupID, onResponse: onResponse)
        guard case .show(let popup) = calls.last else { return }
        // In place of a popup of this server still on screen, under its id; else a new one.
        let onScreen = popupID.flatMap { id in ids.first { $0.value == id }?.key }
        if let onScreen, onScreen != popup.key {
            ids[onScreen] = nil
            forgetResponder(of: onScreen)
        }
        ids[popup.key] = onScreen == nil ? newID() : popupID
        let isDelivery = onScreen == nil
        shown.append(Shown(popup: popup, at: max(clock.now, callsNotBefore ?? clock.now), isDelivery: isDelivery))
        if isDelivery, popup.role == .scheduled { try crashIfDue() }
    }

    override func replace(
        _ key: PopupKey, with layout: @escaping (NotificationServer) -> Popup,
        onResponse: @escaping (PopupResponse) -> Void
    ) throws -> Bool {
        try refuseWhileCrashed()
        guard try super.replace(key, with: layout, onResponse: onResponse), case .replace(let popup) = calls.last else {
            return false
        }
        // Under the id of the popup it replaces.
        ids[popup.key] = ids.removeValue(forKey: key)
        let isDelivery = popup.key != key
        shown.append(Shown(popup: popup, at: max(clock.now, callsNotBefore ?? clock.now), isDelivery: isDelivery))
        if isDelivery, popup.role == .scheduled { try crashIfDue() }
        return true
    }

    private func refuseWhileCrashed() throws {
        if crashed { throw TestSupportError("the daemon is dying") }
    }

    private func crashIfDue() throws {
        guard crashesOnNextPopup else { return }
        crashesOnNextPopup = false
        crashed = true
        throw TestSupportError("the daemon died in the middle of this popup")
    }

    override func close(_ key: PopupKey) -> Bool {
        // A daemon that is dying closes nothing more.
        guard !crashed else { return false }
        ids[key] = nil
        return super.close(key)
    }

    /// The daemon was killed: its popups stay on screen under their ids, and nobody hears them.
    func daemonKilled() {
        forgetResponders()
        crashed = false
        onServerChange = { _ in }
    }

    /// The notification server goes away.
    func serverGoes() {
        server = nil
        onServerChange(nil)
    }

    /// A notification server starts again: the popups waiting for an answer show there again,
    /// under new ids, as the desktop's notifier shows them.
    func serverComes() {
        server = RecordingNotifier.fullServer
        serverStarts += 1
        ids = Dictionary(uniqueKeysWithValues: waitingKeys.map { ($0, newID()) })
        onServerChange(server)
    }

    private func newID() -> UInt32 {
        lastID += 1
        return lastID
    }
}
