import ArgumentParser
import Foundation
import NotifySchedControl
import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform

/// `notify-sched sync`: check every source now and say what changed.
///
/// When a daemon runs, its `Sync` call checks its sources, puts what changed in force and
/// answers with what it found. Without one, the configured sources (or those named with
/// `--feed`) are checked here against the cached copies: each portal feed is fetched
/// (conditional GET), checked and, when good, cached, and its entries are compared by id with
/// the previous cached copy.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Check every source now, ignoring check periods, and print what changed.",
        discussion: """
            For each source: `URL: not modified`, or `URL: N added, N changed, N withdrawn` followed by one line \
            per entry (`+ id  title`, `~ id  title`, `- id  title`), or `URL: failed: cause` (the last good copy \
            stays). A running daemon checks its sources and puts the changes in force; without one the configured \
            sources are checked against the cache, and a file source says how many entries it read. Exit status 1 \
            if any source failed.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The configuration file (default: $XDG_CONFIG_HOME/notify-sched/config), when no daemon runs.",
            valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("feed"),
        help: ArgumentHelp(
            "Check this portal feed URL instead of the configured sources, without the daemon (repeatable).",
            valueName: "url"))
    var feeds: [String] = []

    @OptionGroup var options: FeedOptions

    func validate() throws {
        for feed in feeds where !SourceLocation.isURL(feed) {
            throw ValidationError("--feed \"\(feed)\" is not an http:// or https:// URL")
        }
    }

    func run() throws {
        if feeds.isEmpty, config == nil, let (failed, report) = try syncThroughDaemon() {
            if !report.isEmpty { Output.standardOutput.write(report) }
            if failed { throw CommandError(.failure, []) }
            return
        }
        let environment = ProcessInfo.processInfo.environment
        let sources =
            try feeds.isEmpty ? configuredSources(environment: environment) : feeds.map { ($0, nil, nil, nil) }
        let context = try options.context(for: sources.map(\.location), environment: environment)
        defer { context.close() }
        var failed = false
        for (location, key, dialect, alarms) in sources {
            let report = Self.check(
                location, publicKey: key ?? context.publicKey,
                parser: context.parser(for: location, configured: dialect, alarms: alarms), context: context)
            failed = failed || report.failed
            for line in report.lines { Output.standardOutput.write(line) }
        }
        if failed { throw CommandError(.failure, []) }
    }

    /// Asks the running daemon to sync; nil when no daemon runs.
    private func syncThroughDaemon() throws(CommandError) -> (failed: Bool, report: String)? {
        guard case .synced(let status, let report) = try RunningDaemon.call(.sync, waits: true) else { return nil }
        return (status == "failed", report)
    }

    /// The configured sources with their keys, dialects and calendar alarms; the demo feeds when
    /// none is configured.
    private func configuredSources(
        environment: [String: String]
    ) throws(CommandError) -> [(location: String, key: FeedPublicKey?, dialect: FeedDialect?, alarms: AlarmPolicy?)] {
        let configuration = try UserConfiguration.load(config, environment: environment)
        var sources: [(location: String, key: FeedPublicKey?, dialect: FeedDialect?, alarms: AlarmPolicy?)] = []
        for source in configuration.sources {
            do {
                sources.append(
                    (
                        source.feed, try source.publicKey.map(FeedPublicKey.init(base64:)), source.dialect,
                        source.settings.alarms
                    ))
            } catch {
                throw CommandError(.failure, "notify-sched: source \(source.name): \(error)")
            }
        }
        return sources
    }

    /// Checks one source against its cached copy, without the daemon.
    static func check(
        _ location: String, publicKey: FeedPublicKey?, parser: FeedParser, context: FeedContext
    ) -> SourceCheckReport {
        let loaded = context.loader.load(
            location, publicKey: publicKey, parser: parser, now: WallClock.now(), allowCacheFallback: false)
        for line in loaded.warnings { Output.standardError.write("warning: \(line)") }
        if let reason = loaded.unusableReason { return .failed(location, reason.message) }
        guard let schedule = loaded.parsed?.schedule else { return .failed(location, "\(location): no feed") }
        switch loaded.origin {
        case .notModified?:
            return .notModified(location)
        case .file?:
            let count = schedule.entries.count
            return SourceCheckReport(
                location: location, failed: false,
                lines: ["\(location): read, \(count) entr\(count == 1 ? "y" : "ies") (a file: nothing to compare)"])
        default:
            let before = loaded.previous.flatMap { parser.parse($0.bytes, source: location).schedule }
            return .changed(
                location, ScheduleChanges(from: before?.entries ?? [], to: schedule.entries), from: before, to: schedule
            )
        }
    }
}
