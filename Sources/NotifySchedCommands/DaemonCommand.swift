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
            occurrence as a desktop popup when it is due. Logs to standard error. Exits 1 when another \
            daemon of the same user is running; SIGTERM or SIGINT stops it.
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
        let environment = ProcessInfo.processInfo.environment
        var configuration = try UserConfiguration.load(config, environment: environment)
        if !feeds.isEmpty {
            configuration.sources = feeds.map {
                SourceConfiguration(
                    name: $0, feed: SourceLocation.canonical($0), publicKey: publicKey,
                    settings: configuration.sourceDefaults)
            }
        }
        do {
            let daemon = try Daemon(
                configuration: configuration, paths: UserDirectories(environment: environment),
                environment: environment,
                log: DaemonLog(environment: environment, write: Output.standardError.write))
            daemon.run()
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
    }
}
