/// A suppression's reason as `list --json` and `history --json` give it (`reason`).
public struct SuppressionReport: Codable, Equatable, Sendable {
    /// What a program matches (`Suppression.code`): `frequency`, `group-frequency`,
    /// `group-disabled` or `max-popups`.
    public var code: String
    /// The cap reached, for the caps.
    public var cap: Int?
    /// Its window in seconds; nil for a lifetime cap (and for a disabled group).
    public var period: Int64?
    /// The group, for a group's reason.
    public var group: String?
    /// For `max-popups`: `source` for the source's own bound, `global` for all sources'.
    public var scope: String?
    /// The reason in words.
    public var message: String

    public init(_ suppression: Suppression) {
        code = suppression.code
        cap = suppression.limit?.cap
        period = suppression.limit?.period?.seconds
        group = suppression.group
        if case .popupBound(let source, _) = suppression { scope = source == nil ? "global" : "source" }
        message = suppression.words
    }
}
