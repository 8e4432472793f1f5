/// How often a meta item showed in one of its ranges.
public struct RangeShows: Sendable, Equatable {
    /// The week or month the count belongs to (`ShowRange.period`); nil for fixed dates.
    public var period: Int64?
    /// How many times it showed in that period.
    public var count: Int

    public init(period: Int64?, count: Int) {
        self.period = period
        self.count = count
    }

    /// The count in `period`: zero once the week or month changed.
    public func count(in period: Int64?) -> Int {
        self.period == period ? count : 0
    }
}
