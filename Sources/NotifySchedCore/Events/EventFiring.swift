/// What an occurrence of an event shows of a native or ZBiM feed: the entries whose `events`
/// patterns are on at this step (DESIGN §4: `events`, event name → pattern).
///
/// Every rule of an entry that names the posted event consumes one step of its pattern,
/// whether or not the entry ends up shown; the entry is shown when one of them is on. An entry
/// past its `expires`, or one the user ignored, takes no part. Progress is kept per entry and
/// event name and starts again when the pattern text changes, as iSmartNews's does (seed
/// semantics §2.7), and is forgotten once the feed no longer has the rule. An occurrence of a
/// desktop event also carries the iSmartNews names it stands for (`SeedEventNames`).
public struct EventFiring: Sendable {
    /// The entries to show, in feed order.
    public var entries: [ScheduleEntry]
    /// The progress after this occurrence, by `progressKey(entryID:event:)`.
    public var progress: [String: EventProgress]

    /// Works out what one occurrence of `event` shows of `schedule`.
    ///
    /// - Parameters:
    ///   - event: The posted event name (any case).
    ///   - schedule: The source's schedule; only entries with their own `events` take part.
    ///   - progress: The source's stored pattern progress.
    ///   - ignored: Ids of the entries the user ignored: "Ignore" stops an event-driven entry as
    ///     it stops a timed one.
    ///   - now: The current time, for `expires`.
    ///   - upgraded: Whether a session start follows a change of the application version.
    /// - Complexity: O(*n*) in the number of entries and their rules.
    public init(
        event: String, schedule: Schedule, progress: [String: EventProgress], ignored: Set<String> = [], now: Instant,
        upgraded: Bool = false
    ) {
        self.entries = []
        let posted = SeedEventNames.names(of: event, upgraded: upgraded)
        // The progress of a rule no longer in the feed is forgotten, as iSmartNews deletes the
        // events a feed no longer has: a rule withdrawn and back starts again.
        var current: Set<String> = []
        for entry in schedule.entries {
            guard case .events(.local(let rules)) = entry.trigger else { continue }
            for rule in rules { current.insert(Self.progressKey(entryID: entry.id, event: rule.name)) }
        }
        self.progress = progress.filter { current.contains($0.key) }
        for entry in schedule.entries {
            guard case .events(.local(let rules)) = entry.trigger, entry.expires.map({ now < $0 }) ?? true,
                !ignored.contains(entry.id)
            else {
                continue
            }
            var isOn = false
            for rule in rules where posted.contains(rule.name) {
                // Each matching rule steps, even once the entry is already on.
                if self.progress.step(Self.progressKey(entryID: entry.id, event: rule.name), of: rule) { isOn = true }
            }
            if isOn { entries.append(entry) }
        }
    }

    /// Where the progress of an entry's rule for `event` is kept.
    static func progressKey(entryID: String, event: String) -> String {
        "entry:\(entryID):\(event)"
    }
}
