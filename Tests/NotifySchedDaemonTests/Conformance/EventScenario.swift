import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting

/// One generated month of a desktop session's events, for the sources they drive: an iNotify
/// feed, an iSmartNews feed and a portal feed of event-driven entries, each with settings drawn
/// at random, and the session's life (restarts with downtimes, resumes, unlocks, posted events,
/// `sync`'s manual checks, a notification server that goes away, quiet hours), all from one seed,
/// as are the user's answers to the popups (`EmbeddedEventRun`).
struct EventScenario {
    /// Something that happens, at an instant since `start`.
    enum Happening: Equatable {
        /// The daemon stops; it starts again (`session:start`) after `downtime`.
        case restart(downtime: TimeSpan)
        /// The session resumes from suspend (`session:resume`, counting an iSmartNews run).
        case resume
        /// The screen is unlocked (`session:unlock`).
        case unlock
        /// `notify-sched event NAME`.
        case posted(String)
        /// `notify-sched sync`: iNotify's manual check.
        case manualCheck
        /// The notification server goes away for `span`.
        case serverAbsent(TimeSpan)
        /// The feeds change to `versions[version]`.
        case feedChange(version: Int)
    }

    /// The three feeds as they stand from one change to the next.
    struct Feeds {
        var iNotifyMessages: [INotifyMessage]
        var news: NewsFeed
        var eventEntries: [EventEntry]

        /// The iNotify, iSmartNews and portal feeds, as JSON.
        var json: [String] {
            [
                "{" + iNotifyMessages.map(\.json).joined(separator: ",\n") + "}", news.json,
                #"{"notifications": [\#(eventEntries.map(\.json).joined(separator: ",\n"))]}"#,
            ]
        }
    }

    /// An event pattern with the steps it must give, written out by hand from seed semantics §2.7
    /// (an invalid pattern is `ON=1`): the oracle's table, not a parse.
    struct Pattern {
        var text: String
        var steps: [Bool]
    }

    static let patterns = [
        Pattern(text: "ON=1", steps: [true]),
        Pattern(text: "ON=2|OFF=4", steps: [true, true, false, false, false, false]),
        Pattern(text: "OFF=1|ON=1", steps: [false, true]),
        Pattern(text: "oN=1", steps: [true]),
        Pattern(text: "off=2|ON=3", steps: [false, false, true, true, true]),
        Pattern(
            text: "ON=1|OFF=4|ON=5|OFF=3",
            steps: [true, false, false, false, false, true, true, true, true, true, false, false, false]),
        Pattern(text: "ON=0", steps: [true]),
        Pattern(text: "of=1|on=4", steps: [true]),
        Pattern(text: "off=1| on=4", steps: [true]),
        Pattern(text: "off=1||off=45", steps: [true]),
    ]

    /// iNotify keys whose order is not the obvious one (seed semantics §1.5): `"10" < "9"`,
    /// `"2011/10/01" < "2011/9/30"`, `"_" < "a"` but `"Z" > "_"`.
    static let iNotifyKeys = ["2011/01/22", "2011/02/01", "2011/9/30", "2011/10/01", "B", "a", "10", "9", "_x", "Z"]
    static let applicationVersions = ["1.0", "2.0", "2.0.0", "1.10", "2.0b1", "3"]
    /// Names posted with `notify-sched event`, in the cases a person would type.
    static let postedNames = ["deploy", "Deploy", "build", "news:x", "app:activate", "Session:Start"]
    static let entryEventNames = [
        "session:start", "session:unlock", "session:resume", "app:activate", "deploy", "build",
    ]

    let seed: UInt64
    let start: Instant
    let length: TimeSpan
    let zone: ZoneRules
    let quietHours: QuietHours?
    let iNotifySettings: INotifySettings
    /// The feeds at the start, then each version a `feedChange` brings.
    let versions: [Feeds]
    /// What happens, by when since `start`, ascending.
    let happenings: [(after: TimeSpan, happening: Happening)]

    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        self.seed = seed
        let year = Int64.random(in: 2026...2027, using: &random)
        let startSeconds =
            CivilDateTime.daysSinceEpoch(year: year, month: Int64.random(in: 1...12, using: &random), day: 1) * 86_400
            + Int64.random(in: 0..<(28 * 86_400), using: &random)
        start = Instant(microseconds: startSeconds * 1_000_000 + Int64.random(in: 0..<1_000_000, using: &random))
        length = .days(30)
        zone = systemZones.zone(named: ConformanceSeeds.zoneNames.randomElement(using: &random)!)!
        quietHours =
            Bool.random(using: &random)
            ? nil
            : [QuietHours(parsing: "22:00-07:00"), QuietHours(parsing: "12:00-13:30")].randomElement(using: &random)!
        iNotifySettings = INotifySettings(
            checkPeriod: [.hours(1), .hours(12), .days(2)].randomElement(using: &random)!,
            remindPeriod: [.minutes(10), .hours(6), .days(1)].randomElement(using: &random)!,
            showOldestFirst: Bool.random(using: &random), showOnFirstLaunch: Bool.random(using: &random),
            debug: Int.random(in: 0..<5, using: &random) == 0,
            applicationVersion: Bool.random(using: &random) ? "2.0" : nil)
        var feeds = Feeds(
            iNotifyMessages: Self.iNotifyMessages(using: &random), news: Self.newsFeed(start: start, using: &random),
            eventEntries: Self.eventEntries(start: start, using: &random))
        var versions = [feeds]
        var happenings = Self.happenings(length: length, using: &random)
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            Self.change(&feeds, start: start, using: &random)
            let after = TimeSpan(microseconds: Int64.random(in: 1..<length.microseconds, using: &random))
            happenings.append((after, .feedChange(version: versions.count)))
            versions.append(feeds)
        }
        self.versions = versions
        self.happenings = happenings.sorted { $0.after < $1.after }
    }

    /// The steps `text` gives: the table's, by text.
    static func steps(of text: String) -> [Bool] {
        patterns.first { $0.text == text }!.steps
    }

    /// An iNotify message as generated.
    struct INotifyMessage {
        var key: String
        var hasURL: Bool
        var minVersion: String?
        var maxVersion: String?

        var json: String {
            var fields = [#""Title": "\#(key)""#, #""Message": "about \#(key)""#]
            if hasURL { fields.append(#""ActionURL": "https://example.org/\#(key)""#) }
            if let minVersion { fields.append(#""MinVersion": "\#(minVersion)""#) }
            if let maxVersion { fields.append(#""MaxVersion": "\#(maxVersion)""#) }
            return #""\#(key)": {\#(fields.joined(separator: ", "))}"#
        }
    }

    /// An iSmartNews classic message as generated; its title is its name in the oracle.
    struct NewsMessage {
        var title: String
        /// Edits of its text: an edited message is a new message (seed semantics §2.4).
        var revision = 0
        var hasLink: Bool
        var repeats = false
        var always = false
        var counter: Int?
        var start: Instant?
        var end: Instant?
        var queue: String?

        var json: String {
            var fields = [#""title": "\#(title)""#, #""text": "about \#(title), revision \#(revision)""#]
            if hasLink { fields.append(#""link": "https://example.org/\#(title)""#) }
            if repeats { fields.append(#""repeat": true"#) }
            if always { fields.append(#""always": true"#) }
            if let counter { fields.append(#""counter": \#(counter)"#) }
            if let start { fields.append(#""start": "\#(start.rfc3339)""#) }
            if let end { fields.append(#""end": "\#(end.rfc3339)""#) }
            if let queue { fields.append(#""queue": "\#(queue)""#) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
    }

    /// An iSmartNews feed as generated.
    struct NewsFeed {
        var globalEvents: [(name: String, pattern: String)] = []
        var gate: Int?
        /// Each queue's timeout in seconds, by the name the settings give it.
        var queueTimeouts: [(name: String, seconds: Int64)] = []
        var messages: [NewsMessage] = []

        var json: String {
            var items = globalEvents.map { #"{"event": {"name": "\#($0.name)", "pattern": "\#($0.pattern)"}}"# }
            var settings: [String] = []
            if let gate { settings.append(#""gate": \#(gate)"#) }
            if !queueTimeouts.isEmpty {
                let queues = queueTimeouts.map { #"{"name": "\#($0.name)", "timeout": \#($0.seconds)}"# }
                settings.append(#""queues": [\#(queues.joined(separator: ", "))]"#)
            }
            if !settings.isEmpty { items.append("{" + settings.joined(separator: ", ") + "}") }
            items += messages.map(\.json)
            return "[" + items.joined(separator: ",\n") + "]"
        }
    }

    /// A portal entry driven by events, as generated.
    struct EventEntry {
        var id: String
        var rules: [(name: String, pattern: String)]
        var hasAction: Bool
        var expires: Instant?
        var critical: Bool

        var json: String {
            let rules = rules.map { #""\#($0.name)": "\#($0.pattern)""# }
            var members = [
                #""id": "\#(id)""#, #""title": "Event entry \#(id)""#,
                #""events": {\#(rules.joined(separator: ", "))}"#,
            ]
            if hasAction { members.append(#""action": {"label": "Open", "url": "https://example.org/\#(id)"}"#) }
            if let expires { members.append(#""expires": "\#(expires.rfc3339)""#) }
            if critical { members.append(#""urgency": "critical""#) }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    private static func iNotifyMessages(using random: inout SplitMix64) -> [INotifyMessage] {
        iNotifyKeys.shuffled(using: &random).prefix(Int.random(in: 1...6, using: &random)).map { key in
            INotifyMessage(
                key: key, hasURL: Int.random(in: 0..<3, using: &random) > 0,
                minVersion: Int.random(in: 0..<4, using: &random) == 0
                    ? applicationVersions.randomElement(using: &random) : nil,
                maxVersion: Int.random(in: 0..<4, using: &random) == 0
                    ? applicationVersions.randomElement(using: &random) : nil)
        }
    }

    private static func newsFeed(start: Instant, using random: inout SplitMix64) -> NewsFeed {
        var feed = NewsFeed()
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let name = ["session:start", "session:resume", "deploy", "app:activate"].randomElement(using: &random)!
            feed.globalEvents.append((name, patterns.randomElement(using: &random)!.text))
        }
        if Int.random(in: 0..<3, using: &random) == 0 { feed.gate = Int.random(in: 1...3, using: &random) }
        if Bool.random(using: &random) {
            feed.queueTimeouts = ["A", "b"].map { ($0, [0, 30, 600].randomElement(using: &random)!) }
        }
        for index in 0..<Int.random(in: 1...6, using: &random) {
            var message = NewsMessage(title: "m\(index)", hasLink: Bool.random(using: &random))
            switch Int.random(in: 0..<4, using: &random) {
            case 0: message.repeats = true
            case 1: message.always = true
            default: break
            }
            if Int.random(in: 0..<4, using: &random) == 0 { message.counter = Int.random(in: 0...4, using: &random) }
            if Int.random(in: 0..<4, using: &random) == 0 {
                message.start = start + .hours(Int64.random(in: -24...400, using: &random))
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                message.end = start + .hours(Int64.random(in: 1...720, using: &random))
            }
            if Bool.random(using: &random) { message.queue = ["A", "a", "b"].randomElement(using: &random)! }
            feed.messages.append(message)
        }
        return feed
    }

    private static func eventEntries(start: Instant, using random: inout SplitMix64) -> [EventEntry] {
        (0..<Int.random(in: 1...4, using: &random)).map { index in
            let names = entryEventNames.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random))
            return EventEntry(
                id: "v\(index)", rules: names.map { ($0, patterns.randomElement(using: &random)!.text) },
                hasAction: Bool.random(using: &random),
                expires: Int.random(in: 0..<4, using: &random) == 0
                    ? start + .hours(Int64.random(in: 1...720, using: &random)) : nil,
                critical: Int.random(in: 0..<4, using: &random) == 0)
        }
    }

    /// One change of one feed: an iNotify key added or withdrawn; an iSmartNews message edited,
    /// added or withdrawn, or a global event's pattern changed; a portal entry's pattern
    /// changed, an entry withdrawn, added, or back under its id.
    private static func change(_ feeds: inout Feeds, start: Instant, using random: inout SplitMix64) {
        switch Int.random(in: 0..<8, using: &random) {
        case 0:
            let unused = iNotifyKeys.filter { key in !feeds.iNotifyMessages.contains { $0.key == key } }
            if let key = unused.randomElement(using: &random) {
                feeds.iNotifyMessages.append(INotifyMessage(key: key, hasURL: Bool.random(using: &random)))
            }
        case 1 where feeds.iNotifyMessages.count > 1:
            feeds.iNotifyMessages.remove(at: Int.random(in: 0..<feeds.iNotifyMessages.count, using: &random))
        case 2:
            let index = Int.random(in: 0..<feeds.news.messages.count, using: &random)
            feeds.news.messages[index].revision += 1
        case 3 where !feeds.news.globalEvents.isEmpty:
            let index = Int.random(in: 0..<feeds.news.globalEvents.count, using: &random)
            feeds.news.globalEvents[index].pattern = patterns.randomElement(using: &random)!.text
        case 4:
            if feeds.news.messages.count > 1, Bool.random(using: &random) {
                feeds.news.messages.remove(at: Int.random(in: 0..<feeds.news.messages.count, using: &random))
            } else {
                let title = (10...99).lazy.map { "m\($0)" }.first { title in
                    !feeds.news.messages.contains { $0.title == title }
                }!
                feeds.news.messages.append(NewsMessage(title: title, hasLink: true))
            }
        case 5:
            let index = Int.random(in: 0..<feeds.eventEntries.count, using: &random)
            let rule = Int.random(in: 0..<feeds.eventEntries[index].rules.count, using: &random)
            feeds.eventEntries[index].rules[rule].pattern = patterns.randomElement(using: &random)!.text
        case 6 where feeds.eventEntries.count > 1:
            feeds.eventEntries.remove(at: Int.random(in: 0..<feeds.eventEntries.count, using: &random))
        default:
            // A new entry, or one withdrawn before back under its id (its ids are v0…v3 and v9).
            let ids = ["v0", "v1", "v2", "v3", "v9"].filter { id in !feeds.eventEntries.contains { $0.id == id } }
            guard let id = ids.randomElement(using: &random) else { return }
            feeds.eventEntries.append(
                EventEntry(
                    id: id, rules: [(entryEventNames.randomElement(using: &random)!, "ON=1")], hasAction: false,
                    expires: nil, critical: false))
        }
    }

    private static func happenings(
        length: TimeSpan, using random: inout SplitMix64
    ) -> [(after: TimeSpan, happening: Happening)] {
        var drawn: [(after: TimeSpan, happening: Happening)] = []
        func at() -> TimeSpan { TimeSpan(microseconds: Int64.random(in: 1..<length.microseconds, using: &random)) }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let downtime: TimeSpan = [.minutes(1), .hours(1), .days(1), .days(3)].randomElement(using: &random)!
            drawn.append((at(), .restart(downtime: downtime)))
        }
        for _ in 0..<Int.random(in: 0...15, using: &random) { drawn.append((at(), .resume)) }
        for _ in 0..<Int.random(in: 0...30, using: &random) { drawn.append((at(), .unlock)) }
        for _ in 0..<Int.random(in: 0...30, using: &random) {
            drawn.append((at(), .posted(postedNames.randomElement(using: &random)!)))
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) { drawn.append((at(), .manualCheck)) }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let span = TimeSpan(microseconds: Int64.random(in: 60_000_000...21_600_000_000, using: &random))
            drawn.append((at(), .serverAbsent(span)))
        }
        return drawn.sorted { $0.after < $1.after }
    }
}
