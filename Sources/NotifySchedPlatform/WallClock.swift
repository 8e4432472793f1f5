import Glibc
import NotifySchedCore

/// The real-time clock, read in one place: the core never reads a clock.
public enum WallClock {
    /// The current time from `CLOCK_REALTIME`.
    public static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(microseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }
}
