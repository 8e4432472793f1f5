import NotifySchedCore

/// Runs the pieces of a job on as many threads as the machine has processors (`InOrderWork`).
public struct WorkerThreads: ParallelWork {
    public init() {}

    public func values<Value: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Value) -> [Value] {
        let work = InOrderWork(count: count, body)
        var values: [Value] = []
        values.reserveCapacity(count)
        while let value = work.take() { values.append(value) }
        return values
    }
}
