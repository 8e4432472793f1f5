import NotifySchedCore
import Testing

@Suite struct PortalFeedTests {
    @Test func nativeEntryReadsEveryField() throws {
        let result = parse(
            """
            {"version": 3, "expires": "2027-01-01T00:00:00Z", "notifications": [{
              "id": "a", "title": "Title", "body": "Body", "fireDate": "2026-05-01T09:00:00",
              "timeZone": "Europe/Berlin", "repeatInterval": "day", "until": "2026-06-01T00:00:00Z", "count": 10,
              "maxLateness": "2h", "action": {"label": "Open", "url": "https://example.org/a"}, "urgency": "critical",
              "icon": "mail-unread", "category": "email", "expires": "2026-12-01T00:00:00Z",
              "minVersion": "1.0", "maxVersion": "2.0"
            }]}
            """)
        #expect(result.diagnostics == [])
        let schedule = try #require(result.schedule)
        #expect(schedule.dialect == .native)
        #expect(schedule.version == 3)
        #expect(schedule.expires == instant("2027-01-01T00:00:00Z"))
        let entry = try #require(schedule.entries.first)
        #expect(entry.id == "a")
        #expect(
            entry.content
                == NotificationContent(
                    title: "Title", body: "Body", icon: "mail-unread", urgency: .critical,
                    action: NotificationAction(
                        label: "Open", url: try ActionURL("https://example.org/a", policy: URLPolicy()))))
        #expect(entry.maxLateness == .hours(2))
        #expect(entry.expires == instant("2026-12-01T00:00:00Z"))
        #expect(entry.versions == VersionRange(minimum: "1.0", maximum: "2.0"))
        #expect(entry.category == "email")
        guard case .repeating(let first, .day, let bounds) = entry.trigger else {
            Issue.record("expected a daily repeat, got \(entry.trigger)")
            return
        }
        #expect(
            first
                == FireTime(
                    .floating(CivilDateTime(year: 2026, month: 5, day: 1, hour: 9)), zone: zone("Europe/Berlin")))
        #expect(bounds == RecurrenceBounds(until: instant("2026-06-01T00:00:00Z"), count: 10))
    }

    @Test func aNativeEntryMaySetItsTimeoutSoundImageAndMarkup() throws {
        let result = parse(
            """
            {"notifications": [
              {"id": "a", "title": "A", "body": "<b>Now</b>", "timeout": "8s", "sound": "message-new-instant",
               "image": "/usr/share/pixmaps/debian-logo.png", "markup": true},
              {"id": "b", "title": "B", "timeout": 0, "image": "file:///tmp/b.png"}
            ]}
            """)
        #expect(result.diagnostics == [])
        let entries = try #require(result.schedule?.entries)
        #expect(
            entries[0].content
                == NotificationContent(
                    title: "A", body: "<b>Now</b>", timeout: .seconds(8), sound: "message-new-instant",
                    image: "/usr/share/pixmaps/debian-logo.png", markup: true))
        #expect(entries[1].content.timeout == .zero && entries[1].content.image == "file:///tmp/b.png")
        #expect(entries[1].content.sound == nil && !entries[1].content.markup)
    }

    @Test func aTimeoutBeyondTheSpecsRangeAndAnImageThatIsNoFileAreErrorsNamingTheKey() {
        let result = parse(
            """
            {"notifications": [
              {"id": "a", "title": "A", "timeout": "25d"},
              {"id": "b", "title": "B", "image": "https://example.org/b.png"},
              {"id": "c", "title": "C", "image": "pictures/c.png"},
              {"id": "d", "title": "D", "markup": "yes"}
            ]}
            """)
        #expect(
            errors(result) == [
                "line 2: notifications[0].timeout: `timeout` must be at most 24 days (0 keeps the popup until it is closed)",
                #"line 3: notifications[1].image: `image` must be a picture file's absolute path or file:// URI, not "https://example.org/b.png""#,
                #"line 4: notifications[2].image: `image` must be a picture file's absolute path or file:// URI, not "pictures/c.png""#,
                "line 5: notifications[3].markup: `markup` must be a boolean, not a string",
            ])
        #expect(result.schedule?.entries.isEmpty == true)
    }

    @Test func entryWithoutTimeOrEventsFiresAtOnce() throws {
        let result = parse(#"{"notifications": [{"id": "now", "title": "Now"}]}"#)
        let entry = try #require(result.schedule?.entries.first)
        guard case .immediate = entry.trigger else {
            Issue.record("expected an immediate trigger, got \(entry.trigger)")
            return
        }
        #expect(
            entry.trigger.occurrences(onOrAfter: instant("2026-01-01T00:00:00Z"), limit: 3, userZone: .utc)
                == [instant("2026-01-01T00:00:00Z")])
    }

    @Test func everyProblemIsListedWithItsKeyPathAndLine() {
        let result = parse(
            """
            {"notifications": [
              {"title": "no id"},
              {"id": "b", "title": "T", "fireDate": "tomorrow"},
              {"id": "c", "title": "T", "timeZone": "Mars/Olympus_Mons"},
              {"id": "d", "title": "T", "action": {"url": "javascript:alert(1)"}},
              {"id": "e", "title": "T", "action": {"url": "file:///etc/passwd"}},
              {"id": "f", "title": "T", "fireDate": "2026-01-01T00:00:00Z", "repeatInterval": "day", "count": -1},
              {"id": "g", "title": 5},
              {"id": "h", "title": "T", "repeatInterval": "second", "fireDate": "2026-01-01T00:00:00Z"},
              {"id": "b", "title": "again"}
            ]}
            """)
        #expect(
            errors(result) == [
                "line 2: notifications[0].id: `id` is required (a stable, unique string)",
                "line 3: notifications[1].fireDate: `fireDate` is not a date and time (RFC 3339, e.g. 2026-03-29T09:00:00Z): \"tomorrow\"",
                "line 4: notifications[2].timeZone: `timeZone` \"Mars/Olympus_Mons\" is not in the time-zone database",
                "line 5: notifications[3].action.url: `url`: the URL scheme \"javascript:\" is not allowed (allowed: http, https, mailto)",
                "line 6: notifications[4].action.url: `url`: the URL scheme \"file:\" is not allowed (allowed: http, https, mailto)",
                "line 7: notifications[5].count: `count` must be between 1 and 1000000, not -1",
                "line 8: notifications[6].title: `title` must be a string, not an integer",
                "line 9: notifications[7].repeatInterval: `repeatInterval` of less than a minute is not supported",
                "line 10: notifications[8]: id \"b\" is already used by notifications[1]",
            ])
        #expect(result.schedule?.entries.map(\.id) == [])
    }

    @Test func unknownKeysAreKeptAndReportedAsWarnings() {
        let result = parse(#"{"notifications": [{"id": "a", "title": "T", "colour": "red"}], "publisher": "x"}"#)
        #expect(errors(result) == [])
        #expect(
            warnings(result) == [
                "line 1: notifications[0].colour: unknown key `colour` is ignored",
                "line 1: publisher: unknown key `publisher` is ignored",
            ])
        #expect(result.schedule?.entries.count == 1)
    }

    @Test func zbimFlatFormGetsTheSDKDefaults() throws {
        let result = parse(
            """
            {"notifications": [{"id": 7, "uuid": "u-1", "uri": "https://example.org/c", "year": "2030", "month": "3",
              "day": "10", "hour": "12", "minute": "0", "is_utc": 1}]}
            """)
        #expect(result.diagnostics == [])
        #expect(result.schedule?.dialect == .zbim)
        let entry = try #require(result.schedule?.entries.first)
        #expect(entry.id == "u-1")
        #expect(entry.content.title == "New Content Available")
        #expect(entry.content.body == "Tap to explore")
        #expect(entry.content.action?.url.string == "https://example.org/c")
        #expect(entry.maxLateness == .zero)
        #expect(
            entry.trigger.occurrences(
                onOrAfter: instant("2030-01-01T00:00:00Z"), limit: 2, userZone: zone("Europe/Berlin"))
                == [instant("2030-03-10T12:00:00Z")])
    }

    @Test func zbimEntryWithoutURIIsMalformed() {
        let result = parse(
            #"{"notifications": [{"uuid": "u", "year": 2030, "month": 1, "day": 1, "hour": 0, "minute": 0}]}"#)
        #expect(
            errors(result) == [
                "line 1: notifications[0].uri: `uri` is required: a ZBiM notification without a content URI is malformed"
            ])
    }

    /// A year no time can be computed for was an arithmetic trap in `validate`, `list` and the
    /// daemon (a cached copy of such a feed crashed every start): it is an error at its key.
    @Test(arguments: ["2147483648", "9223372036854775807", "-9223372036854775808", "0", "10000"])
    func aZBiMYearOutsideTheSupportedYearsIsAnErrorNotATrap(year: String) {
        let result = parse(
            #"{"notifications": [{"uuid": "u", "uri": "https://e.org/", "year": \#(year), "month": 1, "day": 1, "hour": 0, "minute": 0, "is_utc": 1}]}"#
        )
        #expect(errors(result) == ["line 1: notifications[0].year: year \(year) is outside the years 1 to 9999"])
        #expect(result.schedule?.entries.isEmpty ?? true)
    }

    /// `maxLateness: 1e308` was reported as negative: a span too large for a time says so.
    @Test(arguments: [
        ("1e308", "`maxLateness` must be a number of seconds below 9000000000000"),
        ("9000000000000", "`maxLateness` must be a number of seconds below 9000000000000"),
        ("-5", "`maxLateness` must not be negative"),
        ("-0.5", "`maxLateness` must not be negative"),
    ])
    func aSpanOutOfRangeSaysWhichWay(value: String, message: String) {
        let result = parse(nativeFeed(#""fireDate": "2030-01-01T00:00:00Z", "maxLateness": \#(value)"#))
        #expect(errors(result) == ["line 1: notifications[0].maxLateness: \(message)"])
    }

    @Test func zbimLocalComponentsAreFloating() throws {
        let result = parse(
            #"{"notifications": [{"uuid": "u", "uri": "https://e.org/", "year": 2030, "month": 3, "day": 10, "hour": 12, "minute": 0}]}"#
        )
        let entry = try #require(result.schedule?.entries.first)
        let now = instant("2030-01-01T00:00:00Z")
        #expect(
            entry.trigger.occurrences(onOrAfter: now, limit: 1, userZone: zone("America/New_York")) == [
                instant("2030-03-10T12:00:00-04:00")
            ])
        #expect(
            entry.trigger.occurrences(onOrAfter: now, limit: 1, userZone: zone("Asia/Kolkata")) == [
                instant("2030-03-10T12:00:00+05:30")
            ])
    }

    @Test func zbimEntryInThePastIsSkippedButNowIsStillScheduled() throws {
        let result = parse(
            #"{"notifications": [{"uuid": "u", "uri": "https://e.org/", "year": 2030, "month": 3, "day": 10, "hour": 12, "minute": 0, "is_utc": 1}]}"#
        )
        let entry = try #require(result.schedule?.entries.first)
        let fire = instant("2030-03-10T12:00:00Z")
        #expect(entry.trigger.occurrences(onOrAfter: fire, limit: 1, userZone: .utc) == [fire])
        #expect(entry.trigger.occurrences(onOrAfter: fire + .seconds(1), limit: 1, userZone: .utc) == [])
        // maxLateness 0: a missed ZBiM notification is not caught up.
        let missed = try #require(entry.trigger.lastOccurrence(before: fire + .seconds(1), userZone: .utc))
        #expect((fire + .seconds(1)) - missed > entry.maxLateness)
    }

    @Test func disallowedSchemeCanBeAllowedByPolicyButNeverJavascript() {
        let feed =
            #"{"notifications": [{"id": "a", "title": "T", "action": "zbimdb://hub/1"}, {"id": "b", "title": "T", "action": "javascript:x"}]}"#
        #expect(
            errors(parse(feed, policy: URLPolicy(extraSchemes: ["zbimdb", "javascript"]))) == [
                "line 1: notifications[1].action: `action`: the URL scheme \"javascript:\" is not allowed (allowed: http, https, mailto, zbimdb)"
            ])
    }
}
