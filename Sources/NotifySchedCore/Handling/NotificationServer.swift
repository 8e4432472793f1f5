/// The desktop's notification server, as it describes itself on the bus
/// (`GetServerInformation` and `GetCapabilities` of the freedesktop notification spec).
public struct NotificationServer: Sendable, Equatable {
    public var name: String
    public var vendor: String
    public var version: String
    /// The version of the notification spec the server implements.
    public var specVersion: String
    /// What the server can do: `actions`, `body`, `body-markup`, `persistence`, …
    public var capabilities: Set<String>

    public init(name: String, vendor: String, version: String, specVersion: String, capabilities: Set<String>) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.specVersion = specVersion
        self.capabilities = capabilities
    }

    /// The server shows buttons and reports which one was pressed.
    public var showsButtons: Bool { capabilities.contains("actions") }
    /// The server shows a body at all.
    public var showsBody: Bool { capabilities.contains("body") }
    /// The server reads the body as markup, so plain text must be escaped.
    public var readsMarkup: Bool { capabilities.contains("body-markup") }

    /// `name version (vendor; capabilities)`, for status lines.
    public var summary: String {
        "\(name) \(version) (\(vendor); \(capabilities.sorted().joined(separator: " ")))"
    }
}
