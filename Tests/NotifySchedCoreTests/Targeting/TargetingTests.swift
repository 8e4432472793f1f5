import NotifySchedCore
import Testing

/// Targeting as the daemon applies it: the context a desktop gives, an expression's verdict
/// with the values that decided it, and how a feed's `targeting` is read.
@Suite struct TargetingTests {
    private let noon = instant("2026-06-01T12:00:00Z")

    private var environment: TargetingEnvironment {
        TargetingEnvironment(
            language: LanguagePreference(language: "fr", country: "FR"), desktop: "GNOME", session: "wayland",
            osID: "debian", osVersion: "12", installedAt: noon - .days(3) - .hours(1),
            server: NotificationServer(
                name: "dunst", vendor: "knopwob", version: "1.9", specVersion: "1.2", capabilities: ["body", "actions"])
        )
    }

    private func entry(_ id: String, targeting: String, priority: Int = 0) throws -> ScheduleEntry {
        ScheduleEntry(
            id: id, dialect: .native, content: NotificationContent(title: id, body: ""), trigger: .immediate,
            deliveryRules: DeliveryRules(priority: priority, targeting: try TargetingExpression(targeting)))
    }

    @Test func theContextSaysWhatTheDocumentationSays() throws {
        let context = environment.context(
            tags: ["sports"], applicationVersion: "2.1", feedVersion: 7, impressions: 2, at: noon)
        func value(_ text: String) throws -> TargetingValue { try TargetingExpression(text).evaluate(in: context) }
        #expect(try value("locale") == .string("fr-FR"))
        #expect(try value("language + '/' + region") == .string("fr/FR"))
        #expect(
            try value("[desktop, session, os.id, os.version]")
                == .array(["GNOME", "wayland", "debian", "12"].map(TargetingValue.string)))
        #expect(try value("server.name") == .string("dunst"))
        #expect(try value("server.capabilities") == .array([.string("actions"), .string("body")]))
        #expect(
            try value("[app.version, feed.version, installAgeDays, impressions]")
                == .array([.string("2.1"), .integer(7), .integer(3), .integer(2)]))
        #expect(try value("now") == .integer(noon.microseconds / 1000))
        #expect(try value("'sports' in tags && !('news' in tags)") == .bool(true))
        #expect(try value("app.version|versionCompare('2.0') > 0 && '2026-05-01'|date < now") == .bool(true))
    }

    @Test func osReleaseGivesItsIdAndVersion() {
        let release = TargetingEnvironment.osRelease(
            "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\nVERSION_ID=\"12\"\n# comment\n")
        #expect(release.id == "debian" && release.version == "12")
    }

    @Test func aFalseExpressionSuppressesWithTheValuesItRead() throws {
        let gate = CapGate(environment: environment, tags: ["feed": ["news"]])
        let sportsFans = try entry("a", targeting: "'sports' in tags && server.name == 'dunst'")
        let suppression = gate.suppression(of: sportsFans, source: "feed", groups: [], log: ImpressionLog(), at: noon)
        #expect(
            suppression
                == .targeting(
                    TargetingVerdict(
                        expression: "'sports' in tags && server.name == 'dunst'",
                        values: [
                            .init(path: "tags", value: #"["news"]"#), .init(path: "server.name", value: #""dunst""#),
                        ])))
        #expect(suppression?.words == #"its targeting is false (tags = ["news"], server.name = "dunst")"#)
        #expect(Suppression(encoded: try #require(suppression).encoded) == suppression)
        let news = try entry("b", targeting: "'news' in tags")
        #expect(gate.suppression(of: news, source: "feed", groups: [], log: ImpressionLog(), at: noon) == nil)
    }

    @Test func anExpressionThatFailsCountsAsFalseAndSaysWhy() throws {
        let failing = try entry("a", targeting: "installAgeDays < 'soon'")
        let suppression = CapGate(environment: environment).suppression(
            of: failing, source: "feed", groups: [], log: ImpressionLog(), at: noon)
        guard case .targeting(let verdict)? = suppression else {
            Issue.record("not suppressed: \(String(describing: suppression))")
            return
        }
        #expect(verdict.failure == "a number and a string have no order")
        #expect(verdict.values == [.init(path: "installAgeDays", value: "3")])
    }

    @Test func aTargetingExpressionIsReadAndOneThatDoesNotParseIsAnErrorAtItsKeyPath() throws {
        let read = parse(nativeFeed(#""targeting": "'sports' in tags""#))
        #expect(errors(read) == [])
        #expect(read.schedule?.entries.first?.deliveryRules?.targeting == (try TargetingExpression("'sports' in tags")))
        #expect(
            errors(parse(nativeFeed(#""targeting": "tags[0""#))) == [
                "line 1: notifications[0].targeting: `targeting` does not parse: unexpected [ at character 5"
            ])
        #expect(
            errors(parse(nativeFeed(#""targeting": 3"#)))
                == ["line 1: notifications[0].targeting: `targeting` must be a string, not an integer"])
        #expect(
            warnings(parse(nativeFeed(#""targeting": "tags|size > 1""#))) == [
                "line 1: notifications[0].targeting: `targeting` applies the transform \"size\", which does not exist "
                    + "(length, keys, versionCompare, date, regExpMatch): it counts as false there"
            ])
    }

    @Test(arguments: [
        String(repeating: "(", count: 100) + "1" + String(repeating: ")", count: 100),
        "'" + String(repeating: "x", count: 1_000_000) + "'",
        String(repeating: "!", count: 5000) + "true",
        "99999999999999999999999",
    ])
    func aHostileExpressionIsRefusedWithinItsBounds(_ text: String) {
        #expect(throws: TargetingFailure.self) { try TargetingExpression(text) }
    }

    @Test func evaluatingIsBoundedInStepsAndSize() throws {
        let context = environment.context(tags: [], applicationVersion: nil, feedVersion: nil, impressions: 0, at: noon)
        let huge = try TargetingExpression("'xxxxxxxxxx' * 100000")
        #expect(throws: TargetingFailure.self) { try huge.evaluate(in: context) }
        let long = try TargetingExpression(
            "[" + Array(repeating: "1", count: 2000).joined(separator: ",") + "]"
                + "[.x == 1][.y == 2][.z == 3][.w == 4][.v == 5][.u == 6]")
        #expect(throws: TargetingFailure.self) { try long.evaluate(in: context) }
    }

    @Test func regExpMatchFindsTheLeftmostMatchWithItsGroupsAsTheEnginesPreferThem() throws {
        func match(_ text: String, _ pattern: String) throws -> TargetingValue {
            try TargetingExpression("'\(text)'|regExpMatch('\(pattern)')").evaluate(in: .object([]))
        }
        let strings = { (values: [String?]) in
            TargetingValue.array(values.map { $0.map(TargetingValue.string) ?? .null })
        }
        #expect(try match("2.10.1", #"^(\\d+)\\.(\\d+)"#) == strings(["2.10", "2", "10"]))
        #expect(try match("aaa", "a+?") == strings(["a"]))
        #expect(try match("aaa", "a{2}") == strings(["aa"]))
        #expect(try match("xay", "(b)|(a)") == strings(["a", nil, "a"]))
        #expect(try match("sports fans", #"\\bfan"#) == strings(["fan"]))
        #expect(try match("abc", "d") == .null)
    }

    @Test func aPatternThatWouldBacktrackForEverMatchesInLinearTime() throws {
        let text = String(repeating: "a", count: 5000) + "!"
        let expression = try TargetingExpression("subject|regExpMatch('(a*)*b')")
        #expect(try expression.evaluate(in: .object(["subject": .string(text)])) == .null)
    }

    @Test(arguments: ["(?=a)", "\\\\1", "a**", "[a", "(a", "x{3,1}", "\\\\p"])
    func aPatternOutsideTheSubsetIsRefused(_ pattern: String) throws {
        let expression = try TargetingExpression("'abc'|regExpMatch('\(pattern)')")
        #expect(throws: TargetingFailure.self) { try expression.evaluate(in: .object([])) }
    }
}
