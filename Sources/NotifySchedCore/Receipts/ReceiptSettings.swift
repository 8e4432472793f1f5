/// Whether a source sends receipts, and where: the user's `receipts` and `receipts-endpoint`
/// (docs/configuration.md), global or per source. Receipts are off unless the user turns them on.
public struct ReceiptSettings: Sendable, Equatable {
    /// What a source sends: nothing, or counts (`receipts = none | counts`).
    public enum Mode: String, Sendable, CaseIterable {
        case none
        case counts
    }

    /// The default is `.none`.
    public var mode: Mode
    /// The OTLP/HTTP logs URL receipts are posted to, as written (`https://…/v1/logs`); nil
    /// when the configuration names none.
    public var endpoint: String?

    public init(mode: Mode = .none, endpoint: String? = nil) {
        self.mode = mode
        self.endpoint = endpoint
    }

    /// Where receipts go: the configured `endpoint`, else the one a signed feed names
    /// (`feed`); nil when receipts are off, or no endpoint is known.
    public func destination(feed: FeedReceipts?) -> String? {
        mode == .counts ? endpoint ?? feed?.endpoint : nil
    }

    /// Reads `receipts-endpoint`: an `http(s)://` URL with a host.
    ///
    /// - Returns: The URL as written, or nil when it is not one.
    public static func endpoint(parsing value: String) -> String? {
        let lower = value.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), SourceLocation.normalizedURL(value) != nil,
            !value.contains(where: { $0 == " " || $0.isNewline })
        else { return nil }
        return value
    }
}

extension Configuration {
    /// The sources whose receipts the user turned on (`receipts = counts`), by their feed's
    /// location: only theirs are kept and sent.
    public var receiptSources: Set<String> {
        Set(sources.filter { $0.settings.receipts.mode == .counts }.map(\.feed))
    }

    /// Where each source whose receipts are on sends them as the configuration says
    /// (`receipts-endpoint`), by its feed's location.
    public var receiptEndpoints: [String: String] {
        var endpoints: [String: String] = [:]
        for source in sources where source.settings.receipts.mode == .counts {
            endpoints[source.feed] = source.settings.receipts.endpoint
        }
        return endpoints
    }
}
