/// Why a due occurrence was not shown, as the ledger records it (`LedgerOutcome.suppressed`)
/// and `list` and `history` give it: a capped occurrence is skipped, not deferred.
public enum Suppression: Sendable, Hashable {
    /// The entry's `targeting` is false on this desktop, or could not be evaluated.
    case targeting(TargetingVerdict)
    /// The desktop's bucket (`Rollout.bucket(of:)`) is outside the entry's `rollout`; nil
    /// when the desktop has no install id to place it.
    case outsideRollout(Rollout, bucket: Int?)
    /// The entry's own `frequency` reached this bound.
    case entryCap(CapLimit)
    /// The `frequency` of a group the entry belongs to reached this bound.
    case groupCap(group: String, CapLimit)
    /// A group the entry belongs to is disabled.
    case groupDisabled(group: String)
    /// The user's `max-popups` reached this bound: the source's own (`source` set) or the
    /// global one.
    case popupBound(source: String?, CapLimit)

    /// What a program matches: `targeting`, `rollout`, `frequency`, `group-frequency`,
    /// `group-disabled`, `max-popups`.
    public var code: String {
        switch self {
        case .targeting: "targeting"
        case .outsideRollout: "rollout"
        case .entryCap: "frequency"
        case .groupCap: "group-frequency"
        case .groupDisabled: "group-disabled"
        case .popupBound: "max-popups"
        }
    }

    /// The bound reached, for the caps.
    public var limit: CapLimit? {
        switch self {
        case .entryCap(let limit), .groupCap(_, let limit), .popupBound(_, let limit): limit
        case .groupDisabled, .outsideRollout, .targeting: nil
        }
    }

    /// The group, for a group's reason.
    public var group: String? {
        switch self {
        case .groupCap(let group, _), .groupDisabled(let group): group
        case .entryCap, .popupBound, .outsideRollout, .targeting: nil
        }
    }

    /// A line a person reads: `its frequency allows 1 per 1 day`.
    public var words: String {
        switch self {
        case .targeting(let verdict): verdict.words
        case .outsideRollout(let rollout, let bucket?):
            "this desktop's bucket \(bucket) is outside \(rollout.words)"
        case .outsideRollout(let rollout, nil):
            "this desktop has no install id to place it in \(rollout.words)"
        case .entryCap(let limit): "its frequency allows \(limit.words)"
        case .groupCap(let group, let limit): "group \"\(group)\" allows \(limit.words)"
        case .groupDisabled(let group): "group \"\(group)\" is disabled"
        case .popupBound(let source, let limit):
            "max-popups allows \(limit.words)" + (source == nil ? " in all" : " from this source")
        }
    }

    /// The stored form: the code, the cap and the period in microseconds (`-` for none), then
    /// the group or the source (`*` for the global bound) as the rest; for a rollout, the code,
    /// its start, count and total, the bucket, then the namespace as the rest.
    public var encoded: String {
        if case .targeting(let verdict) = self { return "\(code) \(verdict.encoded)" }
        if case .outsideRollout(let rollout, let bucket) = self {
            let placed = bucket.map(String.init) ?? "-"
            return "\(code) \(rollout.start) \(rollout.count) \(rollout.total) \(placed) \(rollout.namespace)"
        }
        let cap = limit.map { "\($0.cap) \($0.period.map { String($0.microseconds) } ?? "-")" } ?? "- -"
        let rest: String =
            switch self {
            case .entryCap, .outsideRollout, .targeting: ""
            case .groupCap(let group, _), .groupDisabled(let group): group
            case .popupBound(let source, _): source ?? "*"
            }
        return "\(code) \(cap) \(rest)"
    }

    /// The reason `encoded` stored; nil for text this version does not read.
    public init?(encoded: String) {
        if encoded.hasPrefix("targeting ") {
            guard let verdict = TargetingVerdict(encoded: encoded.dropFirst("targeting ".count)) else { return nil }
            self = .targeting(verdict)
            return
        }
        if encoded.hasPrefix("rollout ") {
            let parts = encoded.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: false)
            guard parts.count == 6, let start = Int(parts[1]), let count = Int(parts[2]), let total = Int(parts[3])
            else { return nil }
            self = .outsideRollout(
                Rollout(namespace: String(parts[5]), start: start, count: count, total: total), bucket: Int(parts[4]))
            return
        }
        let parts = encoded.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else { return nil }
        let limit = Int(parts[1]).map { cap in
            CapLimit(cap: cap, period: Int64(parts[2]).map(TimeSpan.init(microseconds:)))
        }
        switch (parts[0], limit) {
        case ("frequency", let limit?): self = .entryCap(limit)
        case ("group-frequency", let limit?): self = .groupCap(group: parts[3], limit)
        case ("group-disabled", nil): self = .groupDisabled(group: parts[3])
        case ("max-popups", let limit?): self = .popupBound(source: parts[3] == "*" ? nil : parts[3], limit)
        default: return nil
        }
    }
}
