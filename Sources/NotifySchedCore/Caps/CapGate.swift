/// Whether a due occurrence may be shown under the caps: the entry's groups and frequency
/// (from its feed) and the user's `max-popups` (from the configuration), against the
/// impressions so far. Pure: the core asks it before each popup it shows.
public struct CapGate: Sendable {
    /// The user's bound on all popups together; nil for none.
    public var globalBound: PopupBound?
    /// The user's bound on each source's popups, by the source's location.
    public var sourceBounds: [String: PopupBound]
    /// The desktop's install id, which places it in each rollout's buckets; nil for none: no
    /// entry with a rollout shows.
    public var installID: String?
    /// What targeting expressions may ask of this desktop.
    public var environment: TargetingEnvironment
    /// The user's tags for each source, by its location: the global `tags` and the source's own.
    public var tags: [String: [String]]
    /// Each source's `application-version`, by its location.
    public var applicationVersions: [String: String]

    public init(
        globalBound: PopupBound? = nil, sourceBounds: [String: PopupBound] = [:], installID: String? = nil,
        environment: TargetingEnvironment = TargetingEnvironment(), tags: [String: [String]] = [:],
        applicationVersions: [String: String] = [:]
    ) {
        self.globalBound = globalBound
        self.sourceBounds = sourceBounds
        self.installID = installID
        self.environment = environment
        self.tags = tags
        self.applicationVersions = applicationVersions
    }

    /// The bounds and tags `configuration` sets, on the desktop with `installID` in `environment`.
    public init(_ configuration: Configuration, installID: String?, environment: TargetingEnvironment) {
        var bounds: [String: PopupBound] = [:]
        var tags: [String: [String]] = [:]
        var versions: [String: String] = [:]
        for source in configuration.sources {
            if let bound = source.maxPopups { bounds[source.feed] = bound }
            tags[source.feed] = configuration.tags + source.tags.filter { !configuration.tags.contains($0) }
            versions[source.feed] = source.settings.iNotify.applicationVersion
        }
        self.init(
            globalBound: configuration.maxPopups, sourceBounds: bounds, installID: installID, environment: environment,
            tags: tags, applicationVersions: versions)
    }

    /// Why showing `entry` of `source` at `now` would break a rule; nil when it may be shown.
    /// In order: the rollout, the targeting, a disabled group, the entry's frequency, its
    /// groups' frequencies (in the order the entry names them), the source's bound, the global
    /// bound.
    ///
    /// - Parameters:
    ///   - groups: The groups the entry's feed defines.
    ///   - feedVersion: The feed's `version`, which targeting may read.
    public func suppression(
        of entry: ScheduleEntry, source: String, groups: [MessageGroup], feedVersion: Int64? = nil,
        log: ImpressionLog, at now: Instant
    ) -> Suppression? {
        if let rules = entry.deliveryRules {
            if let rollout = rules.rollout {
                guard let installID else { return .outsideRollout(rollout, bucket: nil) }
                if !rollout.admits(installID: installID) {
                    return .outsideRollout(rollout, bucket: rollout.bucket(of: installID))
                }
            }
            if let targeting = rules.targeting {
                let context = environment.context(
                    tags: tags[source] ?? [], applicationVersion: applicationVersions[source], feedVersion: feedVersion,
                    impressions: log.shown(entryID: entry.id, source: source).count, at: now)
                do {
                    if !(try targeting.evaluate(in: context).isTruthy) {
                        return .targeting(TargetingVerdict(targeting, in: context, failure: nil))
                    }
                } catch {
                    return .targeting(TargetingVerdict(targeting, in: context, failure: error))
                }
            }
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

    /// The staged rollouts `schedule`'s entries name, each once, in feed order, with this
    /// desktop's bucket; none without an install id.
    public func rollouts(in schedule: Schedule) -> [RolloutReport] {
        guard let installID else { return [] }
        var seen: Set<Rollout> = []
        return schedule.entries.compactMap { entry in
            guard let rollout = entry.deliveryRules?.rollout, seen.insert(rollout).inserted else { return nil }
            return RolloutReport(rollout, bucket: rollout.bucket(of: installID))
        }
    }
}
