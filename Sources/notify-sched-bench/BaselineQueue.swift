/// What the benchmark needs of a baseline priority queue: schedule a due time for a handle,
/// cancel by handle, and report how many are pending and the earliest due time.
protocol BaselineQueue {
    init()
    var count: Int { get }
    mutating func schedule(at due: Int64) -> BaselineHandle
    mutating func cancel(_ handle: BaselineHandle)
    /// The earliest pending due time (a lazy queue may drop dead entries to find it).
    mutating func earliest() -> Int64?
}

/// Names an entry scheduled on a baseline: its id, and the id's generation when it was
/// scheduled, which moves on when the id is freed so that old handles go stale.
struct BaselineHandle {
    var id: UInt32
    var generation: UInt32
}

extension LazyCancellingHeap: BaselineQueue {}
extension IndexedBinaryHeap: BaselineQueue {}
