import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform

extension FeedDialect: ExpressibleByArgument {}

/// `--allow-scheme`: the schemes an action URL may have besides the safe ones, for every
/// command that reads or shows actions.
struct SchemeOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-scheme"),
        help: ArgumentHelp(
            "Also allow action URLs with this scheme (repeatable); https, http and mailto always are.",
            valueName: "scheme"))
    var allowedSchemes: [String] = []
}

/// Options every command that reads feeds shares.
struct FeedOptions: ParsableArguments {
    @OptionGroup var schemes: SchemeOptions
    var allowedSchemes: [String] { schemes.allowedSchemes }

    @Option(
        name: .customLong("public-key"),
        help: ArgumentHelp(
            "The portal's Ed25519 public key (base64 of the raw 32 bytes): feeds must then be signed (FEED.sig), "
                + "not older than the last accepted version, and not expired.",
            valueName: "key"))
    var publicKey: String?

    @Option(
        name: .customLong("ca-file"),
        help: ArgumentHelp(
            "A PEM file of certificate authorities to trust for HTTPS feeds, besides the system's (repeatable).",
            valueName: "file"))
    var caFiles: [String] = []

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp("How long to wait for a connection to a portal (default 10s).", valueName: "span"))
    var connectTimeout: String?

    @Option(
        name: .customLong("timeout"),
        help: ArgumentHelp(
            "How long a whole fetch may take, redirects and body included (default 60s).", valueName: "span"))
    var timeout: String?

    @Option(
        name: .customLong("dialect"),
        help: ArgumentHelp(
            "Read the feeds as this dialect (native, zbim, inotify, ismartnews or icalendar); a feed of another shape is an "
                + "error. Default: each as its source is configured, else by its shape.",
            valueName: "dialect"))
    var dialect: FeedDialect?

    func validate() throws {
        if let publicKey {
            do { _ = try FeedPublicKey(base64: publicKey) } catch {
                throw ValidationError("--public-key: \(error.message)")
            }
        }
        try Self.requirePositiveSpan(connectTimeout, of: "--connect-timeout")
        try Self.requirePositiveSpan(timeout, of: "--timeout")
    }

    /// Refuses `value`, given to `flag`, unless it is a positive time span.
    private static func requirePositiveSpan(_ value: String?, of flag: String) throws {
        if let value, (TimeSpan.parse(value) ?? .zero) <= .zero {
            throw ValidationError("\(flag) \"\(value)\" is not a positive time span (such as 10, 10s, 500ms, 2min)")
        }
    }

    /// These options as a command line, for another notify-sched this one runs (`show-popup`).
    var arguments: [String] {
        var arguments = allowedSchemes.flatMap { ["--allow-scheme", $0] } + caFiles.flatMap { ["--ca-file", $0] }
        for (flag, value) in [
            ("--public-key", publicKey), ("--connect-timeout", connectTimeout), ("--timeout", timeout),
            ("--dialect", dialect?.rawValue),
        ] {
            if let value { arguments += [flag, value] }
        }
        return arguments
    }

    /// The fetch settings these options ask for.
    var fetchConfiguration: FetchConfiguration {
        var configuration = FetchConfiguration(trustedCertificateFiles: caFiles)
        if let span = connectTimeout.flatMap(TimeSpan.parse) { configuration.connectTimeout = span }
        if let span = timeout.flatMap(TimeSpan.parse) { configuration.totalTimeout = span }
        return configuration
    }

    /// Everything a command needs to read `locations`, taken from the options and the environment.
    ///
    /// - Throws: `CommandError` when a `--ca-file` cannot be read.
    func context(
        for locations: [String], environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> FeedContext {
        let zones = TimeZoneDatabase()
        let userZone = SystemTimeZone.current(environment: environment, database: zones)
        var fetcher: FeedFetcher?
        // The fetcher starts a thread of its own: only when a feed is a URL.
        if locations.contains(where: SourceLocation.isURL) {
            do { fetcher = try FeedFetcher(configuration: fetchConfiguration) } catch {
                throw CommandError(.failure, error.message)
            }
        }
        return FeedContext(
            parser: FeedParser(
                zones: zones, urlPolicy: URLPolicy(extraSchemes: allowedSchemes),
                language: .fromEnvironment(environment), userZone: userZone, dialect: dialect,
                parallelWork: WorkerThreads()),
            userZone: userZone,
            loader: PortalFeedLoader(fetcher: fetcher, directories: UserDirectories(environment: environment)),
            publicKey: publicKey.flatMap { try? FeedPublicKey(base64: $0) })
    }
}

/// A feed parser set up for this user, the user's zone, and the loader for files and portals.
///
/// This is the single place commands load feeds: paths, `-` and `http(s)://` URLs alike.
struct FeedContext {
    var parser: FeedParser
    var userZone: ZoneRules
    var loader: PortalFeedLoader
    var publicKey: FeedPublicKey?

    /// Reads (or fetches), checks and parses one feed.
    ///
    /// - Parameters:
    ///   - configured: The dialect its source is configured in; `--dialect` wins over it.
    ///   - allowCacheFallback: Whether a failed fetch may use the last good copy.
    func load(
        _ location: String, configured: FeedDialect? = nil, alarms: AlarmPolicy? = nil, allowCacheFallback: Bool = true
    ) -> LoadedFeed {
        LoadedFeed(
            portal: loader.load(
                location, publicKey: publicKey, parser: parser(for: location, configured: configured, alarms: alarms),
                now: WallClock.now(), allowCacheFallback: allowCacheFallback))
    }

    /// The parser for the feed at `location` of a source configured in `configured`, unless
    /// `--dialect` says otherwise, showing the calendar alarms `alarms` says (by default, as
    /// `SourceSettings.alarmPolicy(for:)` has it).
    func parser(for location: String, configured: FeedDialect?, alarms: AlarmPolicy? = nil) -> FeedParser {
        var parser = parser
        if parser.dialect == nil { parser.dialect = configured }
        parser.alarmPolicy = SourceSettings(alarms: alarms).alarmPolicy(for: location)
        return parser
    }

    /// Stops the fetcher's thread, if one was started.
    func close() {
        loader.fetcher?.shutdown()
    }
}

/// One feed as a command read it: parsed, or not usable at all.
struct LoadedFeed {
    var portal: LoadedPortalFeed

    var path: String { portal.location }

    var schedule: Schedule? { portal.parsed?.schedule }

    var hasErrors: Bool { portal.parsed?.hasErrors ?? true }

    /// Each problem as one line: `feed.plist:42: notifications[3].fireDate: not a date: "tomorrow"`;
    /// warnings about the fetch (such as the cache being used) first.
    var problemLines: [String] {
        var lines = portal.warnings.map { "warning: \($0)" }
        if let failure = portal.failure, portal.parsed == nil { lines.append(failure.message) }
        lines += (portal.parsed?.diagnostics ?? []).map { $0.line(in: path) }
        return lines
    }
}

extension Diagnostic {
    /// The problem as one line of a command's error output:
    /// `feed.plist:42: notifications[3].fireDate: not a date: "tomorrow"`.
    func line(in file: String) -> String {
        var parts = [file]
        if let line = error.location.line { parts.append(String(line)) }
        if !error.location.keyPath.isEmpty { parts.append(" " + error.location.keyPath) }
        return parts.joined(separator: ":") + ": " + (severity == .warning ? "warning: " : "") + error.message
    }
}
