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
    /// Woken when a value is done or one is taken.
    private let monitor = ThreadMonitor()
    // Guarded by `monitor`.
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
        let width = min(count, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        // How far beyond the next value to take an item may start.
        lookAhead = width + 1
        threads = (0..<width).compactMap { _ in try? WorkerThread.spawn { [self] in work() } }
    }

    /// The next item's value, in order, once it is done; nil when every value was taken.
    public func take() -> Value? {
        monitor.lock()
        guard taken < count else {
            monitor.unlock()
            return nil
        }
        let index = taken
        if threads.isEmpty {
            monitor.unlock()
            taken += 1
            return body(index)
        }
        while values[index] == nil { monitor.wait() }
        let value = values[index].take()
        taken += 1
        monitor.wakeAll()
        monitor.unlock()
        if taken == count {
            for thread in threads { pthread_join(thread, nil) }
            threads = []
        }
        return value
    }

    /// A thread's loop: the next item not started, once it is within `lookAhead` of the next to take.
    private func work() {
        monitor.lock()
        while true {
            while started < count, started >= taken + lookAhead { monitor.wait() }
            guard started < count else { break }
            let index = started
            started += 1
            monitor.unlock()
            let value = body(index)
            monitor.lock()
            values[index] = value
            monitor.wakeAll()
        }
        monitor.unlock()
    }
}
