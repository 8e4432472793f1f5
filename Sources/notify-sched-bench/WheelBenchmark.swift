import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedPlatform

/// `notify-sched-bench wheel`: schedule+cancel pairs at N pending entries for the timer wheel,
/// swift-collections' `Heap` with lazy cancellation and an index-tracking binary heap, all in
/// this one process; plus the wheel's bulk-build time and its storage per entry.
///
/// The structures run one after the other in each round, and the best round of each is
/// reported. Times are the thread's CPU time, so that other processes on a shared machine
/// do not count; on an idle machine it equals the elapsed time. A last row, not a queue,
/// shows a bare table of 16-byte generation-checked records: the price of one random record
/// access a pair, which every structure here pays in some form (the victim's own record).
struct WheelBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wheel", abstract: "Schedule+cancel pairs at N pending: the timer wheel against two heaps.")

    @Option(help: "Entries pending while the pairs run.")
    var entries = 1_000_000

    @Option(help: "Schedule+cancel pairs per measurement.")
    var pairs = 2_000_000

    @Option(
        help: ArgumentHelp(
            "What a pair cancels: the entry it just scheduled (timeout) or each pending one in turn (replace).",
            valueName: "pair"))
    var pair = WheelWorkload.Pair.replace

    @Option(help: "Rounds; the best time of each structure is reported.")
    var runs = 3

    @Flag(help: "End with one JSON object of the figures.")
    var json = false

    func validate() throws {
        guard entries > 0, pairs > 0, runs > 0 else {
            throw ValidationError("--entries, --pairs and --runs must be positive")
        }
    }

    func run() throws {
        // Room for the largest structure at its peak (the lazily cancelling heap's rebuild
        // holds two copies of 2N 16-byte entries), mapped before anything is timed.
        FreedMemory.keepMapped(max(64 << 20, entries * 256))
        let workload = WheelWorkload(entries: entries, pairs: pairs)
        var wheel = Double.infinity
        var heap = Double.infinity
        var indexedHeap = Double.infinity
        var handleTable = Double.infinity
        var build = Double.infinity
        var bytesPerEntry = 0.0
        var bytesPerEntryAfterPairs = 0.0
        for _ in 0..<runs {
            let built = buildWheel(workload)
            build = min(build, built.seconds)
            bytesPerEntry = Double(built.wheel.storageByteCount) / Double(entries)
            let afterPairs = try pairsOnWheel(workload, built)
            wheel = min(wheel, afterPairs.seconds)
            bytesPerEntryAfterPairs = Double(afterPairs.byteCount) / Double(entries)
            heap = min(heap, try pairs(on: LazyCancellingHeap.self, workload, name: "lazily cancelling heap"))
            indexedHeap = min(indexedHeap, try pairs(on: IndexedBinaryHeap.self, workload, name: "indexed heap"))
            handleTable = min(handleTable, try pairs(on: HandleTable.self, workload, name: "handle table"))
        }
        let nanosecondsPerPair = { (seconds: Double) in seconds * 1e9 / Double(pairs) }
        let rows = [
            ("timer wheel", wheel), ("Heap, lazy cancel", heap), ("indexed binary heap", indexedHeap),
            ("handle table, no order", handleTable),
        ].map { name, seconds in
            [
                name, String(format: "%.1f", nanosecondsPerPair(seconds)),
                String(format: "%.2f M", Double(pairs) / seconds / 1e6), String(format: "%.2f×", seconds / wheel),
            ]
        }
        print("schedule+cancel pairs (\(pair.rawValue)) at \(entries) pending, \(pairs) pairs (best of \(runs))")
        print(Table.render(header: ["structure", "ns/pair", "pairs/s", "wheel's speed-up"], rows: rows))
        print(
            String(
                format:
                    "wheel bulk build of %d entries: %.2f ms; wheel storage: %.2f bytes per entry, %.2f after the pairs",
                entries, build * 1000, bytesPerEntry, bytesPerEntryAfterPairs))
        if json {
            let figures: [String: Double] = [
                "entries": Double(entries), "wheel_ns_per_pair": nanosecondsPerPair(wheel),
                "heap_ns_per_pair": nanosecondsPerPair(heap),
                "indexed_heap_ns_per_pair": nanosecondsPerPair(indexedHeap),
                "wheel_bytes_per_entry": bytesPerEntry, "build_ms": build * 1000,
            ]
            let data = try JSONSerialization.data(withJSONObject: figures, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// A wheel bulk-built from the workload's pending entries, with their handles.
    private struct BuiltWheel: ~Copyable {
        var wheel: TimerWheel<UInt32>
        var handles: [TimerWheel<UInt32>.Handle]
        var seconds: Double
    }

    private func buildWheel(_ workload: WheelWorkload) -> BuiltWheel {
        let entries = workload.schedulingOrder.map { position in
            (due: Instant(microseconds: workload.initialDues[position]), element: UInt32(position))
        }
        let start = threadTime()
        var wheel = TimerWheel<UInt32>(now: workload.now)
        let built = wheel.schedule(contentsOf: entries)
        let elapsed = seconds(since: start)
        var handles = built
        for (handle, position) in zip(built, workload.schedulingOrder) { handles[position] = handle }
        return BuiltWheel(wheel: wheel, handles: handles, seconds: elapsed)
    }

    /// Times the workload's pairs on the built wheel; returns the time and the wheel's bytes
    /// after them (cancelled entries' filings wait in their slots until swept).
    private func pairsOnWheel(_ workload: WheelWorkload, _ built: consuming BuiltWheel) throws -> (
        seconds: Double, byteCount: Int
    ) {
        var wheel = built.wheel
        var handles = built.handles
        let start = threadTime()
        switch pair {
        case .timeout:
            for due in workload.dues { wheel.cancel(wheel.schedule(0, at: Instant(microseconds: due))) }
        case .replace:
            // The handles by pointer: no uniqueness check of the array per pair.
            handles.withUnsafeMutableBufferPointer { handles in
                var position = 0
                for due in workload.dues {
                    wheel.cancel(handles[position])
                    handles[position] = wheel.schedule(UInt32(position), at: Instant(microseconds: due))
                    position = position + 1 == handles.count ? 0 : position + 1
                }
            }
        }
        let elapsed = seconds(since: start)
        // The earliest entry must come out of the wheel exactly at its due time.
        let earliest = Instant(microseconds: workload.earliestAfterPairs(pair))
        let byteCount = wheel.storageByteCount
        guard wheel.count == entries, wheel.advance(to: earliest).first?.due == earliest else {
            throw ValidationError("the wheel lost track of its entries")
        }
        return (elapsed, byteCount)
    }

    /// Times the workload's pairs on a baseline queue, then checks it kept every entry.
    private func pairs<Queue: BaselineQueue>(on _: Queue.Type, _ workload: WheelWorkload, name: String) throws -> Double
    {
        var queue = Queue()
        var handles: [BaselineHandle?] = Array(repeating: nil, count: entries)
        for position in workload.schedulingOrder {
            handles[position] = queue.schedule(at: workload.initialDues[position])
        }
        var scheduled = handles.map { $0! }
        let start = threadTime()
        switch pair {
        case .timeout:
            for due in workload.dues { queue.cancel(queue.schedule(at: due)) }
        case .replace:
            scheduled.withUnsafeMutableBufferPointer { scheduled in
                var position = 0
                for due in workload.dues {
                    queue.cancel(scheduled[position])
                    scheduled[position] = queue.schedule(at: due)
                    position = position + 1 == scheduled.count ? 0 : position + 1
                }
            }
        }
        let elapsed = seconds(since: start)
        guard queue.count == entries, queue.earliest() == workload.earliestAfterPairs(pair) else {
            throw ValidationError("the \(name) lost track of its entries")
        }
        return elapsed
    }

    /// The CPU time this thread has used, in seconds.
    private func threadTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func seconds(since start: Double) -> Double {
        threadTime() - start
    }
}
