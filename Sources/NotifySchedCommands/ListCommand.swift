import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// `notify-sched list`: the schedule, each entry with its next occurrences.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the schedule: each entry with its next occurrences.",
        discussion: """
            With --feed, computes offline from those feeds as of --now, in the zone given by TZ \
            (default: the system zone). Without --feed, lists the demo feeds shipped with notify-sched.
            """
    )

    @Option(
        name: .customLong("feed"),
        help: ArgumentHelp(
            "A feed file or http(s):// URL to list (repeatable). A URL is fetched (conditional GET) and cached; "
                + "when the fetch fails, the last good copy is used with a warning.",
            valueName: "path|url"))
    var feeds: [String] = []

    @Option(
        help: ArgumentHelp(
            "The time to list from, RFC 3339 (2026-03-29T09:00:00Z; without an offset it is local time) or @SECONDS.",
            valueName: "time"))
    var now: String?

    @Option(help: ArgumentHelp("How many occurrences to show per entry.", valueName: "n"))
    var upcoming = 1

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    @OptionGroup var options: FeedOptions

    func validate() throws {
        guard upcoming >= 1 else { throw ValidationError("--upcoming must be at least 1") }
        if let now, Self.instant(now, userZone: .utc) == nil {
            throw ValidationError("--now \"\(now)\" is not a time (RFC 3339 such as 2026-03-29T09:00:00Z, or @SECONDS)")
        }
    }

    func run() throws {
        let paths = feeds.isEmpty ? DemoFeeds.files() : feeds
        let context = try options.context(for: paths)
        defer { context.close() }
        guard !paths.isEmpty else {
            throw CommandError(.failure, "no feed to list: name one with --feed (the demo feeds were not found)")
        }
        // The wall clock to the second: an entry due "now" prints as a plain RFC 3339 time.
        let instant =
            now.flatMap { Self.instant($0, userZone: context.userZone) }
            ?? Instant(secondsSinceEpoch: WallClock.now().secondsSinceEpoch)
        var schedules: [Schedule] = []
        var failed = false
        for path in paths {
            let feed = context.load(path)
            for line in feed.problemLines { Output.standardError.write(line) }
            failed = failed || feed.hasErrors
            if let schedule = feed.schedule { schedules.append(schedule) }
        }
        let listing = ScheduleListing(
            schedules: schedules, now: instant, upcoming: upcoming, userZone: context.userZone)
        Output.standardOutput.write(json ? try listing.json() : listing.table(userZone: context.userZone))
        if failed { throw CommandError(.failure, []) }
    }

    /// Reads `--now`: RFC 3339 (floating times in `userZone`) or `@` and seconds since the epoch.
    static func instant(_ text: String, userZone: ZoneRules) -> Instant? {
        if text.hasPrefix("@") {
            return Int64(text.dropFirst()).map { Instant(secondsSinceEpoch: $0) }
        }
        switch Timestamp.parse(text) {
        case .absolute(let instant)?: return instant
        case .floating(let civil)?: return userZone.instant(forFloating: civil)
        case nil: return nil
        }
    }
}
