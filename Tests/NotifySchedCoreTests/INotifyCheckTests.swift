import NotifySchedCore
import Testing

@Suite struct INotifyCheckTests {
    private let now = instant("2026-06-01T12:00:00Z")

    private func entries(_ json: String) throws -> [ScheduleEntry] {
        let result = parse(json)
        #expect(errors(result) == [])
        return try #require(result.schedule?.entries)
    }

    private func select(
        _ entries: [ScheduleEntry], viewed: [String] = [], ignored: [String] = [],
        settings: INotifySettings = INotifySettings(), canOpen: (ActionURL) -> Bool = { _ in true }
    ) -> INotifyCheck.Selection {
        INotifyCheck.select(from: entries, viewed: viewed, ignored: ignored, settings: settings, canOpen: canOpen)
    }

    @Test func firstLaunchIsSkippedUnlessShowOnFirstLaunch() {
        #expect(
            INotifyCheck.decision(
                at: now, settings: INotifySettings(), hasRunBefore: false, lastChecked: nil, lastReminded: nil)
                == .firstLaunch)
        #expect(
            INotifyCheck.decision(
                at: now, settings: INotifySettings(), hasRunBefore: true, lastChecked: nil, lastReminded: nil) == .check
        )
        #expect(
            INotifyCheck.decision(
                at: now, settings: INotifySettings(showOnFirstLaunch: true), hasRunBefore: false, lastChecked: nil,
                lastReminded: nil)
                == .check)
    }

    @Test func checkPeriodIsStrict() {
        let settings = INotifySettings()
        let early = now - TimeSpan(microseconds: TimeSpan.hours(12).microseconds * 4 / 5)
        #expect(
            INotifyCheck.decision(
                at: now, settings: settings, hasRunBefore: true, lastChecked: early, lastReminded: nil)
                == .throttled(until: early + .hours(12)))
        #expect(
            INotifyCheck.decision(
                at: now, settings: settings, hasRunBefore: true, lastChecked: now - .hours(12), lastReminded: nil)
                == .check)
    }

    @Test func pendingReminderReplacesTheCheckPeriod() {
        let settings = INotifySettings()
        let reminded = now - .hours(21)
        #expect(
            INotifyCheck.decision(
                at: now, settings: settings, hasRunBefore: true, lastChecked: now - .days(3), lastReminded: reminded)
                == .throttled(until: reminded + .days(1)))
        #expect(
            INotifyCheck.decision(
                at: now, settings: settings, hasRunBefore: true, lastChecked: now - .minutes(1),
                lastReminded: now - .hours(27))
                == .check)
    }

    @Test func debugIgnoresPeriodsAndFirstLaunch() {
        let settings = INotifySettings(debug: true)
        #expect(
            INotifyCheck.decision(at: now, settings: settings, hasRunBefore: false, lastChecked: now, lastReminded: now)
                == .check)
    }

    @Test func newestKeyFirstOrOldestFirst() throws {
        let feed = try entries(#"{"2011/01/22": {"Title": "old"}, "2011/02/01": {"Title": "new"}}"#)
        #expect(select(feed).key == "2011/02/01")
        #expect(select(feed, settings: INotifySettings(showOldestFirst: true)).key == "2011/01/22")
        let strings = try entries(#"{"2011/9/30": {}, "2011/10/01": {}}"#)
        #expect(select(strings).key == "2011/9/30")
    }

    @Test func viewedAndIgnoredKeysAreNeverSurfaced() throws {
        let feed = try entries(#"{"a": {}, "b": {}, "c": {}}"#)
        let selection = select(feed, viewed: ["c"], ignored: ["b"])
        #expect(selection == INotifyCheck.Selection(detected: ["a"], key: "a", resetsSeenLists: false))
        #expect(
            select(feed, viewed: ["a", "c"], ignored: ["b"])
                == INotifyCheck.Selection(detected: [], key: nil, resetsSeenLists: false))
    }

    @Test func debugStartsOverOnlyWhenEverythingWasSeen() throws {
        let feed = try entries(#"{"a": {}, "b": {}}"#)
        let debug = INotifySettings(debug: true)
        #expect(
            select(feed, viewed: ["a"], ignored: ["b"], settings: debug)
                == INotifyCheck.Selection(detected: ["a", "b"], key: "b", resetsSeenLists: true))
        #expect(
            select(feed, viewed: ["b"], settings: debug)
                == INotifyCheck.Selection(detected: ["a"], key: "a", resetsSeenLists: false))
    }

    @Test func versionRangeFiltersWithNumericComparison() throws {
        let feed = try entries(
            #"{"a": {"MinVersion": "1.0.0"}, "b": {"MinVersion": "1.0"}, "c": {"MaxVersion": "0.9"}}"#)
        #expect(select(feed, settings: INotifySettings(applicationVersion: "1.0")).detected == ["b"])
    }

    @Test func unopenableActionIsPassedOverWithoutBlockingOlderMessages() throws {
        let feed = try entries(#"{"2": {"ActionURL": "https://nobody.example/x"}, "1": {"Title": "older"}}"#)
        let selection = select(feed, canOpen: { $0.string != "https://nobody.example/x" })
        #expect(selection.key == "1")
        #expect(selection.detected == ["2", "1"])
    }
}
