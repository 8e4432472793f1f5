import ArgumentParser
import Foundation
import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched list`: the schedule, each entry with its next occurrences.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the schedule: each entry with its next occurrences.",
        discussion: """
            Without --feed and --now, shows what the running daemon has, with each entry's last delivery \
            and state; with no daemon running, what the configured feeds (or the demo feeds) and the \
            stored state give. With --feed, computes offline from those feeds only, as of --now, in the \
            zone given by TZ (default: the system zone).
            """
    )

    @Option(
        help: ArgumentHelp(
            "The configuration file whose sources to list when no daemon runs "
                + "(default: $XDG_CONFIG_HOME/notify-sched/config).",
            valueName: "file"))
    var config: String?

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

    @Option(help: ArgumentHelp("How many occurrences to show per entry (1 to 1000).", valueName: "n"))
    var upcoming = 1

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "Only the entries of this source: its name in the configuration, or its feed's path or URL (repeatable).",
            valueName: "source"))
    var sourceFilters: [String] = []

    @Option(
        name: .customLong("state"),
        help: ArgumentHelp(
            "Only the entries in this state: pending, delivered, acted, ignored, reminded, closed, missed, "
                + "suppressed, or (nothing recorded and no time to come) ended, expired or \"other version\" "
                + "(repeatable).",
            valueName: "state"))
    var states: [String] = []

    @Option(
        name: .customLong("id"),
        help: ArgumentHelp(
            "Only the entries whose id matches this shell pattern, such as 'standup' or 'news-*' (repeatable).",
            valueName: "pattern"))
    var ids: [String] = []

    @Option(
        help: ArgumentHelp(
            "How many entries to show, the soonest first (default 100; 0 for all).", valueName: "n"))
    var limit = 100

    @Option(help: ArgumentHelp("How many entries to skip before the first shown: the next page.", valueName: "n"))
    var offset = 0

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    @OptionGroup var options: FeedOptions

    func validate() throws {
        guard limit >= 0, offset >= 0 else { throw ValidationError("--limit and --offset cannot be negative") }
        guard (1...ScheduleListing.maximumUpcoming).contains(upcoming) else {
            throw ValidationError("--upcoming must be between 1 and \(ScheduleListing.maximumUpcoming)")
        }
        let known = ["pending"] + LedgerOutcome.allCases.map(\.rawValue) + EntryEnding.allCases.map(\.rawValue)
        if let state = states.first(where: { !known.contains($0) }) {
            throw ValidationError("--state \"\(state)\" is not a state: \(known.joined(separator: ", "))")
        }
        if let now, Self.instant(now, userZone: .utc) == nil {
            throw ValidationError("--now \"\(now)\" is not a time (RFC 3339 such as 2026-03-29T09:00:00Z, or @SECONDS)")
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        if feeds.isEmpty, now == nil {
            let configured = (try? UserConfiguration.load(config, environment: environment, quiet: true))?.sources ?? []
            if let listing = try daemonListing(filter: filter(configured)) {
                let zone = SystemTimeZone.current(environment: environment)
                try write(
                    listing, as: WallClock.now(), userZone: zone, configured: configured, environment: environment)
                return
            }
        }
        let configured = feeds.isEmpty
        let configuredSources = configured ? try UserConfiguration.load(config, environment: environment).sources : []
        let sources: [(path: String, dialect: FeedDialect?, alarms: AlarmPolicy?)] =
            configured
            ? configuredSources.map { ($0.feed, $0.dialect, $0.settings.alarms) } : feeds.map { ($0, nil, nil) }
        let paths = sources.map(\.path)
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
        for (path, dialect, alarms) in sources {
            let feed = context.load(path, configured: dialect, alarms: alarms)
            for line in feed.problemLines { Output.standardError.write(line) }
            failed = failed || feed.hasErrors
            if let schedule = feed.schedule { schedules.append(schedule) }
        }
        let stored = configured ? try Self.storedState(of: paths, environment: environment) : StoredState()
        let listing = ScheduleListing(
            schedules: schedules, now: instant, upcoming: upcoming, userZone: context.userZone,
            filter: filter(configuredSources), page: page,
            history: stored.history, settled: stored.settled, health: stored.health,
            applicationVersions: Dictionary(
                configuredSources.compactMap { source in
                    source.settings.iNotify.applicationVersion.map { (source.feed, $0) }
                }, uniquingKeysWith: { $1 }))
        try write(
            listing, as: instant, userZone: context.userZone, configured: configuredSources, environment: environment)
        if failed { throw CommandError(.failure, []) }
    }

    /// The positions `--offset` and `--limit` name in the filtered listing.
    private var page: Range<Int> {
        offset..<(limit == 0 || limit > Int.max - offset ? .max : offset + limit)
    }

    /// The entries `--source`, `--state` and `--id` keep, with each source named as configured.
    private func filter(_ configured: [SourceConfiguration]) -> ListingFilter {
        ListingFilter(sources: sourceFilters.map(configured.location(of:)), states: states, ids: ids)
    }

    /// Prints the rows, as JSON or as a table that fits the terminal, with each configured
    /// source by its name; and on standard error, when the filter keeps more entries than
    /// listed, how to see the others.
    private func write(
        _ listing: ScheduleListing, as now: Instant, userZone: ZoneRules, configured: [SourceConfiguration],
        environment: [String: String]
    ) throws {
        Output.standardOutput.write(
            json
                ? try listing.json()
                : listing.table(
                    userZone: userZone, now: now, width: TerminalWidth.ofStandardOutput(environment: environment),
                    sourceNames: configured.namesByLocation))
        let shown = offset + listing.rows.count
        if shown < listing.total {
            Output.standardError.write(
                Messages.catalog.translated(
                    "notify-sched: listed {shown} of {total} entries; --offset {shown} lists the next, --limit 0 all",
                    ["shown": "\(shown)", "total": "\(listing.total)"]))
        }
    }

    /// The running daemon's listing of the entries `filter` keeps, from `--offset` on and
    /// `--limit` of them, asked for a page at a time; nil when no daemon runs.
    private func daemonListing(filter: ListingFilter) throws(CommandError) -> ScheduleListing? {
        var listing: ScheduleListing?
        while true {
            let listed = listing?.rows.count ?? 0
            let wanted = limit == 0 ? ControlCall.maximumListRows : min(limit - listed, ControlCall.maximumListRows)
            let call = ControlCall.list(upcoming: upcoming, offset: offset + listed, limit: wanted, filter: filter)
            guard case .listed(let json, let total) = try RunningDaemon.call(call) else { break }
            let page: ScheduleListing
            do {
                page = try ScheduleListing(json: json, total: total)
            } catch {
                throw CommandError(.failure, "notify-sched: the daemon's listing is malformed: \(error)")
            }
            if listing == nil {
                listing = page
            } else {
                listing?.rows += page.rows
                listing?.total = page.total
            }
            let rows = listed + page.rows.count
            // An empty page: the schedule shrank meanwhile, or nothing is left.
            if page.rows.isEmpty || offset + rows >= page.total || (limit != 0 && rows >= limit) { break }
        }
        return listing
    }

    /// What the state database says of the listed sources' entries.
    private struct StoredState {
        /// The latest ledger record of each entry, by source and entry id.
        var history: [String: [String: LedgerRecord]] = [:]
        /// What each source's entries are settled through, by source.
        var settled: [String: StoredSettledInstants] = [:]
        /// Each source's health, for those checked before.
        var health: [String: SourceHealth] = [:]
    }

    /// What the state database says of `sources`, when there is one (a listing never creates it).
    private static func storedState(
        of sources: [String], environment: [String: String]
    ) throws(CommandError) -> StoredState {
        let path = UserDirectories(environment: environment).stateDatabase
        guard FileManager.default.fileExists(atPath: path) else { return StoredState() }
        do {
            let store = try StateStore(path: path)
            var stored = StoredState()
            for source in sources {
                stored.history[source] = try store.latestRecords(source: source)
                stored.settled[source] = try store.settledThrough(source: source)
                let known = try store.sourceHealth(source)
                if known.lastCheck != nil { stored.health[source] = known }
            }
            return stored
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
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
