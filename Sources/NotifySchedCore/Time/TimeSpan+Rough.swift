extension TimeSpan {
    /// The span in its largest unit and the unit below, rounded down, as systemd writes a
    /// timer's LEFT and PASSED: `45s`, `4min 10s`, `2h 3min`, `1 day 2h`, `3 weeks 1 day`,
    /// `2 days` (not `2 days 1s`); `0s` below a second or for a negative span.
    public var rough: String {
        let seconds = max(0, microseconds / 1_000_000)
        guard let largest = Self.roughUnits.firstIndex(where: { seconds >= $0.size }) else { return "0s" }
        func count(_ unit: Int, of rest: Int64) -> String? {
            let (size, one, many) = Self.roughUnits[unit]
            let count = rest / size
            return count == 0 ? nil : "\(count)\(count == 1 ? one : many)"
        }
        let below =
            largest + 1 < Self.roughUnits.count ? count(largest + 1, of: seconds % Self.roughUnits[largest].size) : nil
        return [count(largest, of: seconds), below].compactMap { $0 }.joined(separator: " ")
    }

    private static let roughUnits: [(size: Int64, one: String, many: String)] = [
        (604_800, " week", " weeks"), (86_400, " day", " days"), (3600, "h", "h"), (60, "min", "min"), (1, "s", "s"),
    ]
}
