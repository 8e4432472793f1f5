import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedDaemon
import NotifySchedPlatform

/// `notify-sched daemon`: run the user-session daemon in the foreground.
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Run the user-session daemon in the foreground.",
        discussion: """
            Follows the configured feeds (or the demo feeds when none are configured) and shows each \
            occurrence as a desktop popup when it is due. A local feed file is read again as soon as it \
            is edited; an edit that changes the configuration file starts the daemon again in the same \
            process (one with errors is logged, and the configuration in force stays). Logs to standard \
            error. Exits 1 when another daemon of the same user is running; SIGTERM or SIGINT stops it.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The configuration file (default: $XDG_CONFIG_HOME/notify-sched/config).", valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("feed"),
        help: ArgumentHelp(
            "Follow this feed (a path or an http(s) URL) instead of the configured ones (repeatable).",
            valueName: "location"))
    var feeds: [String] = []

    @Option(
        help: ArgumentHelp("The Ed25519 public key (base64) the --feed feeds must be signed with.", valueName: "key"))
    var publicKey: String?

    func run() throws {
        FreedMemory.giveBackAsFreed()
        let environment = ProcessInfo.processInfo.environment
        var configuration = try followed(UserConfiguration.load(config, environment: environment))
        let log = DaemonLog(environment: environment, write: Output.standardError.write)
        let source = ConfigurationSource(path: UserConfiguration.file(config, environment: environment)) {
            [self] in
            do throws(CommandError) {
                let (read, problems) = try UserConfiguration.read(config, environment: environment)
                return (read.map(followed), problems)
            } catch {
                return (nil, error.lines)
            }
        }
        // A changed configuration file ends a daemon's run: the next one, in this process,
        // follows it, owning the bus name throughout.
        while case .restart(let changed) = try runDaemon(
            configuration, source: source, environment: environment, log: log)
        {
            configuration = changed
        }
    }

    /// Runs one daemon until it stops; it is released before this returns.
    private func runDaemon(
        _ configuration: Configuration, source: ConfigurationSource, environment: [String: String], log: DaemonLog
    ) throws(CommandError) -> DaemonExit {
        do {
            let daemon = try Daemon(
                configuration: configuration, configurationSource: source,
                paths: UserDirectories(environment: environment), environment: environment, log: log)
            return daemon.run()
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
    }

    /// The daemon's configuration: `configuration` with the `--feed` feeds in place of its
    /// sources, when there are some.
    private func followed(_ configuration: Configuration) -> Configuration {
        guard !feeds.isEmpty else { return configuration }
        var configuration = configuration
        configuration.sources = feeds.map {
            SourceConfiguration(
                name: $0, feed: SourceLocation.canonical($0), publicKey: publicKey,
                settings: configuration.sourceDefaults)
        }
        return configuration
    }
}
