extension ZoneRules {
    /// The changes of the offset in `window`, in order: transitions that change only the
    /// abbreviation or the DST flag are left out.
    public func offsetChanges(in window: Range<Instant>) -> [OffsetChange] {
        var changes: [OffsetChange] = []
        var cursor = window.lowerBound
        while let next = nextTransition(after: cursor), next < window.upperBound {
            let (before, after) = (offset(at: next.previousMicrosecond), offset(at: next))
            if before.seconds != after.seconds { changes.append(OffsetChange(at: next, before: before, after: after)) }
            cursor = next
        }
        return changes
    }

    /// A zone whose offset is always `offset`: wall-clock times that go on through a change of
    /// the zone it was in force in.
    static func fixed(_ offset: ZoneOffset) -> ZoneRules {
        // Standard time, as a zone that never changes has it.
        let standing = ZoneOffset(seconds: offset.seconds, isDST: false, abbreviation: offset.abbreviation)
        return ZoneRules(
            identifier: "UTC" + ZoneOffset.hoursAndMinutes(offset.seconds), transitionTimes: [],
            transitionOffsetIndices: [], offsets: [standing], initialOffset: standing, rule: nil)
    }
}
