import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

/// The daemon's timing against a real notification server on a private session bus (dbusmock's):
/// popups made ready ahead and sent at their due microsecond, and a server that hangs, which
/// holds neither the popups due meanwhile nor the control calls nor a stop. Apart from
/// `DaemonTests` so that the two run side by side.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct ServerTimingTests: DaemonScenario {
    /// The seed of `aPopupMadeReadyAheadIsNeverSentBeforeItsDueMicrosecond`'s due times; set
    /// `NOTIFY_SCHED_DUE_SEED` to replay a failure.
    static let dueSeed =
        ProcessInfo.processInfo.environment["NOTIFY_SCHED_DUE_SEED"].flatMap { UInt64($0) } ?? 0x6475_6531

    /// The daemon wakes `DaemonCore.sendingLead` ahead of a due time, lays its popups out, and their
    /// calls wait on their threads until the due time: as the bus stamps them, to the
    /// microsecond, none comes before its due microsecond and none is missing, entries due
    /// within the lead of each other and repeating ones included.
    @Test func aPopupMadeReadyAheadIsNeverSentBeforeItsDueMicrosecond() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        try bus.monitorNotifyCalls()
        var generator = SplitMix64(seed: Self.dueSeed)
        let start = WallClock.now() + .seconds(3)
        var due: [String: Instant] = [:]
        for index in 0..<24 {
            let instant = Instant(
                microseconds: start.microseconds + Int64(index) * 120_000 + Int64(generator.next() % 100_000))
            due["e\(index)"] = instant
            // Every third has a partner due within the lead, 0.2 to 1.9 ms later.
            if index % 3 == 0 {
                due["e\(index)b"] = Instant(microseconds: instant.microseconds + 200 + Int64(generator.next() % 1700))
            }
        }
        // Half of them repeat daily.
        let entries = due.sorted { $0.key < $1.key }.enumerated().map { position, entry -> String in
            let repeats = position % 2 == 0 ? #", "repeatInterval": "day""# : ""
            let fireDate: String = entry.value.rfc3339
            return #"{"id": "\#(entry.key)", "title": "\#(entry.key)", "fireDate": "\#(fireDate)"\#(repeats)}"#
        }
        let feed = try CLI.temporaryFile(#"{"notifications": [\#(entries.joined(separator: ",\n"))]}"#)
        let daemon = try CLI.start(["daemon", "--feed", feed], environment: bus.environment)
        try bus.waitUntil("every popup") { try Set(bus.notifyStamps().keys).isSuperset(of: due.keys) }
        let log = stop(daemon).standardError
        let stamps = try bus.notifyStamps()
        let early = due.compactMap { id, at in
            stamps[id].flatMap { $0 < at.microseconds ? "\(id) \(at.microseconds - $0) µs early" : nil }
        }
        #expect(early.isEmpty, "seed \(Self.dueSeed) (NOTIFY_SCHED_DUE_SEED): \(early.sorted())\n\(log)")
    }

    /// The loop leaves the server's answer to a popup to come while it goes on: a popup due a
    /// moment after another goes out at its time while the server has not answered the first,
    /// and both are recorded once it does.
    @Test func aPopupDueAMomentAfterAnotherGoesOutOnTimeWhileTheServerHasNotAnsweredTheFirst() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        try bus.monitorNotifyCalls()
        let first = WallClock.now() + .seconds(3)
        let second = first + .milliseconds(300)
        let feed = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "now", "title": "Right away"},
              {"id": "first", "title": "First", "fireDate": "\(first.rfc3339)"},
              {"id": "second", "title": "Second", "fireDate": "\(second.rfc3339)"}
            ]}
            """)
        let daemon = try CLI.start(["daemon", "--feed", feed], environment: bus.environment)
        // The server hangs once it answered the popup due at once (the ledger has it), from well
        // before the first is due until the second went out.
        try bus.waitUntil("the ledger recorded the popup due at once") {
            // The database may not be there yet.
            (try? bus.queryState("SELECT count(*) FROM ledger WHERE entry_id = 'now'")) == ["1"]
        }
        bus.freezeServer()
        defer { bus.thawServer() }
        var stamps: [String: Int64] = [:]
        try bus.waitUntil("the second popup's call reached the bus") {
            stamps = try bus.notifyStamps()
            return stamps["Second"] != nil
        }
        bus.thawServer()
        let late =
            try #require(stamps["Second"], "the second popup went out while the server hung") - second.microseconds
        #expect(late >= 0 && late < 200_000, "the second popup came \(late) µs after its due time")
        try bus.waitUntil("the ledger recorded both popups once the server answered") {
            try bus.queryState("SELECT count(*) FROM ledger WHERE entry_id IN ('first', 'second')") == ["2"]
        }
        #expect(stop(daemon).status == 0)
    }

    /// A daemon on `feed(dueIn: 3)` whose server hangs once it took the popup due at once.
    func startWithAServerThatHangs() throws -> (bus: PrivateSessionBus, daemon: CLI.RunningCommand) {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        try bus.monitorNotifyCalls()
        let (path, _) = try feed(dueIn: 3)
        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        _ = try bus.waitForNotifyCalls(1)
        bus.freezeServer()
        return (bus, daemon)
    }

    /// Waits until the call of the popup due soon reached the hung server.
    ///
    /// - Returns: When the bus passed it on.
    func waitForTheCallToTheHungServer(_ bus: PrivateSessionBus) throws -> Date {
        var stamp: Int64?
        try bus.waitUntil("the popup due soon went to the hung server") {
            stamp = try bus.notifyStamps()["Due soon"]
            return stamp != nil
        }
        return Date(timeIntervalSince1970: Double(stamp ?? 0) / 1e6)
    }

    @Test func aHungServerHoldsTheDaemonNoLongerThanItsLimitAndGetsThePopupWhenItAnswers() throws {
        let (bus, daemon) = try startWithAServerThatHangs()
        defer { bus.thawServer() }
        // "Due soon" falls due while the server hangs: the daemon waits for it at most 3 s,
        // then goes on answering its control calls at once. They are asked one after another
        // for 4 s from then.
        let sent = try waitForTheCallToTheHungServer(bus)
        var slowest: TimeInterval = 0
        var calls = 0
        while Date() < sent + 4 || calls < 2 {
            let asked = Date()
            #expect(try CLI.run(["status"], environment: bus.environment).status == 0)
            slowest = max(slowest, Date().timeIntervalSince(asked))
            calls += 1
        }
        #expect(slowest < 5, "a hung notification server held the daemon's loop for \(slowest) s")
        #expect(try bus.queryState("SELECT count(*) FROM ledger WHERE entry_id = 'soon'") == ["0"])
        bus.thawServer()
        let thawed = Date()
        try bus.waitUntil("the ledger recorded the popup shown late") {
            try bus.queryState("SELECT count(*) FROM ledger WHERE entry_id = 'soon'") == ["1"]
        }
        #expect(Date().timeIntervalSince(thawed) < 5, "the popup must be recorded soon after the server answers")
        let output = stop(daemon)
        // The server took the popup late; the retry updated it in place rather than adding a second.
        let soon = try bus.notifyCalls().filter { $0.summary == "Due soon" }
        #expect(soon.filter { $0.replaces == 0 }.count == 1, "\(soon)")
        #expect(output.standardError.contains("the notification server has not answered for 3 s"))
    }

    @Test func aSIGTERMWhileTheServerHangsStopsTheDaemonAtOnce() throws {
        let (bus, daemon) = try startWithAServerThatHangs()
        defer { bus.thawServer() }
        // "Due soon" is waiting for the hung server, which the daemon would give 3 s.
        _ = try waitForTheCallToTheHungServer(bus)
        let outcome = stop(daemon)
        #expect(outcome.status == 0)
        #expect(outcome.standardError.contains("stopping"))
    }
}
