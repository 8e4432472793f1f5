/// notify-sched's own version: the one constant the `User-Agent` header and `--version` read.
public enum ProductVersion {
    /// The version, as `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"

    /// `notify-sched/<version>`, as sent in the `User-Agent` header of every feed fetch.
    public static var userAgent: String { "notify-sched/\(current)" }
}
