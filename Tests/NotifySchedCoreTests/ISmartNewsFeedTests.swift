import NotifySchedCore
import Testing

@Suite struct ISmartNewsFeedTests {
    @Test func patternOn2Off4RepeatsWithPeriodSix() throws {
        let pattern = try #require(EventPattern.parse("ON=2|OFF=4"))
        let answers = (0..<13).map { pattern.isActive(atOccurrence: $0) }
        #expect(answers == [true, true, false, false, false, false, true, true, false, false, false, false, true])
    }

    @Test func patternMayStartWithOff() throws {
        let pattern = try #require(EventPattern.parse("OFF=1|ON=1"))
        #expect((0..<4).map { pattern.isActive(atOccurrence: $0) } == [false, true, false, true])
    }

    @Test func invalidPatternsBehaveAsOn1() {
        for text in ["ON=0", "of=1|on=4", "off=1| on=4", "on=", "off=1||off=45", "=45", "on=-4", ""] {
            #expect(EventPattern.parse(text) == nil, "\"\(text)\" must be invalid")
            #expect(EventRule(name: "x", patternText: text).pattern == .alwaysOn)
        }
    }

    @Test func patternKeywordsAndEventNamesAreCaseInsensitive() {
        #expect(EventPattern.parse("oN=1")?.description == "ON=1")
        #expect(EventRule(name: "App:Activate", patternText: "ON=1").name == "app:activate")
    }

    @Test func feedWithoutGlobalEventsGetsTheDefaults() throws {
        let schedule = try #require(parse(#"[{"title": "Hi"}]"#).schedule)
        #expect(schedule.news?.usesDefaultEvents == true)
        #expect(
            schedule.news?.globalEvents.map(\.name) == [
                "app:activate", "app:didfinishlaunching", "app:didfinishlaunchingafterupgrade",
            ])
        #expect(schedule.news?.globalEvents.map(\.pattern) == [.alwaysOn, .alwaysOn, .alwaysOn])
    }

    @Test func globalEventsAndInvalidPatternsAreReadWithAWarning() throws {
        let result = parse(
            #"[{"event": {"name": " Session:Start ", "pattern": " ON=2"}}, {"Event": {"name": "b", "pattern": "off=1|ON=4"}}]"#
        )
        #expect(errors(result) == [])
        #expect(
            warnings(result) == [
                "line 1: [0].event.pattern: event pattern \" ON=2\" is not valid (ON=n|OFF=m…, n > 0); it behaves as ON=1"
            ])
        let events = try #require(result.schedule?.news?.globalEvents)
        #expect(events.map(\.name) == ["session:start", "b"])
        #expect(events.map(\.pattern.description) == ["ON=1", "OFF=1|ON=4"])
    }

    @Test func itemWithLocalEventsIgnoresGlobalOnes() throws {
        let schedule = try #require(
            parse(
                """
                [{"event": {"name": "app:activate", "pattern": "ON=1"}},
                 {"meta": {"uuid": "m1", "urls": ["https://e.org/1"], "events": {"e2": "ON=3|OFF=1"}}},
                 {"meta": {"uuid": "m2", "urls": ["https://e.org/2|3"]}}]
                """
            ).schedule)
        #expect(schedule.entries.map(\.id) == ["m1", "m2"])
        guard case .events(.local(let rules)) = schedule.entries[0].trigger,
            case .events(.global) = schedule.entries[1].trigger
        else {
            Issue.record("m1 must have local events and m2 the global ones")
            return
        }
        #expect(rules == [EventRule(name: "e2", patternText: "ON=3|OFF=1")])
    }

    @Test func classicMessageReadsEveryKey() throws {
        let result = parse(
            """
            [{"title": "T", "text": "X", "link": "https://e.org/l", "ok": "Go", "cancel": "default",
              "start": "2026-01-01T00:00:00Z", "end": "2026-02-01T00:00:00Z", "repeat": true, "always": 0,
              "counter": 3, "queue": " A ", "FirstShowInterval": 2, "type": "web", "style": {}}]
            """)
        // The iOS presentation keys are named, each with why it does nothing on the desktop.
        #expect(result.diagnostics.map(\.error.code) == [.unsupportedKey, .unsupportedKey])
        #expect(result.diagnostics.map(\.error.message).allSatisfy { $0.contains("is ignored:") })
        let entry = try #require(result.schedule?.entries.first)
        let rules = try #require(entry.news)
        #expect(rules.start == instant("2026-01-01T00:00:00Z"))
        #expect(rules.end == instant("2026-02-01T00:00:00Z"))
        #expect(rules.repeats && !rules.always)
        #expect(rules.counter == 3)
        #expect(rules.queue == "A")
        #expect(rules.okLabel == "Go")
        #expect(rules.cancelLabel == nil)
        #expect(entry.content.action?.label == "Go")
        #expect(entry.id == "news-" + rules.contentHash)
    }

    @Test func titleOnlyMessageHasAnEmptyBodyAndNoOKButton() throws {
        let entry = try #require(parse(#"[{"title": "Only a title"}]"#).schedule?.entries.first)
        #expect(entry.content.body == "")
        #expect(entry.content.action == nil)
    }

    @Test func windowStartIsInclusiveAndEndExclusive() throws {
        let entry = try #require(
            parse(#"[{"text": "x", "start": "2026-01-01T00:00:00Z", "end": "2026-02-01T00:00:00Z"}]"#).schedule?.entries
                .first)
        let rules = try #require(entry.news)
        #expect(!rules.isInWindow(at: instant("2025-12-31T23:59:59Z")))
        #expect(rules.isInWindow(at: instant("2026-01-01T00:00:00Z")))
        #expect(!rules.isInWindow(at: instant("2026-02-01T00:00:00Z")))
    }

    @Test func localizedKeysPreferLanguageAndCountry() throws {
        let feed = #"[{"title": "Hello", "text": "en", "text_fr": "fr", "text_fr_fr": "fr-FR", "title_de": "Hallo"}]"#
        #expect(
            try #require(parse(feed, language: LanguagePreference(localeName: "fr_FR.UTF-8")).schedule?.entries.first)
                .content.body == "fr-FR")
        #expect(
            try #require(parse(feed, language: LanguagePreference(localeName: "fr_CA.UTF-8")).schedule?.entries.first)
                .content.body == "fr")
        #expect(
            try #require(parse(feed, language: LanguagePreference(localeName: "de_DE")).schedule?.entries.first).content
                .title == "Hallo")
        let english = parse(feed, language: .none)
        #expect(try #require(english.schedule?.entries.first).content.body == "en")
        #expect(warnings(english) == [])
    }

    @Test func editingAnyFieldMakesANewMessage() throws {
        let before = try #require(parse(#"[{"title": "T", "text": "one"}]"#).schedule?.entries.first)
        let after = try #require(parse(#"[{"title": "T", "text": "two"}]"#).schedule?.entries.first)
        let reordered = try #require(parse(#"[{"text": "one", "TITLE": "T"}]"#).schedule?.entries.first)
        #expect(before.id != after.id)
        #expect(before.id == reordered.id)
    }

    @Test func settingsSectionReadsGateAndQueues() throws {
        let news = try #require(
            parse(
                #"[{"gate": 2, "queues": [{"name": "A", "timeout": 30}, {"name": "B", "timeout": -5}, {"name": "C", "timeout": 5000}]}]"#
            ).schedule?.news)
        #expect(news.gate == 2)
        #expect(
            news.queues == [
                NewsQueue(name: "A", timeout: .seconds(30)), NewsQueue(name: "B", timeout: .seconds(1)),
                NewsQueue(name: "C", timeout: .seconds(1000)),
            ])
    }

    @Test func metaItemNeedsUUIDAndURLsAndStartBeforeEnd() {
        let result = parse(
            #"[{"meta": {"urls": []}}, {"meta": {"uuid": "x", "urls": ["https://e.org"], "start": "2026-02-01T00:00:00Z", "end": "2026-01-01T00:00:00Z"}}]"#
        )
        #expect(
            errors(result) == [
                "line 1: [0].meta.uuid: `uuid` is required: a meta item needs a non-empty uuid",
                "line 1: [0].meta.urls: `urls` has no URL to show",
                "line 1: [1].meta.start: `start` must be before `end`",
            ])
    }
}
