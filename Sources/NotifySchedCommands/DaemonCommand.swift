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
        let paths = UserDirectories(environment: environment)
        let path = config ?? paths.configurationFile
        let (loaded, problems) = try load(path)
        var configuration = loaded
        for problem in problems { Output.standardError.write(problem.line(in: path)) }
        if problems.contains(where: { $0.severity == .error }) {
            throw CommandError(.failure, "notify-sched: fix \(path) first")
        }
        if !feeds.isEmpty {
            configuration.sources = feeds.map {
                SourceConfiguration(name: $0, feed: $0, publicKey: publicKey, settings: configuration.sourceDefaults)
            }
        } else if configuration.sources.isEmpty {
            configuration.sources = DemoFeeds.files(environment: environment).map {
                SourceConfiguration(name: $0, feed: $0, settings: configuration.sourceDefaults)
            }
        }
        do {
            let daemon = try Daemon(
                configuration: configuration, paths: paths, environment: environment,
                report: Output.standardError.write)
            try daemon.run()
        } catch {
            throw CommandError(.failure, "notify-sched: \(error.message)")
        }
    }

    private func load(_ path: String) throws(CommandError) -> (Configuration, [Diagnostic]) {
        do {
            return try ConfigurationFile.load(path, required: config != nil)
        } catch {
            throw CommandError(.failure, error.message)
        }
    }
}
