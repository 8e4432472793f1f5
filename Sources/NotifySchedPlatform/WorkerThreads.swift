import Glibc
import NotifySchedCore

/// Turns items into values on worker threads while the caller's thread goes on producing
/// items, then on the caller's thread too: as many threads at work as the machine has
/// processors, so that none of them waits for a processor.
public struct WorkerThreads: ParallelWork {
    public init() {}

    public func values<Item: Sendable, Value: Sendable>(
        of produce: (_ handOver: (Item) -> Void) -> Void, _ body: @escaping @Sendable (Item) -> Value
    ) -> [Value] {
        let pipeline = Pipeline(body)
        produce(pipeline.add)
        return pipeline.finish()
    }
}

/// Items handed over one by one, each taken by the next free thread: one fewer worker thread
/// than processors while the producer runs, then the producer's thread as well. The workers
/// start with the first item and end once the producer finished and every item is taken.
private final class Pipeline<Item: Sendable, Value: Sendable>: @unchecked Sendable {
    private let body: @Sendable (Item) -> Value
    /// Woken when an item is added or the producer finished.
    private let monitor = ThreadMonitor()
    // Guarded by `monitor`.
    private var items: [Item?] = []
    private var values: [Value?] = []
    private var taken = 0
    private var finished = false
    // Only the producer's thread reads and changes these.
    private var threads: [pthread_t] = []
    private var started = false

    init(_ body: @escaping @Sendable (Item) -> Value) {
        self.body = body
    }

    func add(_ item: Item) {
        monitor.lock()
        items.append(item)
        values.append(nil)
        monitor.wakeAll()
        monitor.unlock()
        if !started {
            started = true
            let width = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)) - 1)
            threads = (0..<width).compactMap { _ in try? WorkerThread.spawn { [self] in work() } }
        }
    }

    /// Every value, in the items' order, once each is done; the caller's thread takes items
    /// too (all of them, when the system refused every thread).
    func finish() -> [Value] {
        monitor.lock()
        finished = true
        monitor.wakeAll()
        monitor.unlock()
        work()
        for thread in threads { pthread_join(thread, nil) }
        return values.map { $0! }
    }

    /// A thread's loop: the next item not taken, until the producer finished and none is left.
    private func work() {
        monitor.lock()
        while true {
            while taken == items.count, !finished { monitor.wait() }
            guard taken < items.count else { break }
            let index = taken
            taken += 1
            let item = items[index].take()!
            monitor.unlock()
            let value = body(item)
            monitor.lock()
            values[index] = value
        }
        monitor.unlock()
    }
}
