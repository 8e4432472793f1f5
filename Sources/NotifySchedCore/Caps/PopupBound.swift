/// The user's own bound on how many popups reach the screen (`max-popups = 4/1h` in the
/// configuration, globally and per source): no set of feeds can flood the desktop. Critical
/// popups are exempt, and neither bounded nor counted.
public struct PopupBound: Sendable, Hashable {
    /// At most this many popups…
    public var count: Int
    /// …within any sliding window this long.
    public var period: TimeSpan

    public init(count: Int, period: TimeSpan) {
        self.count = count
        self.period = period
    }

    /// `N/SPAN`: a count from 1 and a span from 1 s to `FrequencyCap.longestPeriod`
    /// (`4/1h`, `20/1d`); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0].trimmingSpaces), count >= 1,
            let period = TimeSpan.parse(parts[1].trimmingSpaces), period >= .seconds(1),
            period <= FrequencyCap.longestPeriod
        else { return nil }
        self.init(count: count, period: period)
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String { String(self).trimmingSpaces }
}
