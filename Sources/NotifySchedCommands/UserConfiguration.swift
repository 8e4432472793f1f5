import NotifySchedCore
import NotifySchedPlatform

/// The user's configuration file, as the commands that follow the configured sources read it.
enum UserConfiguration {
    /// Loads the configuration at `path` (default: `$XDG_CONFIG_HOME/notify-sched/config`, which
    /// may be missing), printing each problem to standard error. With no source configured, the
    /// demo feeds shipped with notify-sched stand in (DESIGN §7). Each source's feed is named by
    /// its canonical location (`SourceLocation.canonical(_:)`), its identity in the state database.
    ///
    /// - Parameter quiet: Print no problem (the caller only wants the sources' names).
    /// - Throws: `CommandError` when the file cannot be read (or a named one is missing) or has errors.
    static func load(
        _ path: String?, environment: [String: String], quiet: Bool = false
    ) throws(CommandError) -> Configuration {
        let file = path ?? UserDirectories(environment: environment).configurationFile
        var configuration: Configuration
        let problems: [Diagnostic]
        do {
            (configuration, problems) = try ConfigurationFile.load(file, required: path != nil)
        } catch {
            throw CommandError(.failure, error.message)
        }
        if !quiet {
            for problem in problems { Output.standardError.write(problem.line(in: file)) }
        }
        if problems.contains(where: { $0.severity == .error }) {
            throw CommandError(.failure, "notify-sched: fix \(file) first")
        }
        if configuration.sources.isEmpty {
            configuration.sources = DemoFeeds.files(environment: environment).map {
                SourceConfiguration(name: $0, feed: $0, settings: configuration.sourceDefaults)
            }
        }
        for index in configuration.sources.indices {
            configuration.sources[index].feed = SourceLocation.canonical(configuration.sources[index].feed)
        }
        return configuration
    }
}
