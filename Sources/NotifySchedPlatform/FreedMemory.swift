import CLinux

/// Memory the process freed but still holds.
public enum FreedMemory {
    /// Returns freed heap pages to the system (`malloc_trim`): after parsing a big feed, the
    /// daemon keeps far less than the parse needed at its peak.
    public static func release() {
        malloc_trim(0)
    }

    /// Has the heap give memory back to the system as it is freed, for a process that frees much
    /// of what it allocated (a daemon after reading a feed).
    ///
    /// glibc keeps small freed blocks apart (fast bins) until the heap is consolidated, which
    /// merges them into the free end of the heap; `release()` then unmaps that end only in the
    /// main thread's heap, and the heap of the worker thread that read a feed kept all it freed:
    /// 28 of 30 MB after a start on 5 × 10^4 entries. Without fast bins a free merges at once,
    /// and a free end over 1 MiB is unmapped then. The limit is fixed, where glibc raises it to
    /// twice the largest block mapped on its own and freed (the feed's bytes, up to 32 MB).
    public static func giveBackAsFreed() {
        mallopt(M_MXFAST, 0)
        mallopt(M_TRIM_THRESHOLD, 1 << 20)
    }

    /// Maps `byteCount` bytes of heap ahead of need and keeps them: every allocation then
    /// comes from the heap (none gets a mapping of its own), first from pages already mapped,
    /// and nothing freed goes back to the system.
    ///
    /// For benchmarks only: a page's first touch costs a fault (about 2 µs on a virtual
    /// machine, so that touching 30 MB costs as much as a bulk build of 10^6 wheel entries
    /// spends on its own work). Faults are the kernel's cost, the same for every structure
    /// per byte; with them out of the way, a benchmark measures the code.
    ///
    /// - Complexity: O(`byteCount`)
    public static func keepMapped(_ byteCount: Int) {
        mallopt(M_MMAP_MAX, 0)
        mallopt(M_TRIM_THRESHOLD, .max)
        let blockSize = 16 << 20
        var blocks: [UnsafeMutableRawPointer] = []
        for _ in 0..<(byteCount + blockSize - 1) / blockSize {
            let block = UnsafeMutableRawPointer.allocate(byteCount: blockSize, alignment: 16)
            block.initializeMemory(as: UInt8.self, repeating: 0, count: blockSize)
            blocks.append(block)
        }
        for block in blocks { block.deallocate() }
    }
}
