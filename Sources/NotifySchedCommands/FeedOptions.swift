import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// Options every command that reads feeds shares.
struct FeedOptions: ParsableArguments {
    @Option(
        name: .customLong("allow-scheme"),
        help: ArgumentHelp(
            "Also allow action URLs with this scheme (repeatable); https, http and mailto always are.",
            valueName: "scheme"))
    var allowedSchemes: [String] = []

    /// Everything a command needs to read feeds, taken from the options and the environment.
    func context(environment: [String: String] = ProcessInfo.processInfo.environment) -> FeedContext {
        let zones = TimeZoneDatabase()
        let userZone = SystemTimeZone.current(environment: environment, database: zones)
        return FeedContext(
            parser: FeedParser(
                zones: zones, urlPolicy: URLPolicy(extraSchemes: allowedSchemes),
                language: .fromEnvironment(environment), userZone: userZone),
            userZone: userZone)
    }
}

/// A feed parser set up for this user, and the user's zone.
struct FeedContext {
    var parser: FeedParser
    var userZone: ZoneRules

    /// Reads and parses one feed file.
    func load(_ path: String) -> LoadedFeed {
        do {
            let bytes = try FeedFile.read(path, maxBytes: parser.limits.maxBytes)
            return LoadedFeed(path: path, outcome: .success(parser.parse(bytes, source: path)))
        } catch {
            return LoadedFeed(path: path, outcome: .failure(error))
        }
    }
}

/// One feed as a command read it: parsed, or not readable at all.
struct LoadedFeed {
    var path: String
    var outcome: Result<FeedParseResult, PlatformError>

    var schedule: Schedule? { (try? outcome.get())?.schedule }

    var hasErrors: Bool { (try? outcome.get())?.hasErrors ?? true }

    /// Each problem as one line: `feed.plist:42: notifications[3].fireDate: not a date: "tomorrow"`.
    var problemLines: [String] {
        switch outcome {
        case .failure(let error):
            return [error.message]
        case .success(let result):
            return result.diagnostics.map { $0.line(in: path) }
        }
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
