/// What the benchmark needs of a baseline priority queue: schedule a due time for a handle,
/// cancel by handle, and report how many are pending and the earliest due time.
protocol BaselineQueue {
    associatedtype Handle

    init()
    var count: Int { get }
    mutating func schedule(at due: Int64) -> Handle
    mutating func cancel(_ handle: Handle)
    /// The earliest pending due time (a lazy queue may drop dead entries to find it).
    mutating func earliest() -> Int64?
}

extension LazyCancellingHeap: BaselineQueue {}
extension IndexedBinaryHeap: BaselineQueue {}
