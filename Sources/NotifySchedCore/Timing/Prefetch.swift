/// Asks the processor to bring the cache line at `address` into its caches, ready to be
/// written: a hint, with no effect on what the program computes.
///
/// The wheel appends to the ends of a dozen or so slot lists at once, each in memory no cache
/// holds yet. The processor's own prefetchers follow such streams only while nothing else
/// crowds them out; the random accesses of cancels do, and then every new line of a list end
/// waits for memory, which measured a third of a schedule+cancel pair at 10^6 entries.
///
/// - Complexity: O(1): one instruction, `prefetcht0` on x86-64 and `prfm` on arm64.
@inlinable
@inline(__always)
func prefetchForWriting(_ address: UnsafeRawPointer) {
    llvmPrefetch(address, 1, 3, 1)
}

/// LLVM's prefetch intrinsic, which Swift has no spelling of: the arguments are the address,
/// 1 to write (0 to read), the locality from 0 (none) to 3 (keep in every cache level), and 1
/// for the data cache (0 for instructions). A prefetch never faults, whatever the address.
///
/// - Complexity: O(1)
@_silgen_name("llvm.prefetch.p0")
@usableFromInline
func llvmPrefetch(_ address: UnsafeRawPointer, _ forWriting: Int32, _ locality: Int32, _ dataCache: Int32)
