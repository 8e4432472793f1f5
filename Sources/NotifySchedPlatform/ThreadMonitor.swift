import Glibc

/// A mutex and one condition on it: state that threads share, changed with the lock held and
/// waited for by checking it again after each wake-up (`InOrderWork`, the state store's
/// background writer).
public final class ThreadMonitor: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        pthread_cond_destroy(condition)
        mutex.deallocate()
        condition.deallocate()
    }

    public func lock() {
        pthread_mutex_lock(mutex)
    }

    public func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// With the lock held: lets it go, sleeps until `wakeAll()`, and takes it again.
    public func wait() {
        pthread_cond_wait(condition, mutex)
    }

    /// With the lock held: wakes every thread in `wait()`, each to check again what it waits for.
    public func wakeAll() {
        pthread_cond_broadcast(condition)
    }
}
