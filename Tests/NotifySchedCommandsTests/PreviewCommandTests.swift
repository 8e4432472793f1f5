import Foundation
import Testing

@Suite struct PreviewCommandTests {
    typealias CLI = CommandLineHarness

    private struct Row: Decodable {
        struct Reason: Decodable {
            var code: String
            var message: String
        }

        var entry: String
        var zone: String
        var at: String?
        var due: String?
        var outcome: String
        var reason: Reason?
    }

    private struct Listed: Decodable {
        var id: String
        var occurrences: [String]?
    }

    private func rows(_ arguments: [String], environment: [String: String] = [:]) throws -> [Row] {
        let outcome = try CLI.run(["preview", "--json"] + arguments, environment: environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try JSONDecoder().decode([Row].self, from: Data(outcome.standardOutput.utf8))
    }

    @Test(arguments: ["UTC", "Pacific/Auckland", "America/New_York"])
    func theDemoFeedsPreviewShowsExactlyTheOccurrencesListGivesForTheWindow(zone: String) throws {
        let feed = CLI.demoFeed("demo.json")
        let from = "2026-12-01T00:00:07Z"
        let previewed = try rows([feed, "--from", from, "--days", "30"], environment: ["TZ": zone])
        let listed = try JSONDecoder().decode(
            [Listed].self,
            from: Data(
                try CLI.run(
                    ["list", "--feed", feed, "--now", from, "--upcoming", "1000", "--json"], environment: ["TZ": zone]
                ).standardOutput.utf8))
        let end = "2026-12-31T00:00:07Z"
        for entry in listed {
            let shown = previewed.filter { $0.entry == entry.id && $0.outcome == "shows" }.compactMap(\.due)
            // RFC 3339 in UTC to the second: the text orders as the instants do.
            let expected = (entry.occurrences ?? []).filter { $0 < end }
            #expect(shown == expected, "\(entry.id) in \(zone)")
        }
        #expect(previewed.allSatisfy { $0.zone == zone })
        #expect(previewed.allSatisfy { ($0.outcome == "shows") == ($0.reason == nil) }, "every other row says why")
    }

    @Test func eachOccurrenceThatDoesNotShowSaysWhyWithACodeAProgramMatches() throws {
        let path = try CLI.temporaryFile(
            """
            {"groups": [{"id": "promo", "frequency": {"custom": [{"period": "1d", "cap": 1}]}}],
             "notifications": [
              {"id": "old", "title": "Old", "fireDate": "2026-03-27T10:00:00Z", "maxLateness": "1h"},
              {"id": "night", "title": "Night", "calendar": "*-*-* 02:30"},
              {"id": "v3", "title": "Only v3", "calendar": "daily", "minVersion": "3.0"},
              {"id": "exp", "title": "Expiring", "calendar": "*-*-* 09:00", "expires": "2026-03-29T05:00:00Z"},
              {"id": "promo1", "title": "Promo 1", "calendar": "*-*-* 12:00", "groups": ["promo"]},
              {"id": "promo2", "title": "Promo 2", "calendar": "*-*-* 12:00", "groups": ["promo"]},
              {"id": "fans", "title": "Fans", "calendar": "*-*-* 18:00", "targeting": "'sports' in tags"},
              {"id": "later", "title": "Later", "fireDate": "2026-06-01T00:00:00Z"},
              {"id": "quiet", "title": "Quiet", "calendar": "*-*-* 23:00,23:30"}
            ]}
            """)
        let previewed = try rows(
            [
                path, "--from", "2026-03-28T00:00:00Z", "--days", "2", "--zone", "Europe/Berlin", "--version", "2.0",
                "--tags", "news", "--quiet-hours", "22:00-07:00",
            ])
        func codes(_ entry: String) -> [String] {
            previewed.filter { $0.entry == entry }.map { $0.reason?.code ?? $0.outcome }
        }
        #expect(codes("old") == ["late"])
        #expect(codes("night") == ["shows", "dst-gap"], "02:30 does not exist in Berlin on 29 March")
        #expect(
            previewed.first { $0.entry == "night" && $0.outcome == "suppressed" }?.reason?.message
                == "02:30 does not exist on 2026-03-29 in Europe/Berlin: the clocks jump from 02:00 to 03:00")
        #expect(codes("v3") == ["other-version"])
        #expect(codes("exp") == ["shows", "expired"])
        #expect(codes("promo1") == ["shows", "group-frequency"], "23 hours apart across the change to summer time")
        #expect(codes("promo2") == ["group-frequency", "group-frequency"])
        #expect(codes("fans") == ["targeting", "targeting"])
        #expect(codes("later") == ["after-window"])
        #expect(codes("quiet") == ["folded", "shows", "folded", "shows"], "quiet hours fold 23:00 into 23:30")
    }

    @Test func aFeedWithErrorsStopsThePreviewWithTheValidateReport() throws {
        let path = try CLI.temporaryFile(#"{"notifications": [{"id": "a", "title": "T", "fireDate": "tomorrow"}]}"#)
        let outcome = try CLI.run(["preview", path])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("\(path):1: notifications[0].fireDate: "))
        #expect(outcome.standardError.contains("\(path) has errors: nothing to preview"))
    }

    @Test(arguments: [
        (["--zone", "Mars/Olympus"], "--zone \"Mars/Olympus\" is not a zone"),
        (["--days", "0"], "--days must be between 1 and 366"),
        (["--from", "soon"], "--from \"soon\" is not a time"),
        (["--max-popups", "many"], "--max-popups \"many\" is not"),
        (["--quiet-hours", "late"], "--quiet-hours \"late\" is not"),
    ])
    func aBadOptionIsAClearErrorNamingIt(options: [String], message: String) throws {
        let outcome = try CLI.run(["preview", CLI.demoFeed("demo.json")] + options)
        #expect(outcome.status != 0)
        #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    }

    @Test func theTableGivesEachZoneItsOwnTimesAndCountsEachOutcome() throws {
        let outcome = try CLI.run(
            [
                "preview", CLI.demoFeed("demo.json"), "--from", "2026-12-01T00:00:07Z", "--days", "1", "--zone", "UTC",
                "--zone", "Pacific/Auckland",
            ], environment: ["COLUMNS": "200"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("UTC: 2026-12-01 00:00 to 2026-12-02 00:00"))
        #expect(lines.contains("Pacific/Auckland: 2026-12-01 13:00 to 2026-12-02 13:00"))
        #expect(
            lines.contains { $0.hasPrefix("2026-12-01 21:25  shows") && $0.contains("standup") },
            "09:25 in Berlin is 21:25 in Auckland")
        #expect(lines.filter { $0.hasSuffix("shows, 0 folded, 0 suppressed") }.count == 2)
    }
}
