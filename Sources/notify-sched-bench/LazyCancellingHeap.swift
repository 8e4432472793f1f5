import HeapModule

/// Baseline (b): swift-collections' `Heap` with lazy cancellation.
///
/// Cancelling marks the entry dead (its id's generation moves on) instead of finding it in
/// the heap; dead entries are dropped when they surface at the top, and the heap is rebuilt
/// from its live entries when more than half of it is dead.
struct LazyCancellingHeap {
    /// A heap entry: its due time and the id generation it was scheduled under.
    struct Entry: Comparable {
        var due: Int64
        var id: UInt32
        var generation: UInt32

        static func < (lhs: Entry, rhs: Entry) -> Bool { lhs.due < rhs.due }
    }

    private var heap = Heap<Entry>()
    /// Each id's current generation: a heap entry of an older one is dead.
    private var generations: [UInt32] = []
    private var freeIDs: [UInt32] = []
    private var deadCount = 0

    /// The live entries.
    var count: Int { heap.count - deadCount }

    mutating func schedule(at due: Int64) -> BaselineHandle {
        let id: UInt32
        if let reused = freeIDs.popLast() {
            id = reused
        } else {
            id = UInt32(generations.count)
            generations.append(0)
        }
        heap.insert(Entry(due: due, id: id, generation: generations[Int(id)]))
        return BaselineHandle(id: id, generation: generations[Int(id)])
    }

    mutating func cancel(_ handle: BaselineHandle) {
        guard generations[Int(handle.id)] == handle.generation else { return }
        generations[Int(handle.id)] &+= 1
        freeIDs.append(handle.id)
        deadCount += 1
        if deadCount > heap.count / 2 {
            heap = Heap(heap.unordered.filter(isLive))
            deadCount = 0
        }
    }

    /// The earliest live due time, after dropping the dead entries above it.
    mutating func earliest() -> Int64? {
        while let top = heap.min, !isLive(top) {
            _ = heap.removeMin()
            deadCount -= 1
        }
        return heap.min?.due
    }

    private func isLive(_ entry: Entry) -> Bool {
        generations[Int(entry.id)] == entry.generation
    }
}
