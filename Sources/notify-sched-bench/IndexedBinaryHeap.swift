/// Baseline (c): a binary min-heap that tracks each entry's position, so cancelling removes
/// the entry for real (the last entry takes its place and sifts up or down).
struct IndexedBinaryHeap {
    /// A heap node: a due time and the id whose position it updates when it moves.
    private struct Node {
        var due: Int64
        var id: UInt32
    }

    private var nodes: [Node] = []
    /// Each id's position in `nodes`, while scheduled.
    private var positions: [UInt32] = []
    /// Each id's generation: it moves on when the id is freed, so old handles go stale.
    private var generations: [UInt32] = []
    private var freeIDs: [UInt32] = []

    var count: Int { nodes.count }

    /// The earliest due time.
    func earliest() -> Int64? { nodes.first?.due }

    mutating func schedule(at due: Int64) -> BaselineHandle {
        let id: UInt32
        if let reused = freeIDs.popLast() {
            id = reused
        } else {
            id = UInt32(positions.count)
            positions.append(0)
            generations.append(0)
        }
        nodes.append(Node(due: due, id: id))
        positions[Int(id)] = UInt32(nodes.count - 1)
        siftUp(nodes.count - 1)
        return BaselineHandle(id: id, generation: generations[Int(id)])
    }

    mutating func cancel(_ handle: BaselineHandle) {
        guard generations[Int(handle.id)] == handle.generation else { return }
        generations[Int(handle.id)] &+= 1
        freeIDs.append(handle.id)
        let position = Int(positions[Int(handle.id)])
        let last = nodes.removeLast()
        guard position < nodes.count else { return }
        nodes[position] = last
        positions[Int(last.id)] = UInt32(position)
        if position > 0 && nodes[(position - 1) / 2].due > last.due {
            siftUp(position)
        } else {
            siftDown(position)
        }
    }

    private mutating func siftUp(_ start: Int) {
        var position = start
        let node = nodes[position]
        while position > 0 {
            let parent = (position - 1) / 2
            guard nodes[parent].due > node.due else { break }
            move(nodes[parent], to: position)
            position = parent
        }
        move(node, to: position)
    }

    private mutating func siftDown(_ start: Int) {
        var position = start
        let node = nodes[position]
        while true {
            var child = 2 * position + 1
            guard child < nodes.count else { break }
            if child + 1 < nodes.count && nodes[child + 1].due < nodes[child].due { child += 1 }
            guard nodes[child].due < node.due else { break }
            move(nodes[child], to: position)
            position = child
        }
        move(node, to: position)
    }

    private mutating func move(_ node: Node, to position: Int) {
        nodes[position] = node
        positions[Int(node.id)] = UInt32(position)
    }
}
