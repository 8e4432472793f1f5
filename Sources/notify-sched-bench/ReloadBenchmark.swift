import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// `notify-sched-bench reload`: the timer work of a feed reload that changes a share of the
/// entries (DESIGN §9: 10% of 10^5 entries in ≤ 50 ms), as the daemon's reconcile does it.
///
/// Both feeds are parsed first (the daemon parses on its worker thread, off the loop). What is
/// timed is the loop's part: comparing the schedules by id and meaning (`ScheduleChanges`), then
/// for each changed entry cancelling its pending occurrence on the wheel, planning it again
/// (`OccurrencePlan`) and scheduling the result.
struct ReloadBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload", abstract: "Time a feed reload that changes a share of the entries.")

    @Option(help: "Entries in the feed.")
    var entries = 100_000

    @Option(help: "Every entry whose index is a multiple of this changes (10: 10% of them).")
    var changeEvery = 10

    @Option(help: "Runs; the best time is reported.")
    var runs = 5

    func run() throws {
        let zones = TimeZoneDatabase()
        let userZone = SystemTimeZone.current(environment: ProcessInfo.processInfo.environment, database: zones)
        let parser = FeedParser(zones: zones, userZone: userZone, limits: FeedReadLimits(maxBytes: 1 << 30))
        let now = WallClock.now()
        let context = PlanningContext(userZone: userZone)
        let old = try schedule(GeneratedFeed(entries: entries), parser)
        let new = try schedule(GeneratedFeed(entries: entries, retitledEvery: changeEvery), parser)
        var best = (diff: Double.infinity, total: Double.infinity)
        var changedCount = 0
        for _ in 0..<runs {
            var wheel = TimerWheel<UInt32>(now: now)
            var handles: [TimerWheel<UInt32>.Handle?] = old.entries.indices.map { index in
                OccurrencePlan(for: old.entries[index], settledThrough: nil, now: now, context: context).next.map {
                    wheel.schedule(UInt32(index), at: $0)
                }
            }
            let clock = ContinuousClock()
            let start = clock.now
            let changes = ScheduleChanges(from: old.entries, to: new.entries)
            let diffed = clock.now
            for match in changes.changed {
                if let handle = handles[match.old] { wheel.cancel(handle) }
                let plan = OccurrencePlan(for: new.entries[match.new], settledThrough: nil, now: now, context: context)
                handles[match.old] = plan.next.map { wheel.schedule(UInt32(match.old), at: $0) }
            }
            let end = clock.now
            changedCount = changes.changed.count
            best.diff = min(best.diff, milliseconds(diffed - start))
            best.total = min(best.total, milliseconds(end - start))
            guard wheel.count <= old.entries.count else { throw ValidationError("the wheel grew") }
        }
        print("\(entries) entries, \(changedCount) changed, best of \(runs) runs:")
        print(
            Table.render(
                header: ["compare (ScheduleChanges)", "compare + cancel + plan + schedule", "target"],
                rows: [[String(format: "%.1f ms", best.diff), String(format: "%.1f ms", best.total), "≤ 50 ms"]]))
    }

    private func schedule(_ feed: GeneratedFeed, _ parser: FeedParser) throws -> Schedule {
        let result = parser.parse(Array(feed.json().utf8), source: "generated")
        guard let schedule = result.schedule, !result.hasErrors else {
            throw ValidationError("the generated feed has errors: \(result.diagnostics.prefix(3))")
        }
        return schedule
    }

    private func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
