import Foundation

/// Where notify-sched keeps its files, following the XDG Base Directory specification:
/// `$XDG_CONFIG_HOME`, `$XDG_STATE_HOME` and `$XDG_CACHE_HOME`, each defaulting under `$HOME`
/// (`~/.config`, `~/.local/state`, `~/.cache`). A relative value is ignored, as the
/// specification says.
public struct UserPaths: Sendable, Equatable {
    /// `…/notify-sched` under the configuration home.
    public var configuration: String
    /// `…/notify-sched` under the state home.
    public var state: String
    /// `…/notify-sched` under the cache home.
    public var cache: String

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        func base(_ variable: String, _ fallback: String) -> String {
            (environment[variable].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/" + fallback) + "/notify-sched"
        }
        configuration = base("XDG_CONFIG_HOME", ".config")
        state = base("XDG_STATE_HOME", ".local/state")
        cache = base("XDG_CACHE_HOME", ".cache")
    }

    /// The configuration file.
    public var configurationFile: String { configuration + "/config" }
    /// The state database.
    public var stateDatabase: String { state + "/state.sqlite" }
}
