/// What an entry of a portal feed says about whether a due occurrence is shown at all: the
/// desktops it is rolled out to, its caps, the groups it belongs to, and its priority among
/// entries competing for one slot. An entry without any has none (`ScheduleEntry.deliveryRules`
/// is nil).
public struct DeliveryRules: Sendable, Hashable {
    /// The entry's own caps.
    public var frequency: FrequencyCap?
    /// The feed's groups (`MessageGroup.id`) whose caps count this entry's impressions.
    public var groups: [String]
    /// Higher wins when several entries are due together under a shared cap; 0 by default.
    public var priority: Int
    /// The share of desktops it shows on; nil for all.
    public var rollout: Rollout?
    /// Which desktops it shows on, by what they are; nil for all.
    public var targeting: TargetingExpression?

    public init(
        frequency: FrequencyCap? = nil, groups: [String] = [], priority: Int = 0, rollout: Rollout? = nil,
        targeting: TargetingExpression? = nil
    ) {
        self.frequency = frequency
        self.groups = groups
        self.priority = priority
        self.rollout = rollout
        self.targeting = targeting
    }

    /// Whether the rules say nothing: the entry is left as if it had none.
    public var isEmpty: Bool {
        frequency == nil && groups.isEmpty && priority == 0 && rollout == nil && targeting == nil
    }
}
