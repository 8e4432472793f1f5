import Foundation
import Glibc
import Testing

/// What the daemon's end-to-end suites share: the command-line harness, a feed due soon, and a
/// stop that must be prompt. The suites are apart so that they run side by side, each one test
/// at a time, each test on a thread of its own (`.ownThread`): they mostly wait.
protocol DaemonScenario {}

extension DaemonScenario {
    typealias CLI = CommandLineHarness

    /// A feed with an entry due `seconds` from now, one due at once, and one long past.
    func feed(dueIn seconds: Int) throws -> (path: String, due: Date) {
        let due = Date(timeIntervalSinceNow: TimeInterval(seconds)).rounded()
        let stamp = ISO8601DateFormatter().string(from: due)
        let path = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "soon", "title": "Due soon", "fireDate": "\(stamp)"},
              {"id": "now", "title": "Right away"},
              {"id": "old", "title": "Long past", "fireDate": "2020-01-01T00:00:00Z"}
            ]}
            """)
        return (path, due)
    }

    /// Sends SIGTERM and returns what the daemon printed, failing if it takes more than 2 s to stop.
    func stop(_ daemon: CLI.RunningCommand) -> CLI.Outcome {
        let asked = Date()
        kill(daemon.process.processIdentifier, SIGTERM)
        let outcome = daemon.finish()
        #expect(
            Date().timeIntervalSince(asked) < 2,
            "the daemon must stop within 2 s of SIGTERM; it printed:\n\(outcome.standardError)")
        return outcome
    }
}
