/// What iSmartNews remembers between display cycles of one source (seed semantics §2.4–§2.7):
/// the run counter, each queue's rotation index, each event object's pattern progress, and
/// the round-robin position of meta items per event name.
///
/// A value: the daemon stores it and passes it back in. The "already shown" hashes live in
/// the handling state, which the buttons change; a cycle only reads them.
public struct NewsState: Sendable, Equatable {
    /// How many times the application "ran" (session starts and resumes); `counter` gates on it.
    public var runCounter: Int
    /// The next message to show of each queue, by queue name (lower-cased).
    public var queueIndexes: [String: Int]
    /// Pattern progress of each event object, by `EventObject.key`.
    public var eventProgress: [String: EventProgress]
    /// The meta item shown last for each event name, for round-robin.
    public var lastMetaShown: [String: String]

    public init(
        runCounter: Int = 0, queueIndexes: [String: Int] = [:], eventProgress: [String: EventProgress] = [:],
        lastMetaShown: [String: String] = [:]
    ) {
        self.runCounter = runCounter
        self.queueIndexes = queueIndexes
        self.eventProgress = eventProgress
        self.lastMetaShown = lastMetaShown
    }
}

/// How far an event object has walked through its pattern.
///
/// Progress survives feed reloads while the pattern text is unchanged and starts again when it
/// changes (seed semantics §2.7).
public struct EventProgress: Sendable, Equatable {
    /// The pattern text the progress belongs to, as the feed wrote it.
    public var patternText: String
    /// Occurrences consumed since the pattern last started.
    public var position: Int

    public init(patternText: String, position: Int = 0) {
        self.patternText = patternText
        self.position = position
    }
}

extension [String: EventProgress] {
    /// Consumes one step of `rule`'s pattern at `key`, starting the pattern again when its text
    /// changed since the progress was stored; whether that step is on.
    mutating func step(_ key: String, of rule: EventRule) -> Bool {
        var progress = self[key] ?? EventProgress(patternText: rule.patternText)
        if progress.patternText != rule.patternText { progress = EventProgress(patternText: rule.patternText) }
        let isOn = rule.pattern.isActive(atOccurrence: progress.position)
        progress.position = (progress.position + 1) % rule.pattern.period
        self[key] = progress
        return isOn
    }
}
