import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting

/// One generated life of the daemon: a feed with timed entries of every kind, a user zone, and
/// the disruptions of a month (restarts and crashes, downtimes, clock steps, zone changes, a
/// missing notification server, quiet hours, the feed changing), all drawn from one seed, as
/// are the user's answers to the popups (`EmbeddedConformanceRun.Answer`). A third of the
/// entries have caps (`frequency`), a quarter belong to each group, half have a priority, a sixth
/// a targeting expression (`targetings`, true or false on the scenario's desktop), a twelfth a
/// rollout to every desktop or none; every feed defines two groups, and a third of the
/// scenarios bound the user's popups (`max-popups`): drawn from a stream of their own, so that
/// the rest of a scenario is what it was before caps.
struct ConformanceScenario {
    /// Something that happens to the daemon, at an instant of true (not wall-clock) time.
    enum Disruption {
        /// The daemon stops and starts again after `downtime`. A crash stops it in the middle of
        /// its next popup: shown, not yet recorded in the ledger.
        case restart(downtime: TimeSpan, crash: Bool)
        /// The wall clock steps by `span` (negative: back).
        case clockStep(TimeSpan)
        /// The user's zone changes.
        case zoneChange(ZoneRules)
        /// The notification server goes away for `span`.
        case serverAbsent(TimeSpan)
        /// The feed changes to `feeds[version]`: an entry changed, withdrawn, added or back.
        case feedChange(version: Int)
    }

    let seed: UInt64
    /// The wall-clock instant the month starts at.
    let start: Instant
    /// How long the scenario runs, in true time.
    let length: TimeSpan
    let zone: ZoneRules
    let quietHours: QuietHours?
    let applicationVersion = "2.0"
    /// How long "Remind Me Later" waits: the source's `remind-period`.
    let remindPeriod: TimeSpan
    /// The feed at the start, then each version a `feedChange` brings.
    let feeds: [String]
    /// The user's bound on all popups (`max-popups`), if any.
    let maxPopups: PopupBound?
    /// The disruptions, by when they happen in true time since `start`, ascending.
    let disruptions: [(after: TimeSpan, disruption: Disruption)]

    /// Calendar expressions of every shape the feeds use, a day apart or more.
    static let calendars = [
        "daily", "weekly", "*-*-* 09:00", "Mon..Fri 08:30", "Sat,Sun 10:00", "*-*-01 08:00:00", "*-*-* 02:30",
        "Mon *-*-* 07:00 UTC", "*-*~1 18:00", "*-*-* 23:59:59", "monthly",
    ]
    /// Expressions that fire many times a day: an entry with one ends within six hours (`until`),
    /// so that a month of 10 000 scenarios stays within the suite's time.
    static let denseCalendars = ["hourly", "*:15", "*-*-* 00/6:00", "*:0/20", "*:*:0/10", "*-*-* 01,02,03:30"]

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        self.seed = seed
        // Start anywhere in 2026–2027, often within days of a DST change.
        let year = Int64.random(in: 2026...2027, using: &random)
        let month = [Int64(3), 4, 10, 11, 9, 1, 6].randomElement(using: &random)!
        let day = Int64.random(in: 1...28, using: &random)
        let startSeconds =
            CivilDateTime.daysSinceEpoch(year: year, month: month, day: day) * 86_400
            + Int64.random(in: 0..<86_400, using: &random)
        let start = Instant(microseconds: startSeconds * 1_000_000 + Int64.random(in: 0..<1_000_000, using: &random))
        self.start = start
        length = .days(30)
        zone = Self.randomZone(using: &random)
        quietHours =
            Bool.random(using: &random)
            ? nil
            : [QuietHours(parsing: "22:00-07:00"), QuietHours(parsing: "12:00-13:30")].randomElement(using: &random)!
        let entryCount = Int.random(in: 2...6, using: &random)
        var entries = (0..<entryCount).map { ($0, Self.randomEntry(index: $0, start: start, using: &random)) }
        var disruptions = Self.randomDisruptions(length: length, using: &random)
        remindPeriod = [.minutes(10), .hours(1), .days(1)].randomElement(using: &random)!
        var caps = SplitMix64(seed: seed ^ 0xCA95_CA95)
        maxPopups =
            Int.random(in: 0..<3, using: &caps) == 0
            ? [
                PopupBound(count: 3, period: .hours(1)), PopupBound(count: 8, period: .days(1)),
                PopupBound(count: 20, period: .days(7)),
            ].randomElement(using: &caps) : nil
        var feeds = [Self.feed(entries.map(\.1), using: &caps)]
        var withdrawn: [Int] = []
        var changes: [TimeSpan] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            changes.append(TimeSpan(microseconds: Int64.random(in: 1..<length.microseconds, using: &random)))
        }
        for after in changes.sorted() {
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where entries.count > 1:
                withdrawn.append(entries.remove(at: Int.random(in: 0..<entries.count, using: &random)).0)
            case 1:
                // A new entry, or one withdrawn before coming back under its id.
                let index = withdrawn.popLast() ?? entryCount + feeds.count
                entries.append((index, Self.randomEntry(index: index, start: start, using: &random)))
            default:
                let position = Int.random(in: 0..<entries.count, using: &random)
                entries[position].1 = Self.randomEntry(index: entries[position].0, start: start, using: &random)
            }
            disruptions.append((after, .feedChange(version: feeds.count)))
            feeds.append(Self.feed(entries.map(\.1), using: &caps))
        }
        self.feeds = feeds
        self.disruptions = disruptions.sorted { $0.after < $1.after }
    }

    /// A feed of `entries`, half of them with caps, groups or a priority, and the two groups
    /// they may name, each with caps and one sometimes disabled.
    private static func feed(_ entries: [String], using random: inout SplitMix64) -> String {
        let capped = entries.map { entry in
            var rules: [String] = []
            if Int.random(in: 0..<3, using: &random) == 0 {
                rules.append(#""frequency": \#(frequency(using: &random))"#)
            }
            let groups = ["g0", "g1"].filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
            if !groups.isEmpty { rules.append(#""groups": [\#(groups.map { "\"\($0)\"" }.joined(separator: ", "))]"#) }
            if Bool.random(using: &random) { rules.append(#""priority": \#(Int.random(in: -1...3, using: &random))"#) }
            if Int.random(in: 0..<6, using: &random) == 0 {
                let expression = targetings.keys.sorted().randomElement(using: &random)!
                rules.append(#""targeting": "\#(expression)""#)
            }
            if Int.random(in: 0..<12, using: &random) == 0 {
                let count = Bool.random(using: &random) ? 0 : 10
                rules.append(#""rollout": {"namespace": "n", "start": 3, "count": \#(count), "total": 10}"#)
            }
            return rules.isEmpty ? entry : String(entry.dropLast()) + ", " + rules.joined(separator: ", ") + "}"
        }
        let groups = [
            #"{"id": "g0", "frequency": \#(frequency(using: &random))}"#,
            #"{"id": "g1", "frequency": \#(frequency(using: &random)), "enabled": \#(Int.random(in: 0..<5, using: &random) != 0)}"#,
        ]
        return
            #"{"groups": [\#(groups.joined(separator: ", "))], "notifications": [\#(capped.joined(separator: ",\n"))]}"#
    }

    /// The user's tags in every scenario (`tags` in its configuration).
    static let tags = ["sports", "news"]

    /// The targeting expressions the feeds use, and whether each holds on the scenario's desktop
    /// (its tags, its application version 2.0, feeds without a `version`); one fails to evaluate,
    /// which counts as false.
    static let targetings = [
        "'sports' in tags": true, "'gardening' in tags": false, "app.version|versionCompare('1.9') > 0": true,
        "app.version == '3.0'": false, "tags|length > 1 && !('x' in tags)": true, "feed.version > 1": false,
    ]

    /// A `frequency` with a lifetime, windows from ten minutes to a week, or both.
    private static func frequency(using random: inout SplitMix64) -> String {
        var members: [String] = []
        let kind = Int.random(in: 0..<4, using: &random)
        if kind == 0 || kind == 3 { members.append(#""lifetime": \#(Int.random(in: 1...6, using: &random))"#) }
        if kind != 0 {
            let windows = (0..<Int.random(in: 1...2, using: &random)).map { _ in
                let period = ["10min", "1h", "6h", "1d", "7d"].randomElement(using: &random)!
                return #"{"period": "\#(period)", "cap": \#(Int.random(in: 1...3, using: &random))}"#
            }
            members.append(#""custom": [\#(windows.joined(separator: ", "))]"#)
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    private static func randomZone(using random: inout SplitMix64) -> ZoneRules {
        systemZones.zone(named: ConformanceSeeds.zoneNames.randomElement(using: &random)!)!
    }

    private static func randomDisruptions(
        length: TimeSpan, using random: inout SplitMix64
    ) -> [(after: TimeSpan, disruption: Disruption)] {
        var drawn: [(after: TimeSpan, disruption: Disruption)] = []
        func at() -> TimeSpan {
            TimeSpan(microseconds: Int64.random(in: 1..<length.microseconds, using: &random))
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let downtime: TimeSpan = [
                .minutes(1), .hours(1), .days(1), .days(30),
                TimeSpan(microseconds: Int64.random(in: 1...86_400_000_000, using: &random)),
            ].randomElement(using: &random)!
            drawn.append((at(), .restart(downtime: downtime, crash: Int.random(in: 0..<3, using: &random) == 0)))
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let step: TimeSpan = [.hours(3), .hours(-3), .days(3), .days(-3)].randomElement(using: &random)!
            drawn.append((at(), .clockStep(step)))
        }
        for _ in 0..<Int.random(in: 0...1, using: &random) {
            drawn.append((at(), .zoneChange(randomZone(using: &random))))
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            // Up to six hours: while no server is there, the daemon tries every 30 s.
            let span = TimeSpan(microseconds: Int64.random(in: 60_000_000...21_600_000_000, using: &random))
            drawn.append((at(), .serverAbsent(span)))
        }
        return drawn.sorted { $0.after < $1.after }
    }

    /// One native or ZBiM entry, as JSON members, of a kind drawn at random.
    private static func randomEntry(index: Int, start: Instant, using random: inout SplitMix64) -> String {
        let id = "e\(index)"
        var members = [#""id": "\#(id)""#, #""title": "Entry \#(index)""#]
        // Around the start: some entries begin before it, most within the month.
        func time(within days: ClosedRange<Int64>) -> Instant {
            start + .seconds(Int64.random(in: days.lowerBound * 86_400...days.upperBound * 86_400, using: &random))
        }
        func fireDate(_ instant: Instant) -> String {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return #""fireDate": "\#(instant.rfc3339)""#
            case 1: return #""fireDate": "\#(ZoneRules.utc.civil(at: instant))""#
            default:
                let zone = ConformanceSeeds.zoneNames.randomElement(using: &random)!
                return #""fireDate": "\#(ZoneRules.utc.civil(at: instant))", "timeZone": "\#(zone)""#
            }
        }
        switch Int.random(in: 0..<11, using: &random) {
        case 0:
            return zbimRow(id: id, at: time(within: -1...30), using: &random)
        case 1:
            members.append(#""body": "at once""#)
        case 2, 3:
            members.append(fireDate(time(within: -2...30)))
        case 4, 5, 6:
            let interval = ["minute", "hour", "day", "day", "week", "month"].randomElement(using: &random)!
            let first = time(within: -40...20)
            members.append(fireDate(first))
            members.append(#""repeatInterval": "\#(interval)""#)
            // Minutely and hourly repeats are bounded: a month of one is 720 to 43 200 popups.
            if interval == "minute" || interval == "hour" {
                members.append(#""count": \#(Int.random(in: 1...48, using: &random))"#)
            } else if Bool.random(using: &random) {
                members.append(#""count": \#(Int.random(in: 1...90, using: &random))"#)
            }
        case 7:
            members.append(#""calendar": "\#(denseCalendars.randomElement(using: &random)!)""#)
            let hours = TimeSpan.seconds(Int64.random(in: 0...21_600, using: &random))
            members.append(#""until": "\#((start + hours).rfc3339)""#)
        default:
            members.append(#""calendar": "\#(calendars.randomElement(using: &random)!)""#)
            if Int.random(in: 0..<4, using: &random) == 0 {
                members.append(#""until": "\#(time(within: 1...30).rfc3339)""#)
            }
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
            let lateness = ["0s", "10m", "1h", "3h", "2d"].randomElement(using: &random)!
            members.append(#""maxLateness": "\#(lateness)""#)
        }
        if Int.random(in: 0..<6, using: &random) == 0 {
            members.append(#""expires": "\#(time(within: -1...30).rfc3339)""#)
        }
        if Int.random(in: 0..<8, using: &random) == 0 {
            members.append(#""minVersion": "\#(["1.0", "2.0", "2.0.1", "3"].randomElement(using: &random)!)""#)
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            members.append(#""urgency": "critical""#)
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// A row in the ZBiM SDK's flat form, due at `instant` (to the minute), in UTC or local time.
    private static func zbimRow(id: String, at instant: Instant, using random: inout SplitMix64) -> String {
        let civil = ZoneRules.utc.civil(at: instant)
        let isUTC = Bool.random(using: &random) ? 1 : 0
        return
            #"{"uuid": "\#(id)", "title": "Entry \#(id.dropFirst())", "uri": "zbimdb://content/\#(id)", "year": \#(civil.year), "month": \#(civil.month), "day": \#(civil.day), "hour": \#(civil.hour), "minute": \#(civil.minute), "is_utc": \#(isUTC)}"#
    }
}
