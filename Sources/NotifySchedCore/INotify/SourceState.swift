/// What the daemon remembers of one source between runs: whether it ran before, and when it
/// was last checked. (The iSmartNews run counter is part of `NewsState`; what the user chose,
/// reminders included, is the handling state.)
public struct SourceState: Sendable, Equatable {
    /// notify-sched has started with this source before (iNotify's first-launch flag).
    public var hasRun: Bool
    public var lastChecked: Instant?

    public init(hasRun: Bool = false, lastChecked: Instant? = nil) {
        self.hasRun = hasRun
        self.lastChecked = lastChecked
    }
}
