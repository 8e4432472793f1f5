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
        let seconds = abs(offset.seconds)
        // POSIX counts west of Greenwich as positive.
        let sign = offset.seconds > 0 ? "-" : "+"
        let clock = [seconds / 3600, seconds / 60 % 60, seconds % 60].map { $0 < 10 ? "0\($0)" : "\($0)" }
        // A rule of the right form always reads.
        return (try? ZoneRules(identifier: "fixed", posixRule: "<FIX>\(sign)\(clock.joined(separator: ":"))")) ?? .utc
    }
}
