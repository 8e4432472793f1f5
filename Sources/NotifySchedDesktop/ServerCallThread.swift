import CLibnotify
import NotifySchedPlatform

/// The threads the calls to the notification server run on, started as calls need them and
/// kept for the process: a popup then costs a hand-over to a waiting thread, not the creation
/// of one (`clone3` alone measured a quarter of a millisecond on the firing path). Popups due
/// together go out side by side, each on a thread of its own, so up to `keptLimit` threads are
/// kept. Between calls they sleep in `g_async_queue_pop`, with no timer: an idle daemon stays
/// at rest.
///
/// A call that finds them all busy (overdue calls to a hung server still hold them) gets a
/// thread of its own, as every call did before: no call waits for another.
enum ServerCallThread {
    /// The most threads kept.
    static let keptLimit = 8

    /// Runs `work` on a kept thread that waits for work, on a new one otherwise.
    ///
    /// - Throws: `PlatformError` when no thread could be had.
    static func run(_ work: @escaping @Sendable () -> Void) throws(PlatformError) {
        guard let queue = Pool.shared.idleQueue() else { return try WorkerThread.start(work) }
        g_async_queue_push(queue, Unmanaged.passRetained(Work(work)).toOpaque())
    }

    /// The kept threads' queue, and how many there are.
    private final class Pool: @unchecked Sendable {
        static let shared = Pool()
        // GAsyncQueue is made for use across threads; Swift sees only a pointer.
        private let queue = g_async_queue_new()!
        // Only the main loop's thread starts calls: it alone reads and changes this.
        private var kept = 0

        /// The queue, when a kept thread waits in `pop` (a negative length) or another could
        /// be kept and started; nil when all are busy.
        func idleQueue() -> OpaquePointer? {
            if g_async_queue_length(queue) < 0 { return queue }
            guard kept < ServerCallThread.keptLimit else { return nil }
            nonisolated(unsafe) let queue = self.queue
            do {
                try WorkerThread.start {
                    // A held call's sleep ends at its popup's due time (`ServerCall`).
                    WallClock.wakeExactlyOnThisThread()
                    while true {
                        Unmanaged<Work>.fromOpaque(g_async_queue_pop(queue)).takeRetainedValue().run()
                    }
                }
            } catch {
                return nil
            }
            kept += 1
            return queue
        }
    }

    private final class Work {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
