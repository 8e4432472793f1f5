import Dispatch
import Foundation
import Testing

/// Runs each test it marks on threads outside Swift concurrency's pool.
///
/// Swift Testing runs test functions on that pool, which on Linux has one thread per core, and
/// needs it between tests too, to start the next one of a serialized suite. A test that blocks
/// (it waits for a daemon, a D-Bus reply, a popup, a portal) holds a pool thread the whole
/// time, and a long computation does the same: on two cores, two of either stall every other
/// test. Marked `.ownThread`, a test that mostly waits runs on a thread of its own; marked
/// `.computeThreads`, a test that computes runs on a few threads the computing tests share,
/// one per core. The pool is left to start and finish tests.
public struct ExecutorTrait: TestTrait, SuiteTrait, TestScoping {
    private let executor: @Sendable () -> any TaskExecutor

    /// A suite's mark holds for every test in it.
    public var isRecursive: Bool { true }

    /// The scope of each test case, not of the suite around them.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs `function` with the trait's executor as its preferred executor.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(executor()) { try await function() }
    }

    fileprivate init(_ executor: @escaping @Sendable () -> any TaskExecutor) {
        self.executor = executor
    }
}

extension Trait where Self == ExecutorTrait {
    /// Each test on a thread of its own: for tests that mostly wait for other processes.
    public static var ownThread: Self { ExecutorTrait { QueueExecutor() } }

    /// The tests on threads the computing tests share, one per core: for long computations.
    public static var computeThreads: Self { ExecutorTrait { ComputeThreads.shared } }
}

/// A task executor that runs its jobs, one at a time, on a serial dispatch queue of its own.
private final class QueueExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "org.notify_sched.tests.own-thread")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

/// A task executor with one thread per core, which run the jobs in the order they came.
///
/// `@unchecked Sendable`: `jobs` is read and changed only while `condition` is locked.
private final class ComputeThreads: TaskExecutor, @unchecked Sendable {
    static let shared = ComputeThreads(count: ProcessInfo.processInfo.activeProcessorCount)

    /// Guards `jobs`; the threads wait on it for the next.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init(count: Int) {
        for index in 0..<max(1, count) {
            // The shared instance lives as long as the process, and so do its threads.
            let thread = Thread { self.work() }
            thread.name = "compute-\(index)"
            thread.start()
        }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func work() {
        let executor = asUnownedTaskExecutor()
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: executor)
        }
    }
}
