import Glibc
import NotifySchedPlatform
import Synchronization
import Testing

@Suite struct InOrderWorkTests {
    /// Items finish out of order (the later ones sooner), yet their values come in order, each
    /// once; and none starts more than one beyond those the threads can work on at once.
    @Test func valuesComeInOrderAndFewWaitBeyondThoseBeingWorkedOn() {
        let count = 40
        let width = min(count, max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let taken = Atomic<Int>(0)
        let furthestAhead = Atomic<Int>(0)
        let work = InOrderWork(count: count) { index in
            furthestAhead.max(index - taken.load(ordering: .sequentiallyConsistent), ordering: .relaxed)
            var sum = 0
            for step in 0..<(count - index) * 20_000 { sum &+= step ^ index }
            return (index, sum)
        }
        var indices: [Int] = []
        while let (index, _) = work.take() {
            indices.append(index)
            taken.add(1, ordering: .sequentiallyConsistent)
        }
        #expect(indices == Array(0..<count))
        #expect(work.take() == nil, "every value was taken")
        #expect(furthestAhead.load(ordering: .relaxed) <= width + 1)
    }
}
