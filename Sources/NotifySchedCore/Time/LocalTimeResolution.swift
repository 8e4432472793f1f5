/// What a wall-clock time names in a zone: one instant, none (a spring-forward gap) or two
/// (a fall-back overlap).
public enum LocalTimeResolution: Hashable, Sendable {
    /// The wall-clock time occurs exactly once.
    case unique(Instant)
    /// The wall-clock time does not occur; `shiftedForward` reads it with the offset in force
    /// before the transition, which moves it later by the gap's length (RFC 5545 §3.3.5):
    /// Berlin 2026-03-29 02:30 becomes 03:30 CEST, `2026-03-29T01:30:00Z`.
    case gap(shiftedForward: Instant)
    /// The wall-clock time occurs twice; `earlier` is the first occurrence.
    case overlap(earlier: Instant, later: Instant)
}
