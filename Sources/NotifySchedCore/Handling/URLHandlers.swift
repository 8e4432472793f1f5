/// The URL schemes the desktop has a default handler for, as the daemon found them when an
/// event came: what "can this URL be opened" (iNotify's `canOpenURL`) answers, as data, so that
/// a decision reads no desktop and an event can be recorded and replayed.
public struct URLHandlers: Sendable, Equatable {
    /// The schemes with a handler, lower-case as `ActionURL.scheme` is.
    public var schemes: Set<String>

    public init(schemes: Set<String>) {
        self.schemes = schemes
    }

    /// Whether something on the desktop opens `url`.
    ///
    /// - Complexity: O(1).
    public func open(_ url: ActionURL) -> Bool {
        schemes.contains(url.scheme)
    }
}
