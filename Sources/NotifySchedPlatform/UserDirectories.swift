import Glibc

/// The XDG base directories notify-sched keeps its files in (XDG Base Directory Specification).
///
/// | what | folder | default |
/// |---|---|---|
/// | feed cache (last good feed per URL) | `$XDG_CACHE_HOME/notify-sched` | `~/.cache/notify-sched` |
/// | state (accepted feed versions) | `$XDG_STATE_HOME/notify-sched` | `~/.local/state/notify-sched` |
///
/// A variable that is unset, empty or not an absolute path is ignored, as the specification says.
public struct UserDirectories: Hashable, Sendable {
    /// Where fetched feeds are cached.
    public var cache: String
    /// Where state that must survive restarts is kept.
    public var state: String

    public init(cache: String, state: String) {
        self.cache = cache
        self.state = state
    }

    /// The folders for this user, from `environment` (`XDG_CACHE_HOME`, `XDG_STATE_HOME`, `HOME`).
    public init(environment: [String: String]) {
        let home =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) } ?? "/"
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        self.init(
            cache: base("XDG_CACHE_HOME", ".cache") + "/notify-sched",
            state: base("XDG_STATE_HOME", ".local/state") + "/notify-sched")
    }
}
