/// Why reading or checking a source failed, as the core takes it (`CheckOutcome.failed`) and
/// a source's health keeps it: the code of the error that said so, which a program can match
/// (`network.unreachable`, `network.http-status`, `feed.bad-signature`, `store.failed`, …), and a
/// line naming the location for a person.
public struct CheckFailure: Sendable, Hashable, CustomStringConvertible {
    /// The failing error's code.
    public var code: String
    /// One line that starts with the path or URL.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// A failure with the code of an error of any module, and `message` for a person.
    public init<Domain>(_ code: ErrorCode<Domain>, _ message: String) {
        self.init(code: code.rawValue, message: message)
    }

    public var description: String { message }

    /// The code of a failure whose cause named none: the feed was missing or empty.
    public static let noFeedCode = "feed.none"
}
