import Glibc

/// The XDG base directories notify-sched keeps its files in (XDG Base Directory Specification).
///
/// | what | folder | default |
/// |---|---|---|
/// | configuration (`config`) | `$XDG_CONFIG_HOME/notify-sched` | `~/.config/notify-sched` |
/// | feed cache (last good feed per URL) | `$XDG_CACHE_HOME/notify-sched` | `~/.cache/notify-sched` |
/// | state (the database, delivered occurrences, accepted feed versions) | `$XDG_STATE_HOME/notify-sched` | `~/.local/state/notify-sched` |
///
/// A variable that is unset, empty or not an absolute path is ignored, as the specification says.
public struct UserDirectories: Hashable, Sendable {
    /// Where the configuration file is.
    public var configuration: String
    /// Where fetched feeds are cached.
    public var cache: String
    /// Where state that must survive restarts is kept.
    public var state: String

    public init(configuration: String, cache: String, state: String) {
        self.configuration = configuration
        self.cache = cache
        self.state = state
    }

    /// The configuration file.
    public var configurationFile: String { configuration + "/config" }
    /// The state database.
    public var stateDatabase: String { state + "/state.sqlite" }

    /// The folders for this user, from `environment` (`XDG_CONFIG_HOME`, `XDG_CACHE_HOME`,
    /// `XDG_STATE_HOME`, `HOME`).
    public init(environment: [String: String]) {
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) } ?? "/"
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        self.init(
            configuration: base("XDG_CONFIG_HOME", ".config") + "/notify-sched",
            cache: base("XDG_CACHE_HOME", ".cache") + "/notify-sched",
            state: base("XDG_STATE_HOME", ".local/state") + "/notify-sched")
    }
}
