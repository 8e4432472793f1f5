import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// `notify-sched-bench parse-file PATH`: the measured work, in a process of its own; prints
/// `milliseconds peak-kilobytes`.
///
/// By default it reads, parses, maps to a `Schedule` and plans every entry (its next
/// occurrence) as a daemon's first start does. With `--document-only` it stops after reading
/// the document tree: the work Python's `json.load` and `plistlib.load` do. With `--calendar` it
/// takes a calendar as it comes: problems reported (a hostile one has them) and alarms that went
/// off years ago (a real one has them) do not make it fail.
struct FeedParseProbe: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "parse-file", shouldDisplay: false)

    @Argument var path: String

    @Flag var documentOnly = false

    @Flag var calendar = false

    func run() throws {
        let zones = TimeZoneDatabase()
        let userZone = SystemTimeZone.current(environment: ProcessInfo.processInfo.environment)
        let now = WallClock.now()
        let start = DispatchTime.now().uptimeNanoseconds
        // A 100 000-entry feed is larger than the default 16 MiB cap, which exists for untrusted
        // feeds; the benchmark measures the parser itself, so it lifts the cap.
        let limits = FeedReadLimits(maxBytes: 1 << 30)
        let bytes = try FeedFile.read(path, maxBytes: limits.maxBytes)
        if documentOnly {
            let document = try FeedDocument.read(bytes, limits: limits)
            try report(start: start, check: document.format.rawValue.isEmpty)
            return
        }
        let result = FeedParser(zones: zones, limits: limits, parallelWork: WorkerThreads()).parse(bytes, source: path)
        guard let schedule = result.schedule, calendar || !result.hasErrors else {
            throw ValidationError("the generated feed has errors: \(result.diagnostics.prefix(3))")
        }
        // Each entry planned as a daemon's first start plans it: at one instant, sharing the
        // calendar elapses found.
        let context = PlanningContext(userZone: userZone)
        var memo = ElapseMemo()
        var scheduled = 0
        for index in schedule.entries.indices
        where OccurrencePlan(
            for: schedule.entries[index], settledThrough: nil, now: now, context: context, memo: &memo
        ).next != nil {
            scheduled += 1
        }
        guard calendar || scheduled == schedule.entries.count else {
            throw ValidationError("only \(scheduled) of \(schedule.entries.count) entries have a next occurrence")
        }
        // The schedule is what a daemon keeps: freeing it is not part of the work.
        try withExtendedLifetime(schedule) { try report(start: start, check: false) }
    }

    /// Prints the time since `start` and the peak RSS; `check` keeps the measured result alive.
    private func report(start: UInt64, check: Bool) throws {
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        print(elapsed, try Self.peakKilobytes() + (check ? 1 : 0))
    }

    /// This process's own peak RSS: `VmHWM` of /proc/self/status. Not `ru_maxrss`, which Linux
    /// carries over an exec: a child spawned by Foundation's `Process` (posix_spawn, sharing the
    /// parent's memory until its exec) reports the benchmark parent's peak as its own.
    static func peakKilobytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { throw ValidationError("/proc/self/status has no VmHWM line") }
        return kilobytes
    }
}
