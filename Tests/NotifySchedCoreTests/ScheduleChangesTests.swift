import NotifySchedCore
import Testing

@Suite struct ScheduleChangesTests {
    /// The entries of a native feed whose `notifications` array holds `entries` (JSON objects).
    private func entries(_ entries: String...) throws -> [ScheduleEntry] {
        let result = parse("{\"notifications\": [\n" + entries.joined(separator: ",\n") + "\n]}")
        #expect(errors(result) == [])
        return try #require(result.schedule?.entries)
    }

    private func changes(_ old: [ScheduleEntry], _ new: [ScheduleEntry]) -> (
        added: [String], changed: [String], unchanged: [String], withdrawn: [String]
    ) {
        let changes = ScheduleChanges(from: old, to: new)
        return (
            changes.added.map { new[$0].id }, changes.changed.map { new[$0.new].id },
            changes.unchanged.map { new[$0.new].id }, changes.withdrawn.map { old[$0].id }
        )
    }

    @Test func entriesAreMatchedByIdAndSortedIntoAddedChangedAndWithdrawn() throws {
        let old = try entries(
            #"{"id": "a", "title": "Alpha", "fireDate": "2026-06-01T09:00:00Z"}"#,
            #"{"id": "b", "title": "Beta", "fireDate": "2026-06-02T09:00:00Z"}"#,
            #"{"id": "c", "title": "Gamma", "fireDate": "2026-06-03T09:00:00Z"}"#)
        let new = try entries(
            #"{"id": "c", "title": "Gamma", "fireDate": "2026-06-03T09:00:00Z"}"#,
            #"{"id": "a", "title": "Alpha, moved", "fireDate": "2026-06-01T09:00:00Z"}"#,
            #"{"id": "d", "title": "Delta"}"#)
        let result = changes(old, new)
        #expect(result.added == ["d"])
        #expect(result.changed == ["a"])
        #expect(result.unchanged == ["c"], "an entry that only moved in the feed is unchanged")
        #expect(result.withdrawn == ["b"])
        #expect(
            ScheduleChanges(from: old, to: new).changed == [ScheduleChanges.Match(old: 0, new: 1)],
            "a match gives both positions")
    }

    @Test func aNewTriggerOrLatenessIsAChangeButTheSameFeedIsNone() throws {
        let base = #"{"id": "a", "title": "Alpha", "fireDate": "2026-06-01T09:00:00Z""#
        let old = try entries(base + "}")
        #expect(ScheduleChanges(from: old, to: try entries(base + "}")).isEmpty)
        #expect(changes(old, try entries(base + #", "repeatInterval": "day"}"#)).changed == ["a"])
        #expect(changes(old, try entries(base + #", "maxLateness": "1h"}"#)).changed == ["a"])
        #expect(
            changes(old, try entries(#"{"id": "a", "title": "Alpha", "fireDate": "2026-06-01T10:00:00Z"}"#)).changed
                == ["a"])
        #expect(
            changes(old, try entries(base + #", "action": "https://example.org/a"}"#)).changed == ["a"],
            "a new action is a change of content")
    }

    @Test func aChangedGlobalEventPatternIsReportedThoughNoEntryChanged() throws {
        // The pattern's progress starts again (seed semantics §2.7): sync says so.
        let before = try #require(parse(#"[{"event": {"name": "e", "pattern": "ON=1"}}, {"title": "A"}]"#).schedule)
        let after = try #require(
            parse(#"[{"event": {"name": "e", "pattern": "ON=2|OFF=1"}}, {"title": "A"}]"#).schedule)
        let report = SourceCheckReport.changed(
            "news.plist", ScheduleChanges(from: before.entries, to: after.entries), from: before, to: after)
        #expect(
            report.lines == [
                "news.plist: 0 added, 0 changed, 0 withdrawn, feed settings changed",
                "~ feed settings: global events e ON=2|OFF=1 (a changed pattern starts again)",
            ])
        let same = SourceCheckReport.changed(
            "news.plist", ScheduleChanges(from: after.entries, to: after.entries), from: after, to: after)
        #expect(same.lines == ["news.plist: 0 added, 0 changed, 0 withdrawn"])
    }

    @Test func aFirstLoadAddsEverythingAndAnEmptyFeedWithdrawsEverything() throws {
        let feed = try entries(#"{"id": "a", "title": "Alpha"}"#, #"{"id": "b", "title": "Beta"}"#)
        #expect(changes([], feed).added == ["a", "b"])
        #expect(changes(feed, []).withdrawn == ["a", "b"])
    }

    @Test func aRepeatedIdMatchesItsFirstEntryOnly() throws {
        let old = [
            try entries(#"{"id": "a", "title": "First"}"#)[0], try entries(#"{"id": "a", "title": "Second"}"#)[0],
        ]
        let new = [old[0], old[0]]
        let result = ScheduleChanges(from: old, to: new)
        #expect(result.unchanged == [ScheduleChanges.Match(old: 0, new: 0)])
        #expect(result.added == [1])
        #expect(result.withdrawn == [1])
    }

    /// Every field of an entry, to vary one at a time.
    private struct Fields {
        var id = "a"
        var dialect = FeedDialect.native
        var title = "Alpha"
        var body = "The body"
        var icon: String? = "dialog-information"
        var urgency = Urgency.normal
        var actionLabel: String? = "Open"
        var actionURL = "https://example.org/a"
        var trigger = Trigger.once(FireTime(.absolute(instant("2026-06-01T09:00:00Z"))))
        var maxLateness = TimeSpan.hours(1)
        var expires: Instant? = instant("2026-12-01T00:00:00Z")
        var versions = VersionRange(minimum: "1.0", maximum: "2.0")
        var category: String? = "email"
        var news: NewsRules? = NewsRules(kind: .message, contentHash: "hash")

        var entry: ScheduleEntry {
            get throws {
                // Each string is built anew, so that no two entries share their storage.
                func fresh(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }
                return ScheduleEntry(
                    id: fresh(id), dialect: dialect,
                    content: NotificationContent(
                        title: fresh(title), body: fresh(body), icon: icon.map(fresh), urgency: urgency,
                        action: NotificationAction(
                            label: actionLabel.map(fresh), url: try ActionURL(fresh(actionURL), policy: URLPolicy()))),
                    trigger: trigger, maxLateness: maxLateness, expires: expires, versions: versions,
                    category: category.map(fresh), news: news)
            }
        }
    }

    /// One trigger of each kind, and of each kind one per field, all different.
    private func triggers() throws -> [Trigger] {
        let first = FireTime(.absolute(instant("2026-06-01T09:00:00Z")))
        let floating = FireTime(.floating(CivilDateTime(year: 2026, month: 6, day: 1, hour: 9)))
        let weekdays = try CalendarExpression.parse("Mon..Fri 09:00", zones: systemZones)
        let bounds = RecurrenceBounds(until: instant("2027-01-01T00:00:00Z"), count: 3)
        return [
            .immediate, .check, .once(first), .once(FireTime(.absolute(instant("2026-06-01T09:00:01Z")))),
            .once(floating), .once(FireTime(floating.kind, zone: zone("Europe/Berlin"))),
            .once(FireTime(floating.kind, zone: zone("America/New_York"))),
            .repeating(first: first, every: .day, bounds: .unbounded),
            .repeating(first: floating, every: .day, bounds: .unbounded),
            .repeating(first: first, every: .week, bounds: .unbounded),
            .repeating(first: first, every: .day, bounds: RecurrenceBounds(until: bounds.until)),
            .repeating(first: first, every: .day, bounds: RecurrenceBounds(count: 3)),
            .calendar(weekdays, zone: nil, notBefore: nil, bounds: .unbounded),
            .calendar(
                try CalendarExpression.parse("Mon..Fri 09:01", zones: systemZones), zone: nil, notBefore: nil,
                bounds: .unbounded),
            .calendar(weekdays, zone: zone("Europe/Berlin"), notBefore: nil, bounds: .unbounded),
            .calendar(weekdays, zone: nil, notBefore: first, bounds: .unbounded),
            .calendar(weekdays, zone: nil, notBefore: nil, bounds: bounds),
            .events(.global), .events(.local([EventRule(name: "session:start", patternText: "ON=1")])),
            .events(.local([EventRule(name: "session:start", patternText: "ON=2")])),
            .events(.local([EventRule(name: "app:activate", patternText: "ON=1")])),
        ]
    }

    @Test func aChangeOfAnyFieldIsAChange() throws {
        var variants: [(field: String, old: Fields, new: Fields)] = []
        func vary(_ field: String, from old: Fields = Fields(), _ change: (inout Fields) -> Void) {
            var new = old
            change(&new)
            variants.append((field, old, new))
        }
        vary("dialect") { $0.dialect = .zbim }
        vary("title") { $0.title = "Alpha, revised" }
        vary("body") { $0.body = "The body." }
        vary("icon") { $0.icon = "dialog-warning" }
        vary("missing icon") { $0.icon = nil }
        vary("action label") { $0.actionLabel = "Read" }
        vary("missing action label") { $0.actionLabel = nil }
        vary("action URL") { $0.actionURL = "https://example.org/b" }
        vary("action scheme") { $0.actionURL = "http://example.org/a" }
        vary("urgency") { $0.urgency = .critical }
        vary("trigger") { $0.trigger = .immediate }
        vary("lateness") { $0.maxLateness = .hours(2) }
        vary("expiry") { $0.expires = instant("2026-12-02T00:00:00Z") }
        vary("missing expiry") { $0.expires = nil }
        vary("minimum version") { $0.versions.minimum = "1.0.0" }
        vary("missing maximum version") { $0.versions.maximum = nil }
        vary("category") { $0.category = "im" }
        vary("missing category") { $0.category = nil }
        vary("missing news rules") { $0.news = nil }
        vary("news kind") { $0.news = NewsRules(kind: .meta(MetaItem(urls: [])), contentHash: "hash") }
        vary("news start") { $0.news?.start = instant("2026-01-01T00:00:00Z") }
        vary("news end") { $0.news?.end = instant("2026-01-01T00:00:00Z") }
        vary("news repeats") { $0.news?.repeats = true }
        vary("news always") { $0.news?.always = true }
        vary("news counter") { $0.news?.counter = 2 }
        vary("news queue") { $0.news?.queue = "q" }
        vary("news OK label") { $0.news?.okLabel = "Go" }
        vary("news Cancel label") { $0.news?.cancelLabel = "Later" }
        vary("news content hash") { $0.news?.contentHash = "other" }
        let meta = MetaItem(urls: ["https://example.org/page"])
        let metaBase = Fields(news: NewsRules(kind: .meta(meta), contentHash: "hash"))
        let metaVariants: [(String, MetaItem)] = [
            ("URLs", MetaItem(urls: ["https://example.org/other"])),
            ("priority", MetaItem(urls: meta.urls, priority: 1)),
            ("interval", MetaItem(urls: meta.urls, minShowInterval: .hour)),
            ("once per version", MetaItem(urls: meta.urls, oncePerVersion: OnceRule())),
            ("once per install", MetaItem(urls: meta.urls, oncePerInstall: OnceRule())),
        ]
        for (field, item) in metaVariants {
            vary("meta item \(field)", from: metaBase) { $0.news?.kind = .meta(item) }
        }
        for (field, old, new) in variants {
            #expect(changes([try old.entry], [try new.entry]).changed == ["a"], "a new \(field) must be a change")
        }
        let old = [try Fields().entry]
        #expect(
            ScheduleChanges(from: old, to: [try Fields().entry]).unchanged == [ScheduleChanges.Match(old: 0, new: 0)])
    }

    /// A plain entry keeps its title and body as one string, its lateness in seconds and its
    /// trigger in a compact form: a change of any of them, or of where the title ends, is a change.
    @Test func aChangeOfWhatAPlainEntryKeepsInLineIsAChange() {
        let first = FireTime(.absolute(instant("2026-06-01T09:00:00Z")))
        let daily = Trigger.repeating(first: first, every: .day, bounds: .unbounded)
        func entry(
            title: String = "Alpha", body: String = "", lateness: TimeSpan = .hours(24), trigger: Trigger = daily,
            dialect: FeedDialect = .native
        ) -> ScheduleEntry {
            ScheduleEntry(
                id: "a", dialect: dialect, content: NotificationContent(title: title, body: body), trigger: trigger,
                maxLateness: lateness)
        }
        let base = entry()
        let variants: [(String, ScheduleEntry)] = [
            ("title", entry(title: "Alpha!")), ("end of the title", entry(title: "Alph", body: "a")),
            ("body", entry(body: "The body.")), ("lateness", entry(lateness: .hours(23))),
            ("lateness by a microsecond", entry(lateness: TimeSpan(microseconds: 86_400_000_001))),
            ("interval", entry(trigger: .repeating(first: first, every: .week, bounds: .unbounded))),
            (
                "first time",
                entry(
                    trigger: .repeating(
                        first: FireTime(.absolute(instant("2026-06-02T09:00:00Z"))), every: .day, bounds: .unbounded))
            ),
            ("one-shot", entry(trigger: .once(first))),
            ("zone", entry(trigger: .once(FireTime(first.kind, zone: .utc)))),
            ("dialect", entry(dialect: .zbim)),
        ]
        for (field, changed) in variants {
            #expect(!changed.hasSameMeaning(as: base), "a new \(field) must be a change")
        }
        #expect(entry().hasSameMeaning(as: base))
    }

    @Test func everyTwoDifferentTriggersAreAChange() throws {
        let triggers = try triggers()
        let entries = try triggers.map { try Fields(trigger: $0).entry }
        for (oldIndex, old) in entries.enumerated() {
            for (newIndex, new) in entries.enumerated() {
                let expected = oldIndex == newIndex ? [String]() : ["a"]
                #expect(
                    changes([old], [new]).changed == expected,
                    "\(triggers[oldIndex]) to \(triggers[newIndex]) must \(expected.isEmpty ? "not " : "")be a change")
            }
        }
    }
}
