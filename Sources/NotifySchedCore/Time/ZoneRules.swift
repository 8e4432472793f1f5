/// The rules of one time zone: which UTC offset is in force at every instant.
///
/// Built from a TZif file (`init(identifier:tzif:)`) or a POSIX `TZ` rule
/// (`init(identifier:posixRule:)`). A value type with no mutable state: lookups binary-search
/// the transition table, and instants after the last transition follow the file's POSIX
/// footer rule.
public struct ZoneRules: Hashable, Sendable, CustomStringConvertible {
    /// The zone's tables, shared by every copy: schedules hold a zone per entry, so a copy
    /// must cost one reference, not a retain of every table.
    private final class Storage: Sendable {
        let identifier: String
        let transitionTimes: [Int64]
        let transitionOffsetIndices: [Int]
        let offsets: [ZoneOffset]
        let initialOffset: ZoneOffset
        let rule: PosixTimeZoneRule?
        let standardAbbreviation: String
        let daylightAbbreviation: String
        /// The offset at every instant when it never changes (UTC and other fixed zones): read
        /// without the rule, whose copy (144 bytes) took a third of resolving a floating time.
        let fixedOffset: ZoneOffset?

        init(
            identifier: String, transitionTimes: [Int64], transitionOffsetIndices: [Int], offsets: [ZoneOffset],
            initialOffset: ZoneOffset, rule: PosixTimeZoneRule?, standardAbbreviation: String,
            daylightAbbreviation: String
        ) {
            self.identifier = identifier
            self.transitionTimes = transitionTimes
            self.transitionOffsetIndices = transitionOffsetIndices
            self.offsets = offsets
            self.initialOffset = initialOffset
            self.rule = rule
            self.standardAbbreviation = standardAbbreviation
            self.daylightAbbreviation = daylightAbbreviation
            fixedOffset = transitionTimes.isEmpty && rule?.daylight == nil ? rule?.standard ?? initialOffset : nil
        }
    }

    private let storage: Storage

    /// The zone's name: `Europe/Berlin`, or the rule text for a rule-only zone.
    public var identifier: String { storage.identifier }
    /// Transition instants in seconds since the epoch, strictly ascending.
    var transitionTimes: [Int64] { storage.transitionTimes }
    /// For each transition, the index in `offsets` of the offset it starts.
    var transitionOffsetIndices: [Int] { storage.transitionOffsetIndices }
    /// The distinct local-time types.
    var offsets: [ZoneOffset] { storage.offsets }
    /// In force before the first transition (TZif time type 0).
    var initialOffset: ZoneOffset { storage.initialOffset }
    /// Governs instants at and after the last transition, or all instants when there are none.
    var rule: PosixTimeZoneRule? { storage.rule }
    /// What glibc puts in `tzname[0]` and `tzname[1]` when it loads this zone; systemd matches
    /// calendar expressions' trailing abbreviations against them.
    public var standardAbbreviation: String { storage.standardAbbreviation }
    /// See `standardAbbreviation`.
    public var daylightAbbreviation: String { storage.daylightAbbreviation }

    init(
        identifier: String, transitionTimes: [Int64], transitionOffsetIndices: [Int], offsets: [ZoneOffset],
        initialOffset: ZoneOffset, rule: PosixTimeZoneRule?
    ) {
        let standardAbbreviation: String
        let daylightAbbreviation: String
        if transitionTimes.isEmpty {
            let standard = rule?.standard.abbreviation ?? initialOffset.abbreviation
            standardAbbreviation = standard
            daylightAbbreviation = rule?.daylight?.offset.abbreviation ?? standard
        } else {
            // glibc's __tzfile_read takes the latest standard and latest DST names in the table.
            var standard: String?
            var daylight: String?
            for index in transitionOffsetIndices.reversed() {
                let offset = offsets[index]
                if offset.isDST {
                    daylight = daylight ?? offset.abbreviation
                } else {
                    standard = standard ?? offset.abbreviation
                }
                if standard != nil && daylight != nil { break }
            }
            let resolvedStandard = standard ?? offsets[0].abbreviation
            standardAbbreviation = resolvedStandard
            daylightAbbreviation = daylight ?? resolvedStandard
        }
        storage = Storage(
            identifier: identifier, transitionTimes: transitionTimes, transitionOffsetIndices: transitionOffsetIndices,
            offsets: offsets, initialOffset: initialOffset, rule: rule, standardAbbreviation: standardAbbreviation,
            daylightAbbreviation: daylightAbbreviation)
    }

    public static func == (lhs: ZoneRules, rhs: ZoneRules) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.identifier == rhs.identifier && lhs.transitionTimes == rhs.transitionTimes
                && lhs.transitionOffsetIndices == rhs.transitionOffsetIndices && lhs.offsets == rhs.offsets
                && lhs.initialOffset == rhs.initialOffset && lhs.rule == rhs.rule)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(transitionTimes.count)
    }

    /// Rules for a POSIX `TZ` value such as `CET-1CEST,M3.5.0,M10.5.0/3` or `<+0330>-3:30`.
    ///
    /// - Parameters:
    ///   - identifier: The name to report.
    ///   - posixRule: The rule, without a leading `:`.
    /// - Throws: `CoreError` with code `.invalidZoneData` when the rule is malformed.
    public init(identifier: String, posixRule: String) throws(CoreError) {
        let rule = try PosixTimeZoneRule(parsing: posixRule)
        self.init(
            identifier: identifier, transitionTimes: [], transitionOffsetIndices: [], offsets: [rule.standard],
            initialOffset: rule.standard, rule: rule)
    }

    /// Coordinated Universal Time.
    public static let utc = ZoneRules(
        identifier: "UTC", transitionTimes: [], transitionOffsetIndices: [], offsets: [.utc], initialOffset: .utc,
        rule: nil)

    public var description: String { identifier }

    /// The offset in force at `instant`.
    ///
    /// - Complexity: O(log n) in the number of transitions.
    public func offset(at instant: Instant) -> ZoneOffset {
        if let fixed = storage.fixedOffset { return fixed }
        let seconds = instant.secondsSinceEpoch
        guard let last = transitionTimes.last else { return rule?.offset(at: instant) ?? initialOffset }
        if seconds >= last, let rule { return rule.offset(at: instant) }
        guard let index = lastTransitionIndex(atOrBefore: seconds) else { return initialOffset }
        return offsets[transitionOffsetIndices[index]]
    }

    /// The wall-clock time at `instant`.
    ///
    /// - Complexity: O(log n) in the number of transitions.
    public func civil(at instant: Instant) -> CivilDateTime {
        CivilDateTime(instant, offset: offset(at: instant).seconds)
    }

    /// The first transition strictly after `instant`, or nil when the offset never changes again.
    ///
    /// A transition may change only the abbreviation or the DST flag.
    ///
    /// - Complexity: O(log n) in the number of transitions.
    public func nextTransition(after instant: Instant) -> Instant? {
        guard storage.fixedOffset == nil else { return nil }
        let seconds = instant.secondsSinceEpoch
        if let last = transitionTimes.last, seconds < last {
            let index = (lastTransitionIndex(atOrBefore: seconds) ?? -1) + 1
            return Instant(secondsSinceEpoch: transitionTimes[index])
        }
        return rule?.nextTransition(after: instant)
    }

    /// Which instants the wall-clock time `local` names here.
    ///
    /// - Parameter local: A wall-clock time; its fields should be valid.
    /// - Returns: `.unique`, `.gap` (with the RFC 5545 forward-shifted instant) or `.overlap`.
    /// - Complexity: O(log n) in the number of transitions.
    public func resolve(_ local: CivilDateTime) -> LocalTimeResolution {
        let asUTC = local.instant(atOffset: 0)
        // Offsets never exceed a day, so every offset that can apply to `local` is in force
        // somewhere within two days of it. The search allocates nothing: floating times of
        // repeating entries are resolved once per occurrence.
        let windowStart = asUTC - .days(2)
        let windowEnd = asUTC + .days(2)
        let initial = offset(at: windowStart).seconds
        var next = nextTransition(after: windowStart)
        // Most times are nowhere near a transition: one offset holds over the whole window.
        guard let first = next, first <= windowEnd else { return .unique(asUTC - .seconds(Int64(initial))) }
        var earliest: Instant?
        var latest: Instant?
        func consider(_ candidate: Int) {
            let instant = asUTC - .seconds(Int64(candidate))
            guard offset(at: instant).seconds == candidate else { return }
            if earliest.map({ instant < $0 }) ?? true { earliest = instant }
            if latest.map({ instant > $0 }) ?? true { latest = instant }
        }
        consider(initial)
        var shiftedForward: Instant?
        while let transition = next, transition <= windowEnd {
            let before = offset(at: transition - TimeSpan(microseconds: 1)).seconds
            let after = offset(at: transition).seconds
            consider(after)
            if after > before, shiftedForward == nil {
                let gapStart = transition + .seconds(Int64(before))
                let gapEnd = transition + .seconds(Int64(after))
                if asUTC >= gapStart && asUTC < gapEnd { shiftedForward = asUTC - .seconds(Int64(before)) }
            }
            next = nextTransition(after: transition)
        }
        if let earliest, let latest {
            return earliest == latest ? .unique(earliest) : .overlap(earlier: earliest, later: latest)
        }
        return .gap(shiftedForward: shiftedForward ?? asUTC - .seconds(Int64(initial)))
    }

    /// The instant a floating wall-clock time fires at (DESIGN §3): the time itself when
    /// unique, shifted forward by the gap in a spring-forward gap, the first of two in a
    /// fall-back overlap.
    ///
    /// - Parameter local: The wall-clock time.
    /// - Returns: The instant.
    public func instant(forFloating local: CivilDateTime) -> Instant {
        switch resolve(local) {
        case .unique(let instant): instant
        case .gap(let shiftedForward): shiftedForward
        case .overlap(let earlier, _): earlier
        }
    }

    private func lastTransitionIndex(atOrBefore seconds: Int64) -> Int? {
        // Read once: each read of the property would retain the array again.
        let times = transitionTimes
        var low = 0
        var high = times.count
        while low < high {
            let middle = (low + high) / 2
            if times[middle] <= seconds {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low == 0 ? nil : low - 1
    }
}
