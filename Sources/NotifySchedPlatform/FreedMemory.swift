import CLinux

/// Memory the process freed but still holds.
public enum FreedMemory {
    /// Returns freed heap pages to the system (`malloc_trim`): after parsing a big feed, the
    /// daemon keeps far less than the parse needed at its peak.
    public static func release() {
        malloc_trim(0)
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
