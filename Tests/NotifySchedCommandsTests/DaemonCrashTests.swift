import Foundation
import Glibc
import NotifySchedCore
import NotifySchedTesting
import Testing

/// The daemon process killed with SIGKILL at random points of a run of scheduled popups, and
/// stopped with SIGTERM while it delivers hundreds at once; each time restarted on the same
/// state: nothing is lost, duplicates stay within the bound and the state database stays intact.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DaemonCrashTests {
    typealias CLI = CommandLineHarness

    /// The seed of the kill points; set `NOTIFY_SCHED_CRASH_SEED` to replay a failure.
    static let seed =
        ProcessInfo.processInfo.environment["NOTIFY_SCHED_CRASH_SEED"].flatMap { UInt64($0) }
        ?? 0x6E6F_7469_6679

    /// A feed of entries `Entry 0`… due at `dates`, as many as there are dates.
    func feed(due dates: [Date]) throws -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let entries = dates.enumerated().map { index, date in
            #"{"id": "e\#(index)", "title": "Entry \#(index)", "fireDate": "\#(formatter.string(from: date))"}"#
        }
        return try CLI.temporaryFile(#"{"notifications": [\#(entries.joined(separator: ",\n"))]}"#)
    }

    /// Starts a daemon on `feed` once the bus has forgotten the previous one, whose name a
    /// killed process holds until the bus daemon notices its socket closed.
    func restart(on feed: String, _ bus: PrivateSessionBus) throws -> CLI.RunningCommand {
        try bus.waitUntil("the bus released the killed daemon's name") {
            try bus.drive("print(session.name_has_owner('org.notify_sched.Daemon'))") == "False"
        }
        return try CLI.start(["daemon", "--feed", feed], environment: bus.environment)
    }

    /// `count` distinct numbers of popups in `0..<entries`, ascending, drawn uniformly.
    static func killPoints(_ count: Int, among entries: Int, seed: UInt64) -> [Int] {
        var generator = SplitMix64(seed: seed)
        return Array(0..<entries).shuffled(using: &generator).prefix(count).sorted()
    }

    @Test func killMinus9AtRandomPointsLosesNothingAndDuplicatesAtMostOncePerCrash() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let count = 16
        let spacing = 0.4
        let start = Date(timeIntervalSinceNow: 2.5)
        let path = try feed(due: (0..<count).map { start + Double($0) * spacing })
        // Each kill comes as soon as the server took that many of the entries' popups: at the
        // start (none yet), or between a popup and its ledger record, or just after it.
        let points = Self.killPoints(4, among: count, seed: Self.seed)
        let replay =
            "seed \(Self.seed) (NOTIFY_SCHED_CRASH_SEED), kills once \(points.map(String.init).joined(separator: ", ")) "
            + "entries reached the server, entries every \(spacing) s"

        var daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        for point in points {
            try bus.waitUntil("\(point) entries reached the server; \(replay)") {
                Set(try bus.notifyCalls().map(\.summary)).count >= point
            }
            kill(daemon.process.processIdentifier, SIGKILL)
            let killed = daemon.finish()
            #expect(
                daemon.process.terminationReason == .uncaughtSignal,
                "the daemon ended before its kill: \(killed.standardError); \(replay)")
            daemon = try restart(on: path, bus)
        }
        // Its SIGTERM handler is in place by then: a signal during start-up would kill it.
        try daemon.waitForStandardError(containing: "notify-sched: ready")
        try bus.waitUntil("the ledger recorded every entry; \(replay)") {
            try bus.queryState("SELECT count(*) FROM ledger") == ["\(count)"]
        }
        #expect(DaemonTests().stop(daemon).status == 0, "\(replay)")

        // Popups taken over in place (replaces_id set) are not new ones.
        let titles = try bus.notifyCalls().filter { $0.replaces == 0 }.map(\.summary)
        for index in 0..<count {
            #expect(titles.contains("Entry \(index)"), "Entry \(index) was lost; \(replay)")
        }
        #expect(
            titles.count <= count + points.count,
            "at most one duplicate per crash, \(titles.count - count) after \(points.count): \(titles); \(replay)")
        #expect(try bus.queryState("PRAGMA integrity_check") == ["ok"], "\(replay)")
        #expect(
            try bus.queryState("SELECT outcome, count(DISTINCT entry_id), count(*) FROM ledger GROUP BY outcome")
                == ["delivered|\(count)|\(count)"], "one delivered row per entry; \(replay)")
    }

    /// Hundreds due at once while the daemon runs (due in 2.5 s), or caught up at its start
    /// after a downtime (due a minute ago).
    @Test(arguments: [2.5, -60])
    func sigtermWhileHundredsAreDueStopsWithin2sAndARestartDeliversTheRestWithoutDuplicates(
        dueIn seconds: TimeInterval
    ) throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let count = 300
        let due = Date(timeIntervalSinceNow: seconds)
        let path = try feed(due: Array(repeating: due, count: count))
        let first = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        // The log line of a delivery follows the server's answer and the ledger write.
        try first.waitForStandardError(containing: "notify-sched: delivered ")
        let stopped = DaemonTests().stop(first)
        #expect(stopped.status == 0)
        let before = try bus.notifyCalls()
        #expect(before.count < count, "the daemon must stop amid the burst, not after all \(count) popups")
        #expect(try bus.queryState("PRAGMA integrity_check") == ["ok"])
        #expect(
            try bus.queryState("SELECT count(*) FROM ledger") == ["\(before.count)"],
            "a SIGTERM is not a crash: every popup the server took is in the ledger")

        let second = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        try second.waitForStandardError(containing: "notify-sched: ready")
        try bus.waitUntil("the ledger recorded every entry") {
            try bus.queryState("SELECT count(*) FROM ledger") == ["\(count)"]
        }
        #expect(DaemonTests().stop(second).status == 0)
        let titles = try bus.notifyCalls().filter { $0.replaces == 0 }.map(\.summary)
        #expect(Set(titles) == Set((0..<count).map { "Entry \($0)" }), "every entry is shown")
        #expect(titles.count == count, "nothing is shown twice: \(titles.count - count) duplicate(s)")
        #expect(try bus.queryState("PRAGMA integrity_check") == ["ok"])
    }
}
