/// A change of a zone's UTC offset: a spring-forward gap when the offset grows (the wall-clock
/// times between `before` and `after` do not exist), a fall-back overlap when it shrinks.
public struct OffsetChange: Sendable, Equatable {
    /// The instant the new offset takes effect.
    public var at: Instant
    public var before: ZoneOffset
    public var after: ZoneOffset

    /// Whether wall-clock times are skipped: the clocks jump forward.
    public var isGap: Bool { after.seconds > before.seconds }
    /// How far the clocks move: positive forward.
    public var jump: TimeSpan { .seconds(Int64(after.seconds - before.seconds)) }
    /// The wall-clock time just before the change, as the clocks read it then (`02:00` when they
    /// jump to `03:00`).
    public var wallClockBefore: CivilDateTime { CivilDateTime(at, offset: before.seconds) }
    /// The wall-clock time the change jumps to.
    public var wallClockAfter: CivilDateTime { CivilDateTime(at, offset: after.seconds) }
}

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
