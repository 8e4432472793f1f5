import Glibc
import NotifySchedCore

/// A detached POSIX thread that runs one piece of blocking work and ends.
///
/// The daemon keeps Swift concurrency and Dispatch out of its steady state (DESIGN §8: the
/// first `Task` starts a timer that wakes the process forever), so work that blocks — a feed
/// download through the fetcher, a big parse — runs here and posts its result to a
/// `LoopMailbox`. Nothing stays behind: the thread is gone when the work is done.
public enum WorkerThread {
    /// Starts a thread that runs `work` once.
    ///
    /// - Throws: `PlatformError` when the system refuses another thread.
    public static func start(_ work: @escaping @Sendable () -> Void) throws(PlatformError) {
        let thread = try spawn(work)
        pthread_detach(thread)
    }

    /// A new thread running `work`, to detach or join.
    static func spawn(_ work: @escaping @Sendable () -> Void) throws(PlatformError) -> pthread_t {
        let box = Unmanaged.passRetained(Work(work)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Work>.fromOpaque(box).release()
            throw PlatformError(.unwritable, "cannot start a worker thread: \(String(cString: strerror(status)))")
        }
        return thread
    }

    private final class Work {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
