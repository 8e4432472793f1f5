import CLinux
import Glibc
import NotifySchedCore
import Synchronization

/// SIGTERM and SIGINT, caught for the whole process and counted on an eventfd.
///
/// The main loop watches `catchSignals()`'s descriptor and stops when it becomes readable. A
/// thread that holds the loop waiting for something else (a call to a notification server
/// that is slow to answer) asks `isPending` and gives up its wait: a stop never waits for a
/// server. A signal that comes while no loop watches (between two daemons of one process)
/// stays counted until one does.
public enum TerminationSignals {
    private static let descriptor = Atomic<Int32>(-1)

    /// Catches SIGTERM and SIGINT from now on, once for the process. Call it from the main thread.
    ///
    /// - Returns: The descriptor that becomes readable when one comes.
    /// - Throws: `PlatformError` when the kernel refuses an eventfd or the handler.
    public static func catchSignals() throws(PlatformError) -> Int32 {
        let caught = descriptor.load(ordering: .acquiring)
        if caught >= 0 { return caught }
        let created = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard created >= 0, notify_sched_count_terminations(created) == 0 else {
            throw PlatformError(.unwritable, "cannot catch SIGTERM: \(String(cString: strerror(errno)))")
        }
        // A parent may have started us with these blocked (the mask is inherited); the handler
        // would then never run.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGTERM, SIGINT] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        descriptor.store(created, ordering: .releasing)
        return created
    }

    /// Whether a signal came that `take()` has not taken. Callable from any thread; never blocks.
    public static var isPending: Bool {
        let caught = descriptor.load(ordering: .acquiring)
        guard caught >= 0 else { return false }
        var request = pollfd(fd: caught, events: Int16(POLLIN), revents: 0)
        return poll(&request, 1, 0) > 0
    }

    /// Takes the signals that came.
    ///
    /// - Returns: Whether there was one.
    public static func take() -> Bool {
        let caught = descriptor.load(ordering: .acquiring)
        guard caught >= 0 else { return false }
        var count: UInt64 = 0
        return withUnsafeMutableBytes(of: &count) { read(caught, $0.baseAddress, 8) } == 8 && count > 0
    }
}
