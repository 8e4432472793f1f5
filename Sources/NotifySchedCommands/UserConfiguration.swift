import NotifySchedCore
import NotifySchedPlatform

/// The user's configuration file, as the commands that follow the configured sources read it.
enum UserConfiguration {
    /// The configuration file: `path`, or `$XDG_CONFIG_HOME/notify-sched/config`.
    static func file(_ path: String?, environment: [String: String]) -> String {
        path ?? UserDirectories(environment: environment).configurationFile
    }

    /// Reads the configuration at `path` (default: `file(nil, …)`, which may be missing). With
    /// no source configured, the demo feeds shipped with notify-sched stand in (DESIGN §7).
    /// Each source's feed is named by its canonical location (`SourceLocation.canonical(_:)`),
    /// its identity in the state database.
    ///
    /// - Returns: The configuration, nil when the file has errors; and each problem as a line
    ///   for standard error.
    /// - Throws: `CommandError` when the file cannot be read (or a named one is missing).
    static func read(
        _ path: String?, environment: [String: String]
    ) throws(CommandError) -> (configuration: Configuration?, problems: [String]) {
        let file = file(path, environment: environment)
        var configuration: Configuration
        let problems: [Diagnostic]
        do {
            (configuration, problems) = try ConfigurationFile.load(file, required: path != nil)
        } catch {
            throw CommandError(.failure, error.message)
        }
        let lines = problems.map { $0.line(in: file) }
        if problems.contains(where: { $0.severity == .error }) { return (nil, lines) }
        if configuration.sources.isEmpty {
            configuration.sources = DemoFeeds.files(environment: environment).map {
                SourceConfiguration(name: $0, feed: $0, settings: configuration.sourceDefaults)
            }
        }
        for index in configuration.sources.indices {
            configuration.sources[index].feed = SourceLocation.canonical(configuration.sources[index].feed)
        }
        return (configuration, lines)
    }

    /// `read(_:environment:)`, printing each problem to standard error unless `quiet` (the
    /// caller only wants the sources' names).
    ///
    /// - Throws: `CommandError` when the file cannot be read (or a named one is missing) or has errors.
    static func load(
        _ path: String?, environment: [String: String], quiet: Bool = false
    ) throws(CommandError) -> Configuration {
        let (configuration, problems) = try read(path, environment: environment)
        if !quiet {
            for line in problems { Output.standardError.write(line) }
        }
        guard let configuration else {
            throw CommandError(.failure, "notify-sched: fix \(file(path, environment: environment)) first")
        }
        return configuration
    }
}

extension [SourceConfiguration] {
    /// The feed location `source` names on the command line: a configured source's, by its
    /// name, else `source` itself as a path or URL.
    func location(of source: String) -> String {
        first { $0.name == source }?.feed ?? SourceLocation.canonical(source)
    }

    /// Each source's name by its feed's location (the first, where two follow one feed), for
    /// tables that show sources by name.
    var namesByLocation: [String: String] {
        Dictionary(map { ($0.feed, $0.name) }) { first, _ in first }
    }
}
