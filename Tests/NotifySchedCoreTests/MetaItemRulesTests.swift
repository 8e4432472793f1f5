import NotifySchedCore
import Testing

/// iSmartNews meta items' own rules (seed semantics §2.8), each written from its wording: the
/// item's `dates`, `minShowInterval`, `oncePerVersion`, `oncePerInstall`, `showOnlyIfUpgrade`,
/// `FirstShowInterval` and `uselocaltime`, the special uuids' defaults, and the random pick
/// among items when the active events have several names.
@Suite struct MetaItemRulesTests {
    private static let paris = zone("Europe/Paris")

    /// One iSmartNews source living through launches, events and closings, as the daemon
    /// threads its state: what each occurrence showed, by entry id.
    private struct Source {
        var schedule: Schedule
        var state = NewsState()
        var handling = SourceHandlingState()

        init(_ json: String) throws {
            let result = parse(json, userZone: MetaItemRulesTests.paris)
            #expect(errors(result) == [])
            schedule = try #require(result.schedule)
        }

        /// The daemon starting in a session at `now` with the configured `version`.
        mutating func launch(at now: Instant, version: String? = nil, seed: UInt64 = 0) -> [String] {
            state.startSession(version: version, at: now)
            return post("session:start", at: now, seed: seed)
        }

        mutating func post(_ event: String, at now: Instant, seed: UInt64 = 0) -> [String] {
            let cycle = NewsCycle(
                event: event, schedule: schedule, state: state, handling: handling, now: now,
                zone: MetaItemRulesTests.paris, seed: seed)
            state = cycle.state
            return cycle.items.map(\.entryID)
        }

        /// The user closes the item's popup: `.metaOK` opening its page, `.metaCancelled` else,
        /// in the version the last session started in, as the state database notes it.
        mutating func close(_ uuid: String, _ change: StateChange, at now: Instant) throws {
            let entry = try #require(schedule.entries.first { $0.id == uuid })
            var all = HandlingState(sources: ["test-feed": handling])
            all.apply(
                change, to: DeliveredOccurrence(id: "o", entry: entry, source: "test-feed", deliveredAt: now), at: now,
                applicationVersion: state.applicationVersion)
            handling = all["test-feed"]
        }

        /// The feed as reloaded with `json`, the state kept.
        mutating func reload(_ json: String) throws {
            let result = parse(json, userZone: MetaItemRulesTests.paris)
            #expect(errors(result) == [])
            schedule = try #require(result.schedule)
        }
    }

    // 2026-11-23 is a Monday; Paris is UTC+1 then.
    private let mondayAt0930 = instant("2026-11-23T09:30:00+01:00")
    private let wednesdayAt0930 = instant("2026-11-25T09:30:00+01:00")

    @Test func aWeeklyRangeShowsOnlyInsideItAndOncePerInstallEndsIt() throws {
        // The reported case: dates Monday 09–10, oncePerInstall, minShowInterval week, shown
        // on a Wednesday and again after OK.
        var source = try Source(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "dates": [{"start": "MO(09:00)", "end": "MO(10:00)"}],
                       "oncePerInstall": true, "minShowInterval": "week"}}]
            """)
        #expect(source.launch(at: wednesdayAt0930) == [])
        #expect(source.post("session:resume", at: mondayAt0930 + .days(7)) == ["m"])
        try source.close("m", .metaOK, at: mondayAt0930 + .days(7) + .seconds(5))
        #expect(source.post("session:resume", at: mondayAt0930 + .days(14)) == [])
        #expect(source.post("session:resume", at: mondayAt0930 + .days(70)) == [])
    }

    @Test func aRangeIncludesItsStartAndExcludesItsEndInLocalTime() throws {
        var source = try Source(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "dates": [{"start": "mo(09:00)", "end": "MO(10:00)"}]}}]
            """)
        _ = source.launch(at: wednesdayAt0930)
        #expect(source.post("session:resume", at: instant("2026-11-30T08:59:59+01:00")) == [])
        #expect(source.post("session:resume", at: instant("2026-11-30T09:00:00+01:00")) == ["m"])
        #expect(source.post("session:resume", at: instant("2026-11-30T09:59:59+01:00")) == ["m"])
        #expect(source.post("session:resume", at: instant("2026-11-30T10:00:00+01:00")) == [])
        // 09:30 UTC is 10:30 in Paris: outside.
        #expect(source.post("session:resume", at: instant("2026-11-30T09:30:00Z")) == [])
    }

    @Test func shownLimitCountsPerWeekAndStartsAgainTheNextWeek() throws {
        var source = try Source(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"],
                       "dates": [{"templates": "weekdays", "start": "(08:00)", "end": "(18:00)", "shownlimit": 2}]}}]
            """)
        _ = source.launch(at: wednesdayAt0930 - .days(7))
        let shows = (0..<4).map { source.post("session:resume", at: mondayAt0930 + .hours($0)) }
        #expect(shows == [["m"], ["m"], [], []])
        // Saturday is outside `weekdays`; the next Monday starts a new week.
        #expect(source.post("session:resume", at: mondayAt0930 + .days(5)) == [])
        #expect(source.post("session:resume", at: mondayAt0930 + .days(7)) == ["m"])
    }

    @Test func aWeekStartsOnMondayForTheLimitsCount() throws {
        var source = try Source(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"],
                       "dates": [{"templates": "weekend", "shownlimit": 1}]}}]
            """)
        let saturday = mondayAt0930 - .days(2)
        _ = source.launch(at: saturday - .days(7))
        #expect(source.post("session:resume", at: saturday) == ["m"])
        #expect(source.post("session:resume", at: saturday + .days(1)) == [], "Sunday is the same week")
        #expect(source.post("session:resume", at: saturday + .days(7)) == ["m"])
    }

    @Test func aRangeWhoseDatesChangeCountsFromZeroAndDroppedItemsAreForgotten() throws {
        func feed(_ end: String) -> String {
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"],
                       "dates": [{"start": "2026-11-01T00:00:00Z", "end": "\(end)", "shownlimit": 1}]}}]
            """
        }
        var source = try Source(feed("2026-12-01T00:00:00Z"))
        #expect(source.launch(at: mondayAt0930) == ["m"])
        #expect(source.post("session:resume", at: mondayAt0930 + .hours(1)) == [])
        // iSmartNews resets a range's count when its dates change: a new campaign.
        try source.reload(feed("2026-12-15T00:00:00Z"))
        #expect(source.post("session:resume", at: mondayAt0930 + .hours(2)) == ["m"])
        #expect(source.state.rangeShows.count == 1, "the old range's count is forgotten")
        try source.reload(#"[{"title": "A", "always": true}]"#)
        _ = source.post("session:resume", at: mondayAt0930 + .hours(3))
        #expect(
            source.state.metaShownAt.isEmpty && source.state.rangeShows.isEmpty && source.state.lastMetaShown.isEmpty)
    }

    @Test func aRangeThatEndsBeforeItStartsIsWarnedAbout() {
        let result = parse(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "dates": [{"start": "SU(22:00)", "end": "MO(06:00)"}]}}]
            """)
        #expect(errors(result) == [])
        #expect(warnings(result).contains { $0.contains("the range ends before it starts, so it never holds") })
    }

    @Test func wallClockRulesFollowTheZonesDaylightSavingTime() throws {
        // 2027-03-28: Paris moves from UTC+1 to UTC+2. Monday 29 09:30 local is 07:30 UTC.
        var source = try Source(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "minShowInterval": "day",
                       "dates": [{"start": "MO(09:00)", "end": "MO(10:00)"}, {"start": "SU(01:00)", "end": "SU(23:00)"}]}}]
            """)
        _ = source.launch(at: instant("2027-03-20T12:00:00Z"))
        // Sunday 23:30 local (after the change, 21:30 UTC) is outside the Sunday range.
        #expect(source.post("session:resume", at: instant("2027-03-28T21:30:00Z")) == [])
        #expect(source.post("session:resume", at: instant("2027-03-28T20:30:00Z")) == ["m"])
        #expect(source.post("session:resume", at: instant("2027-03-29T08:30:00Z")) == [], "10:30 in Paris")
        #expect(source.post("session:resume", at: instant("2027-03-29T07:30:00Z")) == ["m"], "a new day")
    }

    @Test func aMonthlyRangeRepeatsOnItsDaysOfEveryMonth() throws {
        var source = try Source(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "dates": [{"start": "1(00:00)", "end": "3(00:00)"}]}}]
            """)
        _ = source.launch(at: wednesdayAt0930)
        #expect(source.post("session:resume", at: instant("2026-11-30T23:59:00+01:00")) == [])
        #expect(source.post("session:resume", at: instant("2026-12-01T00:00:00+01:00")) == ["m"])
        #expect(source.post("session:resume", at: instant("2026-12-02T23:59:00+01:00")) == ["m"])
        #expect(source.post("session:resume", at: instant("2026-12-03T00:00:00+01:00")) == [])
        #expect(source.post("session:resume", at: instant("2027-01-01T00:00:00+01:00")) == ["m"])
    }

    @Test func aMalformedRangeDropsTheItemWithAnErrorNamingIt() {
        let result = parse(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "dates": [{"start": "XX(09:00)", "end": "MO(10:00)"}]}},
             {"meta": {"uuid": "n", "urls": ["https://e.org/n"], "dates": [{"templates": "weekdays|holidays"}]}},
             {"meta": {"uuid": "o", "urls": ["https://e.org/o"], "dates": [{"start": "MO(09:00)", "end": "1(10:00)"}]}}]
            """)
        #expect(
            errors(result) == [
                #"line 1: [0].meta.dates[0].start: `start` names no weekday (MO…SU) or day of the month (1…31): "XX(09:00)""#,
                #"line 2: [1].meta.dates[0].templates: `templates` names "holidays"; it takes weekdays, weekend, each_day_of_weekdays, each_day_of_weekend or each_day"#,
                "line 3: [2].meta.dates[0].start: `start` and `end` must both be dates, both weekly or both monthly",
            ])
        #expect(result.schedule?.entries.isEmpty == true)
    }

    @Test func minShowIntervalCountsClockHoursCalendarDaysWeeksOrSeconds() throws {
        func shows(_ interval: String, at offsets: [TimeSpan]) throws -> [Bool] {
            var source = try Source(
                #"[{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "minShowInterval": \#(interval)}}]"#)
            _ = source.launch(at: mondayAt0930 - .days(30))
            return offsets.map { !source.post("session:resume", at: mondayAt0930 + $0).isEmpty }
        }
        // 09:30 shown; 09:59 same hour; 10:00 a new hour.
        #expect(try shows(#""hour""#, at: [.zero, .minutes(29), .minutes(30)]) == [true, false, true])
        // Monday 09:30 shown; 23:59 the same day; Tuesday 00:00 a new day.
        #expect(
            try shows(#""day""#, at: [.zero, .hours(14) + .minutes(29), .hours(14) + .minutes(30)]) == [
                true, false, true,
            ])
        #expect(
            try shows(#""week""#, at: [.zero, .days(6) + .hours(14), .days(7) - .hours(9)]) == [true, false, true])
        #expect(try shows("90", at: [.zero, .seconds(89), .seconds(90)]) == [true, false, true])
        #expect(try shows(#""90""#, at: [.zero, .seconds(89), .seconds(90)]) == [true, false, true])
    }

    @Test func oncePerVersionCountsItsConditionsAndEndsWithTheVersion() throws {
        var source = try Source(
            #"[{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "oncePerVersion": "ok"}}]"#)
        let day = TimeSpan.days(1)
        #expect(source.launch(at: mondayAt0930, version: "1.0") == ["m"])
        try source.close("m", .metaCancelled, at: mondayAt0930 + .seconds(5))
        // Cancel is not among its conditions: it shows again.
        #expect(source.launch(at: mondayAt0930 + day, version: "1.0") == ["m"])
        try source.close("m", .metaOK, at: mondayAt0930 + day + .seconds(5))
        #expect(source.launch(at: mondayAt0930 + day * 2, version: "1.0") == [])
        #expect(source.post("session:resume", at: mondayAt0930 + day * 3) == [])
        // A new version shows it again, once.
        #expect(source.launch(at: mondayAt0930 + day * 4, version: "1.1") == ["m"])
        try source.close("m", .metaOK, at: mondayAt0930 + day * 4 + .seconds(5))
        #expect(source.launch(at: mondayAt0930 + day * 5, version: "1.1") == [])
    }

    @Test func oncePerVersionComparesVersionsSoADowngradeKeepsItAway() throws {
        // iSmartNews compares the version it was closed in with the version now.
        var source = try Source(#"[{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "oncePerVersion": true}}]"#)
        #expect(source.launch(at: mondayAt0930, version: "2.0") == ["m"])
        try source.close("m", .metaOK, at: mondayAt0930 + .seconds(5))
        #expect(source.launch(at: mondayAt0930 + .days(1), version: "2.1") == ["m"])
        #expect(source.launch(at: mondayAt0930 + .days(2), version: "2.0") == [])
    }

    @Test func oncePerInstallWithoutConditionsEndsAtAnyClosing() throws {
        var source = try Source(#"[{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "oncePerInstall": 1}}]"#)
        #expect(source.launch(at: mondayAt0930, version: "1.0") == ["m"])
        try source.close("m", .metaCancelled, at: mondayAt0930 + .seconds(5))
        #expect(source.launch(at: mondayAt0930 + .days(1), version: "2.0") == [])
    }

    @Test func showOnlyIfUpgradeShowsOnlyInASessionStartedAfterTheVersionChanged() throws {
        var source = try Source(
            #"[{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "showOnlyIfUpgrade": true}}]"#)
        #expect(source.launch(at: mondayAt0930, version: "1.0") == [])
        #expect(source.launch(at: mondayAt0930 + .days(1), version: "1.0") == [])
        #expect(source.launch(at: mondayAt0930 + .days(2), version: "1.1") == ["m"])
        #expect(source.post("session:resume", at: mondayAt0930 + .days(2) + .hours(1)) == ["m"])
        #expect(source.launch(at: mondayAt0930 + .days(3), version: "1.1") == [])
    }

    @Test func whatIsNewShowsAtTheLaunchAfterAnUpgradeOncePerVersion() throws {
        var source = try Source(
            #"[{"title": "A", "always": true}, {"meta": {"uuid": "what_is_new", "urls": ["https://e.org/w"]}}]"#)
        #expect(source.launch(at: mondayAt0930, version: "1.0").contains("what_is_new") == false)
        let upgraded = mondayAt0930 + .days(1)
        #expect(source.launch(at: upgraded, version: "2.0") == ["news-" + classicHash(source)!, "what_is_new"])
        try source.close("what_is_new", .metaOK, at: upgraded + .seconds(5))
        #expect(
            !source.post("app:didfinishlaunchingafterupgrade", at: upgraded + .hours(1)).contains("what_is_new"),
            "once per version")
        #expect(source.launch(at: upgraded + .days(1), version: "3.0").contains("what_is_new"))
        // Its own event: a resume does not show it.
        #expect(source.post("session:resume", at: upgraded + .days(1) + .hours(1)).contains("what_is_new") == false)
    }

    private func classicHash(_ source: Source) -> String? {
        source.schedule.entries.first { if case .message? = $0.news?.kind { true } else { false } }?.news?.contentHash
    }

    @Test func subscribeItemsShowOncePerInstallAndReviewListensToItsManualEvent() throws {
        var source = try Source(
            """
            [{"meta": {"uuid": "subscribe_weekly", "urls": ["https://e.org/s"]}},
             {"meta": {"uuid": "review", "urls": ["https://e.org/r"]}}]
            """)
        #expect(source.launch(at: mondayAt0930, version: "1.0") == ["review"])
        try source.close("review", .metaCancelled, at: mondayAt0930 + .seconds(1))
        #expect(source.post("session:resume", at: mondayAt0930 + .hours(1)) == ["subscribe_weekly"])
        try source.close("subscribe_weekly", .metaOK, at: mondayAt0930 + .hours(1))
        #expect(source.post("session:resume", at: mondayAt0930 + .hours(2)) == [])
        // review's oncePerVersion (cancel|review|ok) holds until a new version.
        #expect(source.post("review:show_review_manually", at: mondayAt0930 + .hours(3)) == [])
        #expect(source.launch(at: mondayAt0930 + .days(1), version: "1.1") == ["review"])
        try source.close("review", .metaOK, at: mondayAt0930 + .days(1))
        #expect(source.launch(at: mondayAt0930 + .days(2), version: "1.2") == ["review"])
        #expect(source.post("review:show_review_manually", at: mondayAt0930 + .days(2) + .hours(1)) == ["review"])
    }

    @Test func whatIsNewAndReviewAreTheOnlyCandidatesWhileEligible() throws {
        // iSmartNews's onlySingleUuid: no rotation passes what_is_new, then review, by.
        var source = try Source(
            """
            [{"meta": {"uuid": "a", "urls": ["https://e.org/a"]}},
             {"meta": {"uuid": "review", "urls": ["https://e.org/r"]}},
             {"meta": {"uuid": "what_is_new", "urls": ["https://e.org/w"], "events": {"app:didfinishlaunchingafterupgrade": "ON=1", "app:activate": "ON=1"}}}]
            """)
        #expect(source.launch(at: mondayAt0930, version: "1.0") == ["review"])
        #expect(source.launch(at: mondayAt0930 + .days(1), version: "1.0") == ["review"])
        try source.close("review", .metaCancelled, at: mondayAt0930 + .days(1))
        #expect(source.launch(at: mondayAt0930 + .days(2), version: "1.0") == ["a"])
        for day in 3...4 {
            let version = "1.\(day)"
            #expect(source.launch(at: mondayAt0930 + .days(Int64(day)), version: version) == ["what_is_new"])
        }
    }

    @Test func firstShowIntervalWaitsCalendarDaysSinceTheFirstStart() throws {
        var source = try Source(
            """
            [{"title": "A", "always": true, "FirstShowInterval": 2},
             {"meta": {"uuid": "m", "urls": ["https://e.org/m"], "FirstShowInterval": 1}}]
            """)
        #expect(source.launch(at: mondayAt0930).isEmpty)
        #expect(source.post("session:resume", at: instant("2026-11-24T00:00:00+01:00")) == ["m"])
        #expect(source.post("session:resume", at: instant("2026-11-25T00:00:00+01:00")).count == 2)
    }

    @Test func useLocalTimeReadsTheItemsDatesAsWallClockTime() throws {
        var source = try Source(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "uselocaltime": true,
                       "start": "2026-11-23T09:00:00Z", "end": "2026-11-23T10:00:00Z"}}]
            """)
        _ = source.launch(at: mondayAt0930 - .days(1))
        // 09:00–10:00 in Paris, not in UTC.
        #expect(source.post("session:resume", at: instant("2026-11-23T09:30:00Z")) == [])
        #expect(source.post("session:resume", at: instant("2026-11-23T08:30:00Z")) == ["m"])
    }

    @Test func severalActiveEventNamesPickAtRandomAndOneNameRoundRobin() throws {
        var source = try Source(
            """
            [{"meta": {"uuid": "a", "urls": ["https://e.org/a"], "events": {"x": "ON=1", "y": "ON=1"}}},
             {"meta": {"uuid": "b", "urls": ["https://e.org/b"], "events": {"x": "ON=1", "y": "ON=1"}}},
             {"meta": {"uuid": "c", "urls": ["https://e.org/c"], "events": {"x": "ON=1", "y": "ON=1"}}}]
            """)
        #expect((0..<4).map { _ in source.post("x", at: mondayAt0930) } == [["a"], ["b"], ["c"], ["a"]])
        // A launch is one occurrence carrying two names (`session:start` and
        // `app:didfinishlaunching`); with items listening to both, two names are active and the
        // pick is random, fixed by the seed, and the round-robin is left alone.
        var twoNames = try Source(
            """
            [{"meta": {"uuid": "a", "urls": ["https://e.org/a"], "events": {"session:start": "ON=1", "app:didfinishlaunching": "ON=1"}}},
             {"meta": {"uuid": "b", "urls": ["https://e.org/b"], "events": {"session:start": "ON=1", "app:didfinishlaunching": "ON=1"}}},
             {"meta": {"uuid": "c", "urls": ["https://e.org/c"], "events": {"session:start": "ON=1", "app:didfinishlaunching": "ON=1"}}}]
            """)
        let picks = (0..<60).map { UInt64($0) }.map { seed in
            twoNames.post("session:start", at: mondayAt0930, seed: seed)
        }
        #expect(Set(picks) == [["a"], ["b"], ["c"]])
        #expect(picks == (0..<60).map { UInt64($0) }.map { twoNames.post("session:start", at: mondayAt0930, seed: $0) })
        #expect(twoNames.state.lastMetaShown.isEmpty)
    }

    @Test func aNumberOrBooleanOfAnotherTypeIsPassedOverWithAWarningAsISmartNewsDoes() throws {
        // iSmartNews reads these only when they are NSNumbers: a string is as good as absent.
        let result = parse(
            #"[{"title": "T", "repeat": "YES", "always": 1, "counter": "2"}, {"gate": "1"}]"#)
        #expect(errors(result) == [])
        #expect(warnings(result).count == 3)
        #expect(warnings(result).allSatisfy { $0.contains("iSmartNews passes it over, and so does notify-sched") })
        let rules = try #require(result.schedule?.entries.first?.news)
        #expect(!rules.repeats && rules.always && rules.counter == nil)
        #expect(result.schedule?.news?.gate == nil)
    }

    @Test func minDelayAndMaxDelayHoldTheItemBackARandomFewSecondsAtMostAMinute() throws {
        let source = try Source(
            """
            [{"title": "A", "always": true},
             {"meta": {"uuid": "m", "urls": ["https://e.org/m"], "minDelay": 5, "maxDelay": 90}}]
            """)
        var delays: Set<TimeSpan> = []
        for seed in UInt64(0)..<200 {
            let cycle = NewsCycle(
                event: "session:resume", schedule: source.schedule, state: NewsState(), handling: .init(),
                now: mondayAt0930, seed: seed)
            #expect(cycle.items.map(\.entryID).last == "m")
            delays.insert(try #require(cycle.items.last).delay)
        }
        #expect(delays.allSatisfy { $0 >= .seconds(5) && $0 <= .seconds(60) })
        #expect(delays.count > 20, "the wait is drawn from the seed")
        let ignored = parse(#"[{"meta": {"uuid": "m", "urls": ["https://e.org/m"], "minDelay": 9, "maxDelay": 3}}]"#)
        #expect(warnings(ignored).contains { $0.contains("the item shows without a delay") })
    }

    @Test func keysWithoutEffectOnTheDesktopAreWarnedAboutByName() {
        let result = parse(
            """
            [{"meta": {"uuid": "m", "urls": ["https://e.org/m|3|$fb", "https://e.org/n"], "orientations": "up",
                       "segment": "pro", "oncePerVersion": "review", "oncePerInstall": true}}]
            """)
        #expect(errors(result) == [])
        let warned = warnings(result)
        #expect(warned.count == 6)
        #expect(warned.contains { $0.contains("[0].meta.orientations: `orientations` is ignored") })
        #expect(warned.contains { $0.contains("[0].meta.segment: `segment` is ignored") })
        #expect(warned.contains { $0.contains("`oncePerVersion` counts only review") })
        #expect(warned.contains { $0.contains("`oncePerInstall` is ignored beside `oncePerVersion`") })
        #expect(warned.contains { $0.contains("only the first URL is shown") })
        #expect(warned.contains { $0.contains("the flags after the URL (3|$fb) are ignored") })
    }
}
