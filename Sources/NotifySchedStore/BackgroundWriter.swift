import Glibc
import NotifySchedPlatform

/// The thread a `StateStore`'s background writes run on, in the order they were asked, so that
/// the daemon's loop does not wait while SQLite syncs the file to disk.
///
/// Started with the first write and kept until the store goes; between writes it sleeps on a
/// condition, with no timer (DESIGN §8 keeps Dispatch, whose idle workers wake to end, out of
/// the daemon's steady state). `waitUntilDone()` is what makes a later read or write of the
/// store see every write asked before it.
final class BackgroundWriter: @unchecked Sendable {
    // All guarded by `mutex`.
    private var queue: [() -> Void] = []
    private var isWriting = false
    private var isStarted = false
    private var isClosing = false
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled when work arrives or the writer closes.
    private let arrived = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Signalled when the queue runs empty.
    private let drained = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(arrived, nil)
        pthread_cond_init(drained, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        pthread_cond_destroy(arrived)
        pthread_cond_destroy(drained)
        mutex.deallocate()
        arrived.deallocate()
        drained.deallocate()
    }

    /// Queues `work`; it runs after everything queued before it.
    ///
    /// - Returns: false, having queued nothing, when no thread could be started: the caller
    ///   then does the work itself.
    func add(_ work: @escaping () -> Void) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        if !isStarted {
            guard start() else { return false }
            isStarted = true
        }
        queue.append(work)
        pthread_cond_signal(arrived)
        return true
    }

    /// Waits until everything queued so far has run.
    func waitUntilDone() {
        pthread_mutex_lock(mutex)
        while isWriting || !queue.isEmpty { pthread_cond_wait(drained, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Runs what is queued, then ends the thread.
    func close() {
        pthread_mutex_lock(mutex)
        isClosing = true
        pthread_cond_signal(arrived)
        pthread_mutex_unlock(mutex)
        waitUntilDone()
    }

    private func start() -> Bool {
        (try? WorkerThread.start { self.run() }) != nil
    }

    private func run() {
        pthread_mutex_lock(mutex)
        while true {
            while queue.isEmpty && !isClosing { pthread_cond_wait(arrived, mutex) }
            guard !queue.isEmpty else { break }
            let work = queue.removeFirst()
            isWriting = true
            pthread_mutex_unlock(mutex)
            work()
            pthread_mutex_lock(mutex)
            isWriting = false
            if queue.isEmpty { pthread_cond_broadcast(drained) }
        }
        pthread_mutex_unlock(mutex)
    }
}
