import CLibnotify
import NotifySchedPlatform

/// The thread the calls to the notification server run on, started with the first call and
/// kept for the process: a popup then costs a hand-over to a waiting thread, not the creation
/// of one (`clone3` alone measured a quarter of a millisecond on the firing path). Between
/// calls it sleeps in `g_async_queue_pop`, with no timer: an idle daemon stays at rest.
///
/// A call that finds it busy (an overdue call to a hung server still holds it) gets a thread
/// of its own, as every call did before: the kept thread never makes a call wait for another.
enum ServerCallThread {
    /// Runs `work` on the kept thread when it waits for work, on a new thread otherwise.
    ///
    /// - Throws: `PlatformError` when no thread could be had (neither the kept one, at its
    ///   start, nor a new one).
    static func run(_ work: @escaping @Sendable () -> Void) throws(PlatformError) {
        let queue = try Queue.shared.get()
        // Negative while the kept thread waits in `pop`: it takes the work at once.
        guard g_async_queue_length(queue) < 0 else { return try WorkerThread.start(work) }
        g_async_queue_push(queue, Unmanaged.passRetained(Work(work)).toOpaque())
    }

    /// The kept thread's queue, created with the thread on first use.
    private final class Queue: @unchecked Sendable {
        static let shared = Queue()
        private let result: Result<OpaquePointer, PlatformError>

        private init() {
            // GAsyncQueue is made for use across threads; Swift sees only a pointer.
            nonisolated(unsafe) let queue = g_async_queue_new()!
            do {
                try WorkerThread.start {
                    while true {
                        let work = Unmanaged<Work>.fromOpaque(g_async_queue_pop(queue)).takeRetainedValue()
                        work.run()
                    }
                }
                result = .success(queue)
            } catch {
                result = .failure(error)
            }
        }

        func get() throws(PlatformError) -> OpaquePointer { try result.get() }
    }

    private final class Work {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
