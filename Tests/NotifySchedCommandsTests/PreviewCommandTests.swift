import Foundation
import NotifySchedTesting
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

    @Test func theLocaleAskedForIsTheOneTargetingReads() throws {
        let path = try CLI.temporaryFile(
            #"{"notifications": [{"id": "fr", "title": "Bonjour", "calendar": "daily", "targeting": "locale == 'fr-FR'"}]}"#
        )
        let window = ["--from", "2026-12-01T00:00:07Z", "--days", "1"]
        #expect(try rows([path, "--locale", "fr_FR"] + window).map(\.outcome) == ["shows"])
        #expect(try rows([path, "--locale", "de_DE"] + window).map { $0.reason?.code } == ["targeting"])
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
        (["--servers", "dunst"], "--servers needs --out DIR"),
        (["--out", "/proc/no-such-folder"], "--out: /proc/no-such-folder: No such file or directory"),
        (["--servers", "dunst,growl", "--out", "/tmp"], "--servers: \"growl\" is not a server notify-sched knows"),
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

    @Test func theTimelinePictureAndPageOpenInABrowserWithAMarkForEachOccurrence() throws {
        let browser = try #require(
            ExternalCommand.locate("chromium-headless-shell"), "scripts/install-deps installs chromium-headless-shell")
        // Ids and titles with markup and a control character, which XML has no place for.
        let path = try CLI.temporaryFile(
            #"""
            {"notifications": [
              {"id": "a<b>&c\u0001", "title": "\"Quoted\" & <b>bold</b>", "calendar": "*-*-* 02:30"},
              {"id": "daily", "title": "Daily", "calendar": "*-*-* 09:00", "expires": "2026-03-31T00:00:00Z"},
              {"id": "gone", "title": "Gone", "fireDate": "2026-01-01T00:00:00Z"},
              {"id": "over", "title": "Over", "calendar": "daily", "until": "2026-01-01T00:00:00Z"}
            ]}
            """#)
        let folder = try TestFolder.make("preview-out").appendingPathComponent("made")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let previewed = try rows([
            path, "--from", "2026-03-25T00:00:00Z", "--days", "10", "--zone", "Europe/Berlin", "--out", folder.path,
        ])
        let occurrences = previewed.filter { $0.at != nil }.count
        #expect(
            occurrences == 21,
            "10 times 02:30, one in the gap; 10 times 09:00, 4 after the expiry; a one-shot too late to catch up")
        func dom(_ name: String) throws -> String {
            let page = folder.appendingPathComponent(name)
            let opened = try ExternalCommand.run(
                "/usr/bin/timeout",
                ["120", browser, "--no-sandbox", "--disable-gpu", "--dump-dom", page.absoluteString])
            #expect(opened.status == 0, "\(opened.standardError)")
            #expect(!opened.standardOutput.contains("parsererror"), "\(name) is well-formed")
            return opened.standardOutput
        }
        let picture = try dom("timeline.svg")
        #expect(picture.hasPrefix("<svg"))
        #expect(picture.components(separatedBy: #"width="3" height="10""#).count - 1 == occurrences, "a mark each")
        #expect(picture.contains("stroke-dasharray=\"4 3\""), "the change to summer time is drawn")
        #expect(picture.contains("a&lt;b&gt;&amp;c\u{FFFD}"))
        #expect(picture.contains("no occurrence: the entry's occurrences are over"))
        let page = try dom("timeline.html")
        #expect(page.contains("<svg"))
        #expect(page.components(separatedBy: "<tr class=").count - 1 == occurrences, "a table row each")
    }

    @Test func eachDistinctPopupIsShownOnRealServersWithWhatEachLeftOut() throws {
        for tool in ["Xvfb", "dunst", "/usr/lib/notification-daemon/notification-daemon"] {
            try #require(
                tool.hasPrefix("/")
                    ? FileManager.default.isExecutableFile(atPath: tool) : ExternalCommand.locate(tool) != nil,
                "scripts/install-deps installs \(tool)")
        }
        // Two entries with one popup between them, one with markup and an icon no theme has,
        // and one of many buttons: an iNotify message has three.
        let path = try CLI.temporaryFile(
            #"""
            {"notifications": [
              {"id": "a", "title": "Same", "body": "Twice", "fireDate": "2030-01-01T00:00:00Z"},
              {"id": "b", "title": "Same", "body": "Twice", "fireDate": "2030-01-02T00:00:00Z"},
              {"id": "rich", "title": "Rich", "body": "<b>bold</b> text", "markup": true,
               "icon": "no-such-icon-anywhere", "fireDate": "2030-01-03T00:00:00Z",
               "action": {"label": "Open", "url": "https://example.org/"}}
            ]}
            """#)
        let folder = try TestFolder.make("preview-popups")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try CLI.run(
            ["preview", path, "--days", "1", "--out", folder.path, "--servers", "notification-daemon,dunst"],
            environment: ["PATH": "/usr/local/bin:/usr/bin:/bin"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("popups: 2 on notification-daemon, dunst"))
        for server in ["notification-daemon", "dunst"] {
            for name in ["01-a", "02-rich"] {
                let picture = folder.appendingPathComponent("popups/\(server)/\(name).png")
                #expect(FileManager.default.fileExists(atPath: picture.path), "\(server) \(name)")
            }
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("popups/\(server).png").path))
            #expect(outcome.standardError.contains("\(server) "), "a line for \(server)")
        }
        #expect(outcome.standardError.contains("02-rich: icon 'no-such-icon-anywhere' missing"))
        #expect(outcome.standardError.contains("02-rich: buttons in its context menu, not on the popup"), "dunst")
        let results =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.appendingPathComponent("popups/results.json"))) as? [String: Any]
        let servers = results?["servers"] as? [[String: Any]] ?? []
        #expect(servers.count == 2)
        #expect(
            servers.allSatisfy {
                ($0["popups"] as? [[String: Any]])?.allSatisfy { $0["shown"] as? Bool == true } == true
            })
    }
}
