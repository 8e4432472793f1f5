import CLibFuzzer
import Foundation
import NotifySchedControl
import NotifySchedCore

/// The parser every input goes through, with a few real zones so `timeZone` and calendar
/// expressions reach the zone code; unknown names are refused as in production.
private let parser: FeedParser = {
    struct Zones: ZoneProvider {
        var rules: [String: ZoneRules]
        func zone(named name: String) -> ZoneRules? { rules[name] }
    }
    var rules: [String: ZoneRules] = [:]
    for name in ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe"] {
        if let data = FileManager.default.contents(atPath: "/usr/share/zoneinfo/" + name),
            let zone = try? ZoneRules(identifier: name, tzif: Array(data))
        {
            rules[name] = zone
        }
    }
    return FeedParser(zones: Zones(rules: rules), userZone: rules["Europe/Berlin"])
}()

private let now = Instant(secondsSinceEpoch: 1_800_000_000)

/// The rules' gate as a desktop with tags, a notification server and a bound has it.
private let gate = CapGate(
    globalBound: PopupBound(count: 4, period: .hours(1)), installID: "8f0e5c1a-3b2d-4c6e-9a7f-1d2e3f4a5b6c",
    environment: TargetingEnvironment(
        language: LanguagePreference(language: "fr", country: "FR"), desktop: "GNOME", session: "wayland",
        osID: "debian", osVersion: "12", installedAt: now - .days(40),
        server: NotificationServer(
            name: "dunst", vendor: "knopwob", version: "1.9", specVersion: "1.2", capabilities: ["actions", "body"])),
    tags: ["fuzz": ["sports", "news"]], applicationVersions: ["fuzz": "2.0"])

/// A day of impressions, several per entry id of the corpus's feeds.
private let impressions = ImpressionLog(
    (0..<200).map {
        Impression(
            occurrenceID: "o\($0)", source: "fuzz", entryID: ["a", "b", "e", "p", "t"][$0 % 5], groups: ["g"],
            shownAt: now - .minutes(Int64($0) * 7), critical: $0 % 9 == 0)
    })

/// What an input is: a feed (`feed`, the default) or a call on the daemon's control interface
/// (`control`), chosen by `NOTIFY_SCHED_FUZZ_TARGET` so that each has a campaign of its own.
private let fuzzesControlCalls = ProcessInfo.processInfo.environment["NOTIFY_SCHED_FUZZ_TARGET"] == "control"

/// The most CPU time one input may take (`NOTIFY_SCHED_FUZZ_SLOW_MS`, default 100 ms): a slower
/// one stops the run as a finding, as a crash does. libFuzzer's own `-timeout` counts whole seconds.
private let slowLimitMilliseconds =
    Double(ProcessInfo.processInfo.environment["NOTIFY_SCHED_FUZZ_SLOW_MS"] ?? "") ?? 100

/// The slowest input so far, in CPU milliseconds, and how many ran; one thread runs the inputs.
nonisolated(unsafe) private var slowestMilliseconds = 0.0
nonisolated(unsafe) private var executions = 0

/// Hands the command line to libFuzzer's driver with `fuzzOneInput` as the target, and prints
/// the slowest input's time when the run ends.
@main
enum Fuzzing {
    static func main() {
        _ = parser
        atexit {
            print(String(format: "slowest input: %.2f ms of CPU in %ld executions", slowestMilliseconds, executions))
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput))
    }
}

/// The calling thread's CPU time in milliseconds: unlike the wall clock, not inflated by
/// whatever else the machine runs.
private func threadCPUMilliseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1_000_000
}

/// libFuzzer's entry point: runs the input through its target and checks its CPU time. A
/// crash, a hang (libFuzzer's `-timeout`), a leak past `-rss_limit_mb` or an input over the
/// CPU limit is a finding. The first input is not timed: it pays for one-time set-up
/// (Foundation's caches).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let started = threadCPUMilliseconds()
    if fuzzesControlCalls { fuzzControlCall(bytes[...]) } else { fuzzFeed(bytes) }
    let elapsed = threadCPUMilliseconds() - started
    executions += 1
    guard executions > 1 else { return 0 }
    slowestMilliseconds = max(slowestMilliseconds, elapsed)
    if elapsed > slowLimitMilliseconds {
        fatalError(String(format: "input took %.1f ms of CPU, over the %.0f ms limit", elapsed, slowLimitMilliseconds))
    }
    return 0
}

/// The feed target: the whole parse path (size cap, sniffing, bounded readers, the dialect
/// mappers), then what the daemon computes of the schedule over time: the first occurrences of
/// every entry and the last one before now, as `list` computes them; the catch-up of each entry
/// after a month's downtime, as the planner plans it; whether each may show under its rules
/// (rollout, targeting, groups, caps), as `CapGate` decides it; and the choices of a session
/// start and a posted event, as `SourceEventPlan` makes them.
private func fuzzFeed(_ bytes: [UInt8]) {
    let result = parser.parse(bytes, source: "fuzz")
    guard let schedule = result.schedule else { return }
    let zone = parser.userZone ?? ZoneRules.utc
    let context = PlanningContext(userZone: zone, applicationVersion: "2.0", watchedSince: now)
    for entry in schedule.entries {
        _ = entry.trigger.occurrences(onOrAfter: now, limit: 3, userZone: zone)
        _ = entry.trigger.lastOccurrence(before: now, userZone: zone)
        _ = OccurrencePlan(for: entry, settledThrough: now - .days(30), now: now, context: context)
        _ = gate.suppression(
            of: entry, source: "fuzz", groups: schedule.groups, feedVersion: schedule.version, log: impressions, at: now
        )
    }
    // A desktop that opens whatever a feed may name, as the daemon's source events find it.
    let everyScheme = URLHandlers(schemes: URLPolicy().allowedSchemes)
    var memory = SourceMemory()
    for event in [SourceEvent.session("session:start", countsAsRun: true), .posted("deploy"), .manualCheck] {
        let plan = SourceEventPlan(
            event, schedule: schedule, memory: memory, settings: INotifySettings(), location: "fuzz",
            waiting: PopupQueue(), onScreen: false, urlHandlers: everyScheme, now: now)
        if let check = plan.check { memory.check = check }
        if let news = plan.news { memory.news = news }
    }
}

/// The control target: a call decoded from bytes (`controlCall(from:)`) and checked as the
/// daemon checks it (`ControlCall`).
private func fuzzControlCall(_ bytes: ArraySlice<UInt8>) {
    let (method, arguments) = controlCall(from: bytes)
    _ = try? ControlCall(method: method, arguments: arguments, urlPolicy: URLPolicy())
}

/// The control interface's methods, and one it does not have.
private let methods = ["PostEvent", "List", "Status", "Handle", "Test", "Sync", "Reboot"]

/// A method and its arguments from bytes (`Fuzz/make_corpus.py` writes them): the method's
/// index, then each argument as a kind byte (0 a string with a 2-byte little-endian length,
/// 1 a boolean, 2 a 32-bit number) and its value.
private func controlCall(from bytes: ArraySlice<UInt8>) -> (String, [ControlValue]) {
    var rest = bytes
    let method = methods[Int(rest.popFirst() ?? 0) % methods.count]
    var arguments: [ControlValue] = []
    while let kind = rest.popFirst() {
        switch kind % 3 {
        case 0:
            let length = Int(rest.popFirst() ?? 0) | Int(rest.popFirst() ?? 0) << 8
            arguments.append(.string(String(decoding: rest.prefix(length), as: UTF8.self)))
            rest = rest.dropFirst(length)
        case 1:
            arguments.append(.boolean((rest.popFirst() ?? 0) & 1 == 1))
        default:
            let value = rest.prefix(4).reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            arguments.append(.unsigned(value))
            rest = rest.dropFirst(4)
        }
    }
    return (method, arguments)
}
