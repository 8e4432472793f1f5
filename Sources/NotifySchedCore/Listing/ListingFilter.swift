/// Which entries a listing keeps: those of the named sources, in the named states, whose ids
/// match one of the shell patterns; an empty list keeps all.
public struct ListingFilter: Codable, Equatable, Sendable {
    /// Source locations (paths or URLs).
    public var sources: [String]
    /// `pending` or a ledger outcome (`LedgerOutcome`).
    public var states: [String]
    /// Shell patterns (`fnmatch`), such as `news-*`.
    public var ids: [String]

    /// Keeps every entry.
    public static let all = ListingFilter()

    public init(sources: [String] = [], states: [String] = [], ids: [String] = []) {
        self.sources = sources
        self.states = states
        self.ids = ids
    }
}
