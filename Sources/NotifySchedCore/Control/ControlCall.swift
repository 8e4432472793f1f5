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
    /// `List(u upcoming)`.
    case list(upcoming: Int)
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

    /// A call's argument, as D-Bus carries it.
    public enum Argument: Sendable, Equatable {
        case string(String)
        case boolean(Bool)
        case unsigned(UInt32)
    }

    /// The most occurrences per entry `List` returns (`list --upcoming` has the same bound).
    public static let maximumUpcoming = 1000
    /// The longest event name or occurrence id, in UTF-8 bytes.
    public static let maximumNameBytes = 256
    /// The longest test popup title, body or label, in UTF-8 bytes.
    public static let maximumTextBytes = 64 * 1024
    /// The longest wait before a test popup.
    public static let maximumTestDelay = TimeSpan.days(1)

    /// Decodes a call of `method` with `arguments`; a test popup's URL must pass `urlPolicy`.
    ///
    /// - Throws: `CoreError` with `.badCall` naming the method and what is wrong.
    public init(method: String, arguments: [Argument], urlPolicy: URLPolicy) throws(CoreError) {
        let wrong = Self.bad(method, "wrong arguments (see the introspection data)")
        switch method {
        case "PostEvent":
            guard arguments.count == 1, case .string(let name) = arguments[0] else { throw wrong }
            self = .postEvent(name: try Self.name(name, "the event name", of: method))
        case "List":
            guard arguments.count == 1, case .unsigned(let upcoming) = arguments[0] else { throw wrong }
            guard (1...UInt32(Self.maximumUpcoming)).contains(upcoming) else {
                throw Self.bad(method, "upcoming must be between 1 and \(Self.maximumUpcoming)")
            }
            self = .list(upcoming: Int(upcoming))
        case "Status":
            guard arguments.isEmpty else { throw wrong }
            self = .status
        case "Handle":
            guard arguments.count == 2, case .string(let id) = arguments[0], case .boolean(let showAlert) = arguments[1]
            else { throw wrong }
            self = .handle(occurrenceID: try Self.name(id, "the id", of: method), showAlert: showAlert)
        case "Snooze":
            guard arguments.count == 2, case .string(let id) = arguments[0], case .string(let text) = arguments[1]
            else { throw wrong }
            self = .snooze(occurrenceID: try Self.name(id, "the id", of: method), try Self.snooze(text))
        case "Test":
            let texts = arguments.prefix(9).compactMap { if case .string(let text) = $0 { text } else { nil } }
            guard arguments.count == 12, texts.count == 9, case .boolean(let markup) = arguments[9],
                case .unsigned(let delay) = arguments[10], case .boolean(let wait) = arguments[11]
            else { throw wrong }
            self = .test(
                content: try Self.testContent(texts, markup: markup, urlPolicy: urlPolicy),
                delay: try Self.delay(delay),
                wait: wait)
        case "Sync":
            guard arguments.isEmpty else { throw wrong }
            self = .sync
        default:
            throw CoreError(.badCall, "the control interface has no method \(QuotedInput.quoted(method))")
        }
    }

    private static func name(_ text: String, _ what: String, of method: String) throws(CoreError) -> String {
        guard !text.isEmpty else { throw bad(method, "\(what) is empty") }
        guard text.utf8.count <= maximumNameBytes else {
            throw bad(method, "\(what) is longer than \(maximumNameBytes) bytes")
        }
        return text
    }

    /// The popup of a `Test` call's nine strings: title, body, action label and URL, urgency,
    /// icon, sound, image and timeout (empty for none, or the server's default).
    private static func testContent(
        _ texts: [String], markup: Bool, urlPolicy: URLPolicy
    ) throws(CoreError) -> NotificationContent {
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
                throw bad("Test", error.message)
            }
        }
        return NotificationContent(
            title: title, body: body, icon: icon.isEmpty ? nil : icon, urgency: urgency, action: action,
            timeout: timeout, sound: sound.isEmpty ? nil : sound, image: image.isEmpty ? nil : image, markup: markup)
    }

    /// A snooze: `tomorrow`, or a duration (`10min`, `1h`, `2d`) of at least a second and at
    /// most a year (`Snooze`).
    public static func snooze(_ text: String) throws(CoreError) -> Snooze {
        guard let snooze = Snooze(parsing: text) else {
            throw bad(
                "Snooze",
                "\(QuotedInput.quoted(text)) is neither tomorrow nor a duration from 1s to 366d (such as 10min, 1h, 2d)"
            )
        }
        return snooze
    }

    private static func delay(_ seconds: UInt32) throws(CoreError) -> TimeSpan {
        let delay = TimeSpan.seconds(Int64(seconds))
        guard delay <= maximumTestDelay else {
            throw bad("Test", "delay_seconds must be at most \(maximumTestDelay.seconds) (a day)")
        }
        return delay
    }

    private static func bad(_ method: String, _ what: String) -> CoreError {
        CoreError(.badCall, "\(method): \(what)")
    }
}
