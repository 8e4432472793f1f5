import Foundation
import NotifySchedTesting
import Testing

/// `notify-sched history` as a person runs it after a day of popups: what was shown, when,
/// and what they did with it, from the ledger a real daemon wrote.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct HistoryCommandTests: DaemonScenario {
    @Test func historyShowsWhatWasShownAndWhatBecameOfItFilteredBySourceAndTime() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let feed = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "go", "title": "Go and see", "action": {"label": "Open", "url": "https://example.org/go"}},
              {"id": "old", "title": "Long past", "fireDate": "2020-01-01T00:00:00Z", "maxLateness": "1h"}
            ]}
            """)
        let config = try CLI.temporaryFile("[source team]\nfeed = \(feed)\n", name: "config")
        let daemon = try CLI.start(["daemon", "--config", config], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        try bus.invokeAction("open", onPopup: 1)
        _ = try bus.waitForOpenedURLs(1)
        #expect(stop(daemon).status == 0)

        let table = try CLI.run(
            ["history", "--config", config], environment: bus.environment.merging(["COLUMNS": "80"]) { $1 })
        #expect(table.status == 0, "\(table.standardError)")
        let lines = table.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("SHOWN             OUTCOME") == true, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 80 }, "the table fits 80 columns: \(lines)")
        #expect(
            lines.contains { $0.contains("  missed  ") && $0.contains("  old  ") && $0.hasPrefix("2020-01-01 00:00") })
        #expect(
            lines.contains {
                $0.range(of: #"  acted \d\d:\d\d  go  +Go and see  "#, options: .regularExpression) != nil
            }, "\(lines)")

        let json = try CLI.run(
            ["history", "--config", config, "--json", "--source", "team", "--since", "1h"],
            environment: bus.environment)
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["entry"] as? String } == ["go"], "--since 1h leaves out what was due in 2020: \(rows)")
        #expect(rows.first?["outcome"] as? String == "acted" && rows.first?["answered"] is String)

        let other = try CLI.run(
            ["history", "--config", config, "--source", "elsewhere.json"], environment: bus.environment)
        #expect(other.status == 0 && other.standardOutput == "nothing shown in this period\n")
    }

    @Test func aSinceThatIsNeitherASpanNorATimeIsAUsageError() throws {
        let outcome = try CLI.run(["history", "--since", "yesterday"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("--since \"yesterday\" is neither a span"), "\(outcome.standardError)")
    }

    @Test func withNothingShownYetHistorySaysSoAndCreatesNoDatabase() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("notify-sched-\(UUID().uuidString)")
        let outcome = try CLI.run(["history"], environment: ["XDG_STATE_HOME": state.path])
        #expect(outcome.status == 0 && outcome.standardOutput == "nothing shown in this period\n", "\(outcome)")
        #expect(!FileManager.default.fileExists(atPath: state.path))
    }
}
