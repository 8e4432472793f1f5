/// A reference row, not a queue: a table of generation-checked handles with a free list,
/// keeping each entry's due time in a 16-byte record and nothing in order.
///
/// A pair on it costs what checking a random entry's handle costs when each entry keeps one
/// record: a random access to the victim's record. The wheel checks handles against a column
/// of 2-byte generations, eight times denser, so it may beat this row.
struct HandleTable {
    /// An entry's due time, its generation (odd while scheduled) and, while free, the next
    /// free entry.
    struct Record {
        var due: Int64
        var generation: UInt32
        var next: UInt32
    }

    private var records: [Record] = []
    private var firstFree = UInt32.max
    private(set) var count = 0

    /// The earliest due time, found by looking at every record.
    func earliest() -> Int64? {
        records.lazy.filter { $0.generation & 1 == 1 }.map(\.due).min()
    }

    mutating func schedule(at due: Int64) -> BaselineHandle {
        count += 1
        guard firstFree != .max else {
            records.append(Record(due: due, generation: 1, next: 0))
            return BaselineHandle(id: UInt32(records.count - 1), generation: 1)
        }
        let id = firstFree
        return records.withUnsafeMutableBufferPointer { records in
            firstFree = records[Int(id)].next
            records[Int(id)].generation &+= 1
            records[Int(id)].due = due
            return BaselineHandle(id: id, generation: records[Int(id)].generation)
        }
    }

    mutating func cancel(_ handle: BaselineHandle) {
        let next = firstFree
        let cancelled = records.withUnsafeMutableBufferPointer { records in
            guard records[Int(handle.id)].generation == handle.generation else { return false }
            records[Int(handle.id)].generation &+= 1
            records[Int(handle.id)].next = next
            return true
        }
        if cancelled {
            firstFree = handle.id
            count -= 1
        }
    }
}

extension HandleTable: BaselineQueue {}
