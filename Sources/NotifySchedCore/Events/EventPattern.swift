/// An iSmartNews event pattern such as `ON=2|OFF=4`: which occurrences of an event are active.
///
/// Each occurrence of the event consumes one step; when every step is used the pattern starts
/// again. Names and keywords are case-insensitive. A pattern that does not parse behaves as
/// `ON=1` (seed semantics §2.7); `parse` says so, so validation can warn.
public struct EventPattern: Hashable, Sendable, CustomStringConvertible {
    /// One run of equal answers: `ON=2` is `Step(isOn: true, count: 2)`.
    public struct Step: Hashable, Sendable {
        public var isOn: Bool
        public var count: Int
    }

    /// The runs in order; never empty, every count positive.
    public let steps: [Step]

    /// The pattern every occurrence is active for.
    public static let alwaysOn = EventPattern(steps: [Step(isOn: true, count: 1)])

    private init(steps: [Step]) {
        self.steps = steps
    }

    /// Parses `text`; nil when it is not a valid pattern (callers then use `alwaysOn`).
    ///
    /// Valid: `|`-separated parts, each `ON=n` or `OFF=n` (any case) with a decimal `n > 0`,
    /// with no spaces. `ON=0`, `on=`, `off=1||off=45` and `off=1| on=4` are invalid.
    public static func parse(_ text: String) -> EventPattern? {
        var steps: [Step] = []
        for part in text.split(separator: "|", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: "=", omittingEmptySubsequences: false)
            guard pieces.count == 2, let isOn = keyword(pieces[0]),
                !pieces[1].isEmpty, pieces[1].utf8.allSatisfy(\.isASCIIDigit),
                let count = Int(pieces[1]), count > 0
            else { return nil }
            steps.append(Step(isOn: isOn, count: count))
        }
        return steps.isEmpty ? nil : EventPattern(steps: steps)
    }

    private static func keyword(_ text: Substring) -> Bool? {
        switch text.lowercased() {
        case "on": true
        case "off": false
        default: nil
        }
    }

    /// The length of one full cycle of the pattern.
    public var period: Int { steps.reduce(0) { $0 + $1.count } }

    /// Whether the occurrence at `position` (0-based, counted since the pattern last started)
    /// is active.
    ///
    /// - Complexity: O(number of steps).
    public func isActive(atOccurrence position: Int) -> Bool {
        var remaining = position % period
        for step in steps {
            if remaining < step.count { return step.isOn }
            remaining -= step.count
        }
        return steps[steps.count - 1].isOn
    }

    /// The canonical text, upper-case keywords: `ON=2|OFF=4`.
    public var description: String {
        steps.map { "\($0.isOn ? "ON" : "OFF")=\($0.count)" }.joined(separator: "|")
    }
}

/// A named event and the pattern that filters its occurrences.
public struct EventRule: Hashable, Sendable {
    /// The event name, lower-cased (names match case-insensitively).
    public var name: String
    /// The pattern as the feed wrote it; progress resets only when this text changes.
    public var patternText: String
    /// The parsed pattern (`alwaysOn` when `patternText` is invalid).
    public var pattern: EventPattern

    public init(name: String, patternText: String) {
        self.name = name.lowercased()
        self.patternText = patternText
        self.pattern = EventPattern.parse(patternText) ?? .alwaysOn
    }
}
