/// A suppression's reason as `list --json` and `history --json` give it (`reason`), and why an
/// occurrence does not show as `preview --json` gives it.
public struct SuppressionReport: Codable, Equatable, Sendable {
    /// What a program matches (`Suppression.code`): `targeting`, `rollout`, `frequency`,
    /// `group-frequency`, `group-disabled` or `max-popups`.
    public var code: String
    /// The cap reached, for the caps.
    public var cap: Int?
    /// Its window in seconds; nil for a lifetime cap (and for a disabled group).
    public var period: Int64?
    /// The group, for a group's reason.
    public var group: String?
    /// For `max-popups`: `source` for the source's own bound, `global` for all sources'.
    public var scope: String?
    /// For `rollout`: the range (`namespace`, `start`, `count` buckets of `total`) and the
    /// desktop's bucket outside it.
    public var rollout: RolloutReport?
    /// For `targeting`: the expression, the members of the context it read with their values
    /// as JSON text, and why it could not be evaluated, when it could not.
    public var targeting: TargetingReport?
    /// The reason in words.
    public var message: String

    public init(_ suppression: Suppression) {
        code = suppression.code
        cap = suppression.limit?.cap
        period = suppression.limit?.period?.seconds
        group = suppression.group
        if case .popupBound(let source, _) = suppression { scope = source == nil ? "global" : "source" }
        if case .outsideRollout(let range, let bucket?) = suppression { rollout = RolloutReport(range, bucket: bucket) }
        if case .targeting(let verdict) = suppression {
            targeting = TargetingReport(
                expression: verdict.expression,
                values: Dictionary(verdict.values.map { ($0.path, $0.value) }, uniquingKeysWith: { first, _ in first }),
                failure: verdict.failure)
        }
        message = suppression.words
    }

    /// Why an occurrence of a preview does not show: a suppression's report, or the reason's
    /// code and words.
    public init(_ reason: TimelineReason) {
        if case .suppression(let suppression) = reason {
            self.init(suppression)
        } else {
            self.init(code: reason.code, message: reason.words)
        }
    }

    /// Why an entry has no occurrence in a preview's window.
    public init(_ quiet: QuietEntry) {
        self.init(code: quiet.code, message: quiet.words)
    }

    private init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}

/// A targeting expression that held an occurrence back, as `list --json` and `history --json` give it.
public struct TargetingReport: Codable, Equatable, Sendable {
    public var expression: String
    /// The members of the context it read (`tags`, `server.name`), each with its value as JSON text.
    public var values: [String: String]
    public var failure: String?
}

/// A rollout and this desktop's bucket in it, as `status --json` and a suppression's `reason` give them.
public struct RolloutReport: Codable, Equatable, Sendable {
    public var namespace: String
    public var start: Int
    public var count: Int
    public var total: Int
    /// This desktop's bucket in the namespace, from 0 to `total` - 1.
    public var bucket: Int
    /// Whether the bucket is in the range: the entry shows on this desktop.
    public var inRange: Bool

    public init(_ rollout: Rollout, bucket: Int) {
        namespace = rollout.namespace
        start = rollout.start
        count = rollout.count
        total = rollout.total
        self.bucket = bucket
        inRange = (bucket - rollout.start % rollout.total + rollout.total) % rollout.total < rollout.count
    }
}
