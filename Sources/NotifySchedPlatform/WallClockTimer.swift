import CLinux
import Glibc
import NotifySchedCore

/// One timer on the wall clock, as a file descriptor a main loop watches (DESIGN §8).
///
/// A `timerfd` on `CLOCK_REALTIME`, armed at an absolute instant with `TFD_TIMER_CANCEL_ON_SET`:
/// it becomes readable when the instant comes, and also when the wall clock is stepped or the
/// machine resumes from suspend (the read then fails with `ECANCELED`), so the daemon needs no
/// polling to notice either.
public final class WallClockTimer {
    /// What made the descriptor readable.
    public enum Event: Sendable, Equatable {
        /// The armed instant came.
        case expired
        /// The wall clock was set (or the machine resumed): whatever was computed from it is stale.
        case clockChanged
        /// Nothing to read (another reader took it, or it was re-armed meanwhile).
        case none
    }

    /// The descriptor to watch for readability.
    public let fileDescriptor: Int32

    /// - Throws: `PlatformError` when the kernel refuses a timer (out of descriptors).
    public init() throws(PlatformError) {
        let descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        guard descriptor >= 0 else {
            throw PlatformError(.unreadable, "cannot create a wall-clock timer: \(String(cString: strerror(errno)))")
        }
        fileDescriptor = descriptor
    }

    deinit {
        close(fileDescriptor)
    }

    /// Arms the timer for `instant`, or disarms it when nil. An instant already past makes the
    /// descriptor readable at once. The clock-change report stays armed either way.
    public func arm(at instant: Instant?) {
        var setting = itimerspec()
        if let instant {
            // Zero disarms a timerfd, so an instant at or before the epoch becomes 1 ns.
            let nanoseconds = max(instant.microseconds, 0) * 1000
            setting.it_value = timespec(
                tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: max(Int(nanoseconds % 1_000_000_000), 1))
        } else {
            // A far-off expiry (the year 2200) rather than a disarmed timer: only an armed timer reports
            // clock changes.
            setting.it_value = timespec(tv_sec: 7_258_118_400, tv_nsec: 0)
        }
        timerfd_settime(fileDescriptor, Int32(TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET), &setting, nil)
    }

    /// Reads what happened since the descriptor became readable.
    public func acknowledge() -> Event {
        var expirations: UInt64 = 0
        let count = withUnsafeMutableBytes(of: &expirations) { read(fileDescriptor, $0.baseAddress, 8) }
        if count == 8 { return .expired }
        return errno == ECANCELED ? .clockChanged : .none
    }
}
