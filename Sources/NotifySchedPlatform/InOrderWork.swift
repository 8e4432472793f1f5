import Glibc

/// Work items run side by side on worker threads, whose values the caller takes in order, each
/// as soon as it is done: the daemon's start plans one feed while the next ones are parsed.
///
/// As many threads as the machine has processors, each taking the next item; an item starts
/// only while at most one value done waits beyond those being worked on, which bounds the
/// values (parsed feeds) in memory at once. The threads end, and are joined, once every value
/// is taken: the caller takes them all. When the system refuses every thread, `take()` does
/// the work itself.
public final class InOrderWork<Value: Sendable>: @unchecked Sendable {
    private let count: Int
    private let lookAhead: Int
    private let body: @Sendable (Int) -> Value
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Signalled when a value is done or one is taken.
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var values: [Value?]
    private var started = 0
    private var taken = 0
    // Only the caller's thread reads and changes these.
    private var threads: [pthread_t] = []

    /// Starts the work on `0..<count`.
    public init(count: Int, _ body: @escaping @Sendable (Int) -> Value) {
        self.count = count
        self.body = body
        values = Array(repeating: nil, count: count)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
        let width = min(count, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // How far beyond the next value to take an item may start.
        lookAhead = width + 1
        threads = (0..<width).compactMap { _ in try? WorkerThread.spawn { [self] in work() } }
    }

    deinit {
        pthread_mutex_destroy(mutex)
        pthread_cond_destroy(changed)
        mutex.deallocate()
        changed.deallocate()
    }

    /// The next item's value, in order, once it is done; nil when every value was taken.
    public func take() -> Value? {
        pthread_mutex_lock(mutex)
        guard taken < count else {
            pthread_mutex_unlock(mutex)
            return nil
        }
        let index = taken
        if threads.isEmpty {
            pthread_mutex_unlock(mutex)
            taken += 1
            return body(index)
        }
        while values[index] == nil { pthread_cond_wait(changed, mutex) }
        let value = values[index].take()
        taken += 1
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
        if taken == count {
            for thread in threads { pthread_join(thread, nil) }
            threads = []
        }
        return value
    }

    /// A thread's loop: the next item not started, once it is within `lookAhead` of the next to take.
    private func work() {
        pthread_mutex_lock(mutex)
        while true {
            while started < count, started >= taken + lookAhead { pthread_cond_wait(changed, mutex) }
            guard started < count else { break }
            let index = started
            started += 1
            pthread_mutex_unlock(mutex)
            let value = body(index)
            pthread_mutex_lock(mutex)
            values[index] = value
            pthread_cond_broadcast(changed)
        }
        pthread_mutex_unlock(mutex)
    }
}
