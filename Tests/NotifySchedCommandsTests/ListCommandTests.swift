import Foundation
import Testing

@Suite struct ListCommandTests {
    typealias CLI = CommandLineHarness

    private func listJSON(_ arguments: [String], environment: [String: String] = [:]) throws -> [[String: Any]] {
        let outcome = try CLI.run(["list", "--json"] + arguments, environment: environment)
        #expect(outcome.status == 0, "list failed: \(outcome.standardError)")
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8))
        return try #require(parsed as? [[String: Any]])
    }

    @Test func jsonHasTheContractFieldsAndUpcomingInstantsInUTC() throws {
        let rows = try listJSON([
            "--feed", CLI.demoFeed("demo.json"), "--now", "2026-03-27T08:00:00Z", "--upcoming", "3",
        ])
        #expect(rows.count == 6)
        for row in rows {
            #expect(
                row["id"] is String && row["title"] is String && row["source"] is String && row["trigger"] is String)
            #expect(row["occurrences"] is [String])
        }
        let standup = try #require(rows.first { $0["id"] as? String == "standup" })
        #expect(
            standup["occurrences"] as? [String] == [
                "2026-03-27T08:25:00Z", "2026-03-30T07:25:00Z", "2026-03-31T07:25:00Z",
            ])
        let events = try #require(rows.first { $0["id"] as? String == "release-notes" })
        #expect(events["occurrences"] as? [String] == [])
        #expect(events["trigger"] as? String == "on event session:start (ON=1|OFF=4)")
        let welcome = try #require(rows.first { $0["id"] as? String == "welcome" })
        #expect(welcome["occurrences"] as? [String] == ["2026-03-27T08:00:00Z"])
    }

    @Test func aSourcesConfiguredDialectIsApplied() throws {
        let inotify = CLI.demoFeed("demo-inotify.plist")
        let configuration = try CLI.temporaryFile(
            """
            [source updates]
            feed = \(inotify)
            dialect = ismartnews
            """, name: "config")
        let outcome = try CLI.run(["list", "--config", configuration, "--now", "2026-06-01T12:00:00Z"])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardError.contains("the source is configured as ismartnews, but the feed is an iNotify feed"))
    }

    @Test func rowsAreSortedByNextOccurrence() throws {
        let rows = try listJSON(["--feed", CLI.demoFeed("demo.json"), "--now", "2026-03-27T08:00:00Z"])
        #expect(
            rows.map { $0["id"] as? String } == [
                "welcome", "standup", "stretch", "weekly-review", "backup-check", "release-notes",
            ])
    }

    @Test func floatingNowAndTheTableUseTheUserZone() throws {
        let outcome = try CLI.run(
            ["list", "--feed", CLI.demoFeed("demo.json"), "--now", "2026-03-27T09:00:00"],
            environment: ["TZ": "Europe/Berlin"])
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NEXT") == true)
        #expect(lines.contains { $0.hasPrefix("2026-03-27 09:25  25min ") && $0.contains("standup") }, "\(lines)")
    }

    /// Escape sequences, a window title (OSC 0), a screen clear and a right-to-left override in
    /// a feed reach the terminal as text: in `list`, in `validate`'s messages, and in `--json`,
    /// which stays valid and keeps the title as the feed wrote it.
    @Test func feedTextCannotCommandTheTerminal() throws {
        let title = "\u{1B}[31mRed\u{1B}]0;owned\u{07}\u{1B}[2J evil\u{202E}txt.exe"
        let written = #"\u001b[31mRed\u001b]0;owned\u0007\u001b[2J evil\u202etxt.exe"#
        let feed = try CLI.temporaryFile(#"{"notifications": [{"id": "y", "title": "\#(written)"}]}"#)
        let broken = try CLI.temporaryFile(
            #"{"notifications": [{"id": "x", "title": "\#(written)", "fireDate": "tomorrow\u001b[2J"}]}"#,
            name: "broken.json")
        let listed = try CLI.run(["list", "--feed", feed, "--now", "2026-03-27T08:00:00Z"])
        let validated = try CLI.run(["validate", broken])
        for output in [listed.standardOutput, listed.standardError, validated.standardOutput, validated.standardError] {
            #expect(!output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        }
        #expect(listed.standardOutput.contains(#"\u001B[31mRed"#), "\(listed.standardOutput)")
        let said = validated.standardOutput + validated.standardError
        #expect(said.contains(#"tomorrow\u001B[2J"#), "\(said)")
        let rows = try listJSON(["--feed", feed, "--now", "2026-03-27T08:00:00Z"])
        #expect(rows.first { $0["id"] as? String == "y" }?["title"] as? String == title)
    }

    @Test func everyShippedFeedLists() throws {
        for name in ["demo.json", "demo-zbim.json", "demo-inotify.plist", "demo-ismartnews.plist"] {
            let rows = try listJSON(["--feed", CLI.demoFeed(name), "--now", "2026-01-01T00:00:00Z"])
            #expect(!rows.isEmpty, "\(name) lists no entry")
        }
    }

    @Test func zbimDemoFiresAtItsUTCComponents() throws {
        let rows = try listJSON(
            ["--feed", CLI.demoFeed("demo-zbim.json"), "--now", "2026-01-01T00:00:00Z"],
            environment: ["TZ": "America/New_York"])
        #expect(rows.map { $0["occurrences"] as? [String] } == [["2027-01-04T08:30:00Z"], ["2027-03-20T13:00:00Z"]])
    }

    @Test func theTableFitsTheTerminalWithLeftAndPassedAndIsWholeWhenPiped() throws {
        let arguments = ["list", "--feed", CLI.demoFeed("demo.json"), "--now", "2026-03-27T08:00:00Z"]
        let narrow = try CLI.run(arguments, environment: ["COLUMNS": "80"]).standardOutput.split(separator: "\n")
        #expect(narrow[0].hasPrefix("NEXT              LEFT"), "\(narrow)")
        #expect(narrow[0].contains("PASSED") && narrow.allSatisfy { $0.count <= 80 }, "\(narrow)")
        #expect(narrow.contains { $0.hasPrefix("2026-03-27 08:25  25min ") && $0.contains("standup") }, "\(narrow)")
        let piped = try CLI.run(arguments).standardOutput.split(separator: "\n")
        #expect(piped[0].contains("LAST") && piped[0].contains("OCCURRENCE ID") && piped[0].hasSuffix("SOURCE"))
        #expect(piped.contains { $0.hasSuffix("share/feeds/demo.json") }, "a pipe gets whole cells: \(piped)")
    }

    @Test func sourceStateAndIdFiltersKeepOnlyTheMatchingEntries() throws {
        let demo = CLI.demoFeed("demo.json")
        let base = ["--feed", demo, "--feed", CLI.demoFeed("demo-zbim.json"), "--now", "2026-03-27T08:00:00Z"]
        let all = try listJSON(base)
        let byID = try listJSON(base + ["--id", "st*", "--id", "welcome"])
        #expect(Set(byID.compactMap { $0["id"] as? String }) == ["standup", "stretch", "welcome"])
        let bySource = try listJSON(base + ["--source", demo])
        #expect(bySource.count == 6 && bySource.count < all.count, "\(bySource.count) of \(all.count)")
        #expect(try listJSON(base + ["--state", "pending"]).count == all.count)
        #expect(try listJSON(base + ["--state", "acted"]).isEmpty)
        let bad = try CLI.run(["list"] + base + ["--state", "done"])
        #expect(bad.status == 2 && bad.standardError.contains("--state \"done\" is not a state: pending, delivered"))
    }

    @Test func badNowIsAUsageError() throws {
        let outcome = try CLI.run(["list", "--feed", CLI.demoFeed("demo.json"), "--now", "yesterday"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--now \"yesterday\" is not a time"))
    }

    @Test func aReaderThatGoesAwayEndsTheCommandQuietlyEvenWithSIGPIPEIgnored() throws {
        // `trap "" PIPE` hands the ignored signal down, as NIO's ignoring it does inside `sync`.
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/bash")
        shell.arguments = [
            "-c",
            "trap '' PIPE; \"$0\" list --feed \"$1\" --upcoming 1000 --json 2>\"$2\" | head -c 10 >/dev/null; "
                + "exit ${PIPESTATUS[0]}",
            CLI.executable.path, CLI.demoFeed("demo.json"), try CLI.temporaryFile("", name: "stderr.txt"),
        ]
        try shell.run()
        shell.waitUntilExit()
        let errors = try String(contentsOfFile: shell.arguments![4], encoding: .utf8)
        #expect(shell.terminationStatus == 128 + SIGPIPE, "ended as by SIGPIPE, not by a crash")
        #expect(errors.isEmpty, "nothing said: \(errors)")
    }
}
