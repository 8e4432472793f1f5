import CLinux
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

    /// Blocks the calling thread until the clock reads `instant`, never before; at once when it
    /// has passed.
    ///
    /// The wait is measured on the monotonic clock, which steps of the wall clock leave alone: a
    /// step either way while it sleeps neither stretches nor cuts the wait, which ends at the
    /// moment it was for (the daemon hears of the step from its timer).
    public static func sleep(until instant: Instant) {
        var remaining = instant - now()
        let longest = remaining
        while remaining > .zero, remaining <= longest {
            var request = timespec(
                tv_sec: Int(remaining.microseconds / 1_000_000), tv_nsec: Int(remaining.microseconds % 1_000_000) * 1000
            )
            // Interrupted by a signal, it returns early; the loop sleeps what is left.
            _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &request, nil)
            remaining = instant - now()
        }
    }

    /// Makes the calling thread's sleeps end at their instant, rather than up to the kernel's
    /// default timer slack (50 µs) later: for a thread whose `sleep(until:)` times a popup.
    public static func wakeExactlyOnThisThread() {
        _ = notify_sched_set_timer_slack(1)
    }
}
