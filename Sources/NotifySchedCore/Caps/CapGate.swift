/// Whether a due occurrence may be shown under the caps: the entry's groups and frequency
/// (from its feed) and the user's `max-popups` (from the configuration), against the
/// impressions so far. Pure: the core asks it before each popup it shows.
public struct CapGate: Sendable {
    /// The user's bound on all popups together; nil for none.
    public var globalBound: PopupBound?
    /// The user's bound on each source's popups, by the source's location.
    public var sourceBounds: [String: PopupBound]

    public init(globalBound: PopupBound? = nil, sourceBounds: [String: PopupBound] = [:]) {
        self.globalBound = globalBound
        self.sourceBounds = sourceBounds
    }

    /// The bounds `configuration` sets.
    public init(_ configuration: Configuration) {
        var bounds: [String: PopupBound] = [:]
        for source in configuration.sources {
            if let bound = source.maxPopups { bounds[source.feed] = bound }
        }
        self.init(globalBound: configuration.maxPopups, sourceBounds: bounds)
    }

    /// Why showing `entry` of `source` at `now` would break a cap; nil when it may be shown.
    /// In order: a disabled group, the entry's frequency, its groups' frequencies (in the
    /// order the entry names them), the source's bound, the global bound.
    ///
    /// - Parameter groups: The groups the entry's feed defines.
    public func suppression(
        of entry: ScheduleEntry, source: String, groups: [MessageGroup], log: ImpressionLog, at now: Instant
    ) -> Suppression? {
        if let rules = entry.deliveryRules {
            let named = rules.groups.compactMap { id in groups.first { $0.id == id } }
            if let disabled = named.first(where: { !$0.enabled }) { return .groupDisabled(group: disabled.id) }
            if let limit = rules.frequency?.reached(by: log.shown(entryID: entry.id, source: source), at: now) {
                return .entryCap(limit)
            }
            for group in named {
                if let limit = group.frequency?.reached(by: log.shown(group: group.id, source: source), at: now) {
                    return .groupCap(group: group.id, limit)
                }
            }
        }
        guard entry.content.urgency != .critical else { return nil }
        if let bound = sourceBounds[source], log.shownAfter(now - bound.period, source: source) >= bound.count {
            return .popupBound(source: source, CapLimit(cap: bound.count, period: bound.period))
        }
        if let bound = globalBound, log.shownAfter(now - bound.period) >= bound.count {
            return .popupBound(source: nil, CapLimit(cap: bound.count, period: bound.period))
        }
        return nil
    }
}
