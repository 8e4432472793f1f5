import Foundation
import NotifySchedCore

/// A call on the daemon's control interface (`org.notify_sched.Daemon1`), decoded and checked:
/// what a local client may ask, with every value bounded before the daemon acts on it.
///
/// Any program of the session can call the interface, so its arguments are untrusted like a
/// feed: an event name, an id or a test popup's text longer than a person writes, a number of
/// occurrences or a delay past its range, an urgency or a URL that is not one, are refused
/// with a message that says which and why, and the daemon goes on.
public enum ControlCall: Sendable, Equatable {
    /// `PostEvent(s name)`.
    case postEvent(name: String)
    /// `List(u upcoming, u offset, u limit, s filter)`: the rows from `offset` on, `limit` at
    /// most, of the entries `filter` keeps.
    case list(upcoming: Int, offset: Int, limit: Int, filter: ListingFilter)
    /// `Status()`.
    case status
    /// `Handle(s id, b show_alert)`.
    case handle(occurrenceID: String, showAlert: Bool)
    /// `Snooze(s id, s span)`.
    case snooze(occurrenceID: String, Snooze)
    /// `Test(s title, s body, s action_label, s action_url, s urgency, s icon, s sound, s image,
    /// s timeout, b markup, u delay_seconds, b wait)`.
    case test(content: NotificationContent, delay: TimeSpan, wait: Bool)
    /// `Sync()`.
    case sync

    /// The interface's methods, by their names on the bus.
    public enum Method: String, Sendable, CaseIterable {
        case postEvent = "PostEvent"
        case list = "List"
        case status = "Status"
        case handle = "Handle"
        case snooze = "Snooze"
        case test = "Test"
        case sync = "Sync"
    }

    /// The most occurrences per entry `List` returns (`list --upcoming` has the same bound).
    public static let maximumUpcoming = 1000
    /// The most rows one `List` reply holds (fewer when they would pass `maximumListBytes`).
    public static let maximumListRows = 1000
    /// How large one `List` reply's rows may grow, in bytes of JSON, before the rest are left
    /// for the next page; a page always holds one row (a row is at most a few MiB: two feed
    /// strings and its occurrences), so a reply stays far under the bus's message limit.
    public static let maximumListBytes = 1 << 20
    /// The most sources, states or id patterns a `List` filter names.
    public static let maximumFilterItems = 64
    /// The longest event name or occurrence id, in UTF-8 bytes.
    public static let maximumNameBytes = 256
    /// The longest test popup title, body or label, in UTF-8 bytes.
    public static let maximumTextBytes = 64 * 1024
    /// The longest wait before a test popup.
    public static let maximumTestDelay = TimeSpan.days(1)

    /// Decodes a call of `method` with `arguments`; a test popup's URL must pass `urlPolicy`.
    ///
    /// - Throws: `ControlError` with `.badCall` naming the method and what is wrong.
    public init(method: String, arguments: [ControlValue], urlPolicy: URLPolicy) throws(ControlError) {
        guard let known = Method(rawValue: method) else {
            throw ControlError(.badCall, "the control interface has no method \(QuotedInput.quoted(method))")
        }
        let wrong = Self.bad(method, "wrong arguments (see the introspection data)")
        switch known {
        case .postEvent:
            guard arguments.count == 1, case .string(let name) = arguments[0] else { throw wrong }
            self = .postEvent(name: try Self.name(name, "the event name", of: method))
        case .list:
            guard arguments.count == 4, case .unsigned(let upcoming) = arguments[0],
                case .unsigned(let offset) = arguments[1], case .unsigned(let limit) = arguments[2],
                case .string(let filter) = arguments[3]
            else { throw wrong }
            guard (1...UInt32(Self.maximumUpcoming)).contains(upcoming) else {
                throw Self.bad(method, "upcoming must be between 1 and \(Self.maximumUpcoming)")
            }
            guard (1...UInt32(Self.maximumListRows)).contains(limit) else {
                throw Self.bad(method, "limit must be between 1 and \(Self.maximumListRows)")
            }
            self = .list(
                upcoming: Int(upcoming), offset: Int(offset), limit: Int(limit),
                filter: try Self.listingFilter(filter, of: method))
        case .status:
            guard arguments.isEmpty else { throw wrong }
            self = .status
        case .handle:
            guard arguments.count == 2, case .string(let id) = arguments[0], case .boolean(let showAlert) = arguments[1]
            else { throw wrong }
            self = .handle(occurrenceID: try Self.name(id, "the id", of: method), showAlert: showAlert)
        case .snooze:
            guard arguments.count == 2, case .string(let id) = arguments[0], case .string(let text) = arguments[1]
            else { throw wrong }
            self = .snooze(occurrenceID: try Self.name(id, "the id", of: method), try Self.snooze(text))
        case .test:
            let texts = arguments.prefix(9).compactMap { if case .string(let text) = $0 { text } else { nil } }
            guard arguments.count == 12, texts.count == 9, case .boolean(let markup) = arguments[9],
                case .unsigned(let delay) = arguments[10], case .boolean(let wait) = arguments[11]
            else { throw wrong }
            self = .test(
                content: try Self.testContent(texts, markup: markup, urlPolicy: urlPolicy),
                delay: try Self.delay(delay),
                wait: wait)
        case .sync:
            guard arguments.isEmpty else { throw wrong }
            self = .sync
        }
    }

    /// The method it calls.
    public var method: Method {
        switch self {
        case .postEvent: .postEvent
        case .list: .list
        case .status: .status
        case .handle: .handle
        case .snooze: .snooze
        case .test: .test
        case .sync: .sync
        }
    }

    /// Its arguments as the bus carries them, which `init(method:arguments:urlPolicy:)` reads back.
    public var arguments: [ControlValue] {
        switch self {
        case .postEvent(let name):
            return [.string(name)]
        case .list(let upcoming, let offset, let limit, let filter):
            // A filter is arrays of strings, whose encoding cannot fail.
            let filterJSON =
                filter == .all
                ? "" : (try? JSONEncoder().encode(filter)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return [
                .unsigned(UInt32(clamping: upcoming)), .unsigned(UInt32(clamping: offset)),
                .unsigned(UInt32(clamping: limit)), .string(filterJSON),
            ]
        case .status, .sync:
            return []
        case .handle(let id, let showAlert):
            return [.string(id), .boolean(showAlert)]
        case .snooze(let id, let snooze):
            let span =
                switch snooze {
                case .after(let span): "\(span.microseconds / 1_000_000)s"
                case .tomorrowMorning: "tomorrow"
                }
            return [.string(id), .string(span)]
        case .test(let content, let delay, let wait):
            let texts = [
                content.title, content.body, content.action?.label ?? "", content.action?.url.string ?? "",
                content.urgency.rawValue, content.icon ?? "", content.sound ?? "", content.image ?? "",
                content.timeout.map { "\($0.microseconds / 1000)ms" } ?? "",
            ]
            return texts.map(ControlValue.string) + [
                .boolean(content.markup), .unsigned(UInt32(clamping: delay.microseconds / 1_000_000)), .boolean(wait),
            ]
        }
    }

    private static func name(_ text: String, _ what: String, of method: String) throws(ControlError) -> String {
        guard !text.isEmpty else { throw bad(method, "\(what) is empty") }
        guard text.utf8.count <= maximumNameBytes else {
            throw bad(method, "\(what) is longer than \(maximumNameBytes) bytes")
        }
        return text
    }

    /// A `List` call's filter: empty for none, or a JSON object with the arrays `sources`,
    /// `states` and `ids` (each optional), of at most `maximumFilterItems` names each.
    private static func listingFilter(_ text: String, of method: String) throws(ControlError) -> ListingFilter {
        guard !text.isEmpty else { return .all }
        struct Lists: Decodable {
            var sources: [String]?
            var states: [String]?
            var ids: [String]?
        }
        let lists: Lists
        do {
            lists = try JSONDecoder().decode(Lists.self, from: Data(text.utf8))
        } catch {
            throw bad(method, "the filter is not a JSON object of sources, states and ids")
        }
        var filter = ListingFilter()
        // A source is a path or a URL, which may be longer than a name.
        for (list, name, longest, keyPath) in [
            (lists.sources, "sources", 4096, \ListingFilter.sources),
            (lists.states, "states", maximumNameBytes, \.states),
            (lists.ids, "ids", maximumNameBytes, \.ids),
        ] {
            let items = list ?? []
            guard items.count <= maximumFilterItems else {
                throw bad(method, "the filter names more than \(maximumFilterItems) \(name)")
            }
            if items.contains(where: { $0.isEmpty || $0.utf8.count > longest }) {
                throw bad(method, "the filter's \(name) must be 1 to \(longest) bytes long each")
            }
            filter[keyPath: keyPath] = items
        }
        return filter
    }

    /// The popup of a `Test` call's nine strings: title, body, action label and URL, urgency,
    /// icon, sound, image and timeout (empty for none, or the server's default).
    private static func testContent(
        _ texts: [String], markup: Bool, urlPolicy: URLPolicy
    ) throws(ControlError) -> NotificationContent {
        let (title, body, label, url, urgencyName) = (texts[0], texts[1], texts[2], texts[3], texts[4])
        let (icon, sound, image, timeoutText) = (texts[5], texts[6], texts[7], texts[8])
        let names = [
            "the title", "the body", "the action label", "the action URL", "the urgency", "the icon",
            "the sound", "the image", "the timeout",
        ]
        for (text, what) in zip(texts, names) where text.utf8.count > maximumTextBytes {
            throw bad("Test", "\(what) is longer than \(maximumTextBytes) bytes")
        }
        var timeout: TimeSpan?
        if !timeoutText.isEmpty {
            guard let span = TimeSpan.parse(timeoutText), span <= NotificationContent.longestTimeout else {
                throw bad("Test", "timeout \(QuotedInput.quoted(timeoutText)) is not a duration of at most 24 days")
            }
            timeout = span
        }
        guard image.isEmpty || NotificationContent.isImageLocation(image) else {
            throw bad("Test", "image \(QuotedInput.quoted(image)) is not an absolute path or a file:// URI")
        }
        guard let urgency = Urgency(rawValue: urgencyName.isEmpty ? "normal" : urgencyName) else {
            throw bad("Test", "urgency \(QuotedInput.quoted(urgencyName)) is not low, normal or critical")
        }
        var action: NotificationAction?
        if !url.isEmpty {
            do {
                action = NotificationAction(
                    label: label.isEmpty ? nil : label, url: try ActionURL(url, policy: urlPolicy))
            } catch {
                throw bad("Test", error.message, underlyingError: error)
            }
        }
        return NotificationContent(
            title: title, body: body, icon: icon.isEmpty ? nil : icon, urgency: urgency, action: action,
            timeout: timeout, sound: sound.isEmpty ? nil : sound, image: image.isEmpty ? nil : image, markup: markup)
    }

    /// A snooze: `tomorrow`, or a duration (`10min`, `1h`, `2d`) of at least a second and at
    /// most a year (`Snooze`).
    public static func snooze(_ text: String) throws(ControlError) -> Snooze {
        guard let snooze = Snooze(parsing: text) else {
            throw bad(
                "Snooze",
                "\(QuotedInput.quoted(text)) is neither tomorrow nor a duration from 1s to 366d (such as 10min, 1h, 2d)"
            )
        }
        return snooze
    }

    private static func delay(_ seconds: UInt32) throws(ControlError) -> TimeSpan {
        let delay = TimeSpan.seconds(Int64(seconds))
        guard delay <= maximumTestDelay else {
            throw bad("Test", "delay_seconds must be at most \(maximumTestDelay.seconds) (a day)")
        }
        return delay
    }

    private static func bad(_ method: String, _ what: String, underlyingError: (any Error)? = nil) -> ControlError {
        ControlError(.badCall, "\(method): \(what)", underlyingError: underlyingError)
    }
}
