/// What a portal's `Cache-Control` header (RFC 9111 §5.2) says of how often to check its feed.
public enum CacheControl {
    /// The shortest `max-age` taken as a check period: shorter ones (`max-age=0` is a common
    /// default of dynamic servers, meaning "revalidate", not "poll constantly") are ignored.
    public static let shortestPeriod = TimeSpan.minutes(5)
    /// The longest: a longer `max-age` is taken as a week, so that a change still arrives.
    public static let longestPeriod = TimeSpan.days(7)

    /// The check period a response's `Cache-Control` asks for: its `max-age` (the first, where
    /// it comes twice), up to `longestPeriod`; nil without one, with `no-cache` or `no-store`,
    /// or below `shortestPeriod`.
    ///
    /// - Complexity: O(n) in the header's length.
    public static func period(fromHeader header: String) -> TimeSpan? {
        var maxAge: TimeSpan?
        for directive in header.split(separator: ",") {
            // Empty pieces kept, so that a directive of `=` alone still has a name (empty).
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).trimmingWhitespace
            }
            switch parts[0].lowercased() {
            case "no-cache", "no-store":
                return nil
            case "max-age" where parts.count == 2 && maxAge == nil:
                var value = Substring(parts[1])
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                guard let seconds = TimeSpan.deltaSeconds(value, cappedAt: longestPeriod) else { return nil }
                maxAge = seconds
            default:
                continue
            }
        }
        guard let maxAge, maxAge >= shortestPeriod else { return nil }
        return maxAge
    }
}
