import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

/// The time rules of DESIGN §3 as the `notify-sched daemon` process keeps them, on a private
/// session bus with dbusmock's notification server: a downtime is caught up with one popup per
/// entry when its latest occurrence is no more than `maxLateness` late and recorded as missed
/// otherwise; and an occurrence the ledger holds is never shown again after the clock stepped
/// back. (A feed change that withdraws an entry cancels its pending occurrence: `DaemonCoreTests`.)
///
/// The daemon reads the real wall clock, so the past is written into its ledger instead: a
/// first daemon leaves the state database, the test records in it what a daemon that ran
/// earlier (or under a clock that was ahead) would have recorded, and a second daemon starts on it.
@Suite(
    .serialized, .ownThread,
    .enabled(if: PrivateSessionBus.isAvailable, Comment(rawValue: PrivateSessionBus.unavailableReason)))
struct DaemonCatchUpTests {
    typealias CLI = CommandLineHarness

    /// A month down, 30 occurrences of a daily entry, the latest 2 h late, on either side of
    /// the entry's `maxLateness` (nil for the default of 24 h): `isShown` when within it. The
    /// rules over more downtimes are pinned in virtual time (`DaemonCoreTests`, the conformance
    /// suite); here the daemon reads what its ledger settled and records what it decides.
    struct MonthDown: Sendable, CustomTestStringConvertible {
        var maxLateness: String?
        var isShown: Bool
        var testDescription: String
    }

    static let monthsDown = [
        MonthDown(maxLateness: "1h", isShown: false, testDescription: "maxLateness 1 h: missed"),
        MonthDown(maxLateness: nil, isShown: true, testDescription: "maxLateness 24 h by default: shown"),
    ]

    /// Runs a daemon on `feed` until it is ready and stops it: it leaves the state database, its
    /// schema in place, for the test to write the past into.
    func runOnce(on feed: String, _ bus: PrivateSessionBus) throws {
        let daemon = try CLI.start(["daemon", "--feed", feed], environment: bus.environment)
        try daemon.waitForStandardError(containing: "notify-sched: ready")
        #expect(DaemonTests().stop(daemon).status == 0, "the first daemon must stop cleanly")
    }

    /// Records in the ledger that the occurrence of `entryID` due at `occurrence` was
    /// delivered at that instant, as the daemon records it when no popup id is known; the
    /// instants the first daemon began following the feed's entries go, as a daemon that
    /// delivered that occurrence would have left no later one.
    func recordDelivered(_ entryID: String, of feed: String, at occurrence: Instant, _ bus: PrivateSessionBus) throws {
        let id = LedgerRecord.occurrenceID(source: feed, entryID: entryID, occurrence: occurrence)
        let time = occurrence.microseconds
        try bus.updateState(
            """
            INSERT INTO ledger (occurrence_id, source, entry_id, occurrence_us, popup_id, outcome, recorded_us)
            VALUES ('\(id)', '\(feed)', '\(entryID)', \(time), NULL, 'delivered', \(time));
            DELETE FROM followed_batch WHERE source = '\(feed)';
            """)
    }

    /// The whole ledger, a row per occurrence as `entry|occurrence µs|popup id|outcome`, by entry and time.
    func ledger(_ bus: PrivateSessionBus) throws -> [String] {
        try bus.queryState(
            "SELECT entry_id, occurrence_us, popup_id, outcome FROM ledger ORDER BY entry_id, occurrence_us")
    }

    /// A ledger row as `ledger(_:)` reads it; a nil popup id reads `None`.
    static func row(_ entryID: String, _ occurrence: Instant, popup: Int?, _ outcome: LedgerOutcome) -> String {
        "\(entryID)|\(occurrence.microseconds)|\(popup.map(String.init) ?? "None")|\(outcome.rawValue)"
    }

    /// `instant` without its fraction of a second, so that feeds and logs read whole seconds.
    static func wholeSecond(_ instant: Instant) -> Instant {
        Instant(secondsSinceEpoch: instant.secondsSinceEpoch)
    }

    /// A first start follows the recurring entries of every feed from the instant it plans
    /// them. It stores them once its own reads are done (a first start of 10^6 entries made each
    /// read wait for their rows otherwise), and a stop right after waits for them: the next
    /// daemon owes their occurrences from that instant.
    @Test func aFirstStartStoresTheRecurringEntriesOfEveryFeedItFollows() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let tomorrow = Self.wholeSecond(WallClock.now() + .days(1)).rfc3339
        let first = try CLI.temporaryFile(
            #"""
            {"notifications": [
              {"id": "daily", "title": "Daily", "fireDate": "\#(tomorrow)", "repeatInterval": "day"},
              {"id": "calendar", "title": "Calendar", "calendar": "Mon *-*-* 09:00"},
              {"id": "once", "title": "Once", "fireDate": "\#(tomorrow)"}
            ]}
            """#)
        let second = try CLI.temporaryFile(
            #"{"notifications": [{"id": "hourly", "title": "Hourly", "fireDate": "\#(tomorrow)", "repeatInterval": "hour"}]}"#
        )
        let started = WallClock.now()
        let daemon = try CLI.start(["daemon", "--feed", first, "--feed", second], environment: bus.environment)
        try daemon.waitForStandardError(containing: "notify-sched: ready")
        let ready = WallClock.now()
        #expect(DaemonTests().stop(daemon).status == 0)

        let rows = try bus.queryState("SELECT source, since_us, hex(entries) FROM followed_batch").map {
            $0.split(separator: "|").map(String.init)
        }
        let followed = try rows.flatMap { row in
            try Self.followedEntries(hex: row[2]).map { "\(row[0])|\($0.position)|\($0.id)" }
        }
        #expect(
            Set(followed) == ["\(first)|0|daily", "\(first)|1|calendar", "\(second)|0|hourly"],
            "every recurring entry of both feeds must be followed, at its position, and no one-shot entry")
        for row in rows {
            let since = try #require(Int64(row[1]))
            #expect(
                (started.microseconds...ready.microseconds).contains(since),
                "\(row[0]) must be followed from when the start planned it")
        }
    }

    /// The entries of a `followed_batch` row, from its `hex(entries)`: for each, its position and
    /// its id's length as little-endian 32-bit numbers, then the id in UTF-8.
    static func followedEntries(hex: String) throws -> [(position: UInt32, id: String)] {
        let digits = Array(hex.utf8)
        let bytes = try stride(from: 0, to: digits.count, by: 2).map { offset in
            try #require(UInt8(String(decoding: digits[offset..<offset + 2], as: UTF8.self), radix: 16))
        }
        func number(at offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << ($1 * 8) }
        }
        var entries: [(position: UInt32, id: String)] = []
        var offset = 0
        while offset < bytes.count {
            let length = Int(number(at: offset + 4))
            entries.append(
                (number(at: offset), String(decoding: bytes[offset + 8..<offset + 8 + length], as: UTF8.self)))
            offset += 8 + length
        }
        return entries
    }

    @Test(arguments: monthsDown)
    func aMonthDownFoldsIntoOneCatchUpPopupWithinMaxLatenessAndIsRecordedMissedBeyondIt(_ downtime: MonthDown) throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        // The series starts at the last occurrence the ledger holds, so every occurrence after
        // it, up to the latest, fell in the downtime.
        let latest = Self.wholeSecond(WallClock.now() - .hours(2))
        let lastRecorded = latest - .days(30)
        let maxLateness = downtime.maxLateness.map { #", "maxLateness": "\#($0)""# } ?? ""
        let path = try CLI.temporaryFile(
            #"""
            {"notifications": [
              {"id": "tick", "title": "Tick", "fireDate": "\#(lastRecorded.rfc3339)",
               "repeatInterval": "day"\#(maxLateness)}
            ]}
            """#)
        try runOnce(on: path, bus)
        try recordDelivered("tick", of: path, at: lastRecorded, bus)

        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        try bus.waitUntil("the ledger recorded the latest occurrence") { try ledger(bus).count == 2 }
        #expect(DaemonTests().stop(daemon).status == 0)

        let calls = try bus.notifyCalls()
        let rows = try ledger(bus)
        let seeded = Self.row("tick", lastRecorded, popup: nil, .delivered)
        if downtime.isShown {
            #expect(calls.map(\.summary) == ["Tick"], "the missed occurrences must fold into one popup")
            let latestID = LedgerRecord.occurrenceID(source: path, entryID: "tick", occurrence: latest)
            #expect(
                calls.map { $0.hints["x-notify-sched-id"] } == [latestID],
                "the catch-up popup must stand for the latest missed occurrence")
            #expect(
                rows == [seeded, Self.row("tick", latest, popup: 1, .delivered)],
                "the ledger must hold the catch-up as the latest occurrence delivered, and nothing for the folded ones")
        } else {
            #expect(calls.isEmpty, "an occurrence later than its maxLateness must not be shown")
            #expect(
                rows == [seeded, Self.row("tick", latest, popup: nil, .missed)],
                "the ledger must record the latest occurrence as missed")
        }
    }

    @Test func anOccurrenceDeliveredBeforeTheClockSteppedBackIsNotShownAgainWhenItFallsDue() throws {
        let bus = try PrivateSessionBus()
        try bus.startServer(capabilities: ["actions", "body"])
        let due = Self.wholeSecond(WallClock.now() + .seconds(4))
        let stamp = due.rfc3339
        let path = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "once", "title": "Once", "fireDate": "\(stamp)"},
              {"id": "hourly", "title": "Hourly", "fireDate": "\(stamp)", "repeatInterval": "hour"},
              {"id": "control", "title": "Control", "fireDate": "\(stamp)"}
            ]}
            """)
        try runOnce(on: path, bus)
        // A clock that was ahead: the daemon showed both at `due`, then the clock stepped back.
        try recordDelivered("once", of: path, at: due, bus)
        try recordDelivered("hourly", of: path, at: due, bus)

        let daemon = try CLI.start(["daemon", "--feed", path], environment: bus.environment)
        try daemon.waitForStandardError(containing: "notify-sched: ready")
        try #require(
            WallClock.now() < due, "the daemon must be ready before the entries fall due, or nothing is proven")
        _ = try bus.waitForNotifyCalls(1)
        #expect(WallClock.now() >= due, "the control popup must not come early")
        // A stepped-back occurrence shown again would fall due with the control, in the same turn
        // of the loop, which ends before SIGTERM is handled.
        #expect(DaemonTests().stop(daemon).status == 0)

        #expect(
            try bus.notifyCalls().map(\.summary) == ["Control"],
            "an occurrence the ledger holds as delivered must not be shown again")
        #expect(
            try ledger(bus) == [
                Self.row("control", due, popup: 1, .delivered),
                Self.row("hourly", due, popup: nil, .delivered),
                Self.row("once", due, popup: nil, .delivered),
            ], "the records of the stepped-back occurrences must stay as they were")
    }
}
