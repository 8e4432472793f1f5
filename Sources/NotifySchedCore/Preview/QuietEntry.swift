/// An entry without an occurrence in a timeline's window.
public struct QuietEntry: Sendable, Equatable {
    public var source: String
    public var entryID: String
    public var why: Why

    public enum Why: Sendable, Equatable {
        /// Its occurrences are over, it expired, or its version range leaves the application
        /// version out.
        case ending(EntryEnding)
        /// Its next occurrence comes after the window.
        case nextAfter(Instant)
        /// It shows on events or iNotify's checks, not at times.
        case onEvents
    }

    public init(source: String, entryID: String, why: Why) {
        self.source = source
        self.entryID = entryID
        self.why = why
    }

    /// What a program matches: `ended`, `expired`, `other-version`, `after-window`, `on-events`.
    public var code: String {
        switch why {
        case .ending(let ending): TimelineReason.ending(ending).code
        case .nextAfter: "after-window"
        case .onEvents: "on-events"
        }
    }

    /// A line a person reads.
    public var words: String {
        switch why {
        case .ending(let ending): TimelineReason.ending(ending).words
        case .nextAfter(let instant): "its next occurrence is \(instant.rfc3339), after the window"
        case .onEvents: "it shows on events or checks, not at a time"
        }
    }
}
