import Glibc
import NotifySchedCore
import Synchronization

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

    /// Runs `body` for each of `0..<count`, side by side on as many threads as the machine has
    /// processors (the calling thread one of them, so that a single one costs no thread), and
    /// returns once all are done; the threads are gone then. When the system refuses a thread,
    /// the others do its share.
    public static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let next = Atomic<Int>(0)
        let work: @Sendable () -> Void = {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                body(index)
            }
        }
        let width = min(count, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let threads = (1..<max(width, 1)).compactMap { _ in try? spawn(work) }
        work()
        for thread in threads { pthread_join(thread, nil) }
    }

    /// A new thread running `work`, to detach or join.
    private static func spawn(_ work: @escaping @Sendable () -> Void) throws(PlatformError) -> pthread_t {
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
