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
