import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched history`: what was shown, when, and what the person did with it.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show what was shown, when, and what became of it.",
        discussion: """
            Reads the ledger in the state database, which keeps 90 days (and each entry's latest \
            occurrence however old), with or without a running daemon. Oldest first; times in the zone \
            given by TZ (default: the system zone). OUTCOME is delivered (no answer yet), acted, \
            ignored, reminded or closed with the time of the answer, missed (not shown in time), or \
            suppressed (held back by a cap, whose reason stands in place of the title).
            """
    )

    @Option(
        help: ArgumentHelp(
            "How far back: a span (30min, 2h, 7d) or a time (RFC 3339, a date, @SECONDS; default: all kept).",
            valueName: "span|time"))
    var since: String?

    @Option(
        help: ArgumentHelp(
            "Only this source: its name in the configuration, or its feed's path or URL.", valueName: "source"))
    var source: String?

    @Option(
        help: ArgumentHelp(
            "The configuration file that names the sources (default: $XDG_CONFIG_HOME/notify-sched/config).",
            valueName: "file"))
    var config: String?

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        if let since, Self.start(since, now: Instant(microseconds: 0), userZone: .utc) == nil {
            throw ValidationError(
                "--since \"\(since)\" is neither a span (30min, 2h, 7d) nor a time (2026-11-20, "
                    + "2026-11-20T09:00:00Z, @SECONDS)")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let zone = SystemTimeZone.current(environment: environment)
        let start = since.flatMap { Self.start($0, now: WallClock.now(), userZone: zone) } ?? Instant(microseconds: 0)
        let sources = try UserConfiguration.load(config, environment: environment).sources
        let location = source.map(sources.location(of:))
        let path = UserDirectories(environment: environment).stateDatabase
        var records: [HistoryRecord] = []
        // A history never creates the database: with none, nothing was shown yet.
        if FileManager.default.fileExists(atPath: path) {
            do {
                records = try StateStore(path: path).history(since: start, source: location)
            } catch {
                throw CommandError(.failure, "notify-sched: \(error.message)")
            }
        }
        let listing = HistoryListing(records)
        Output.standardOutput.write(
            json
                ? try listing.json()
                : listing.table(
                    userZone: zone, width: TerminalWidth.ofStandardOutput(environment: environment),
                    sourceNames: sources.namesByLocation))
    }

    /// Where `--since` starts: `now` less a span, or a time (floating times in `userZone`).
    static func start(_ text: String, now: Instant, userZone: ZoneRules) -> Instant? {
        if let span = TimeSpan.parse(text) { return now - span }
        return ListCommand.instant(text, userZone: userZone)
    }
}
