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
        #expect(lines.first?.hasPrefix("ID") == true)
        #expect(lines.contains { $0.hasPrefix("standup") && $0.contains("2026-03-27T09:25:00+01:00") })
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
