/// Runs independent pieces of one job, possibly side by side: the core says which pieces are
/// independent, the platform on which threads they run (`WorkerThreads`, in Platform).
public protocol ParallelWork: Sendable {
    /// The values of the items `produce` hands over, in the order it hands them: `produce` runs
    /// on the caller's thread, and each item becomes its value through `body`, possibly on
    /// another thread while `produce` goes on.
    func values<Item: Sendable, Value: Sendable>(
        of produce: (_ handOver: (Item) -> Void) -> Void, _ body: @escaping @Sendable (Item) -> Value
    ) -> [Value]
}

/// Runs the pieces one after another on the caller's thread.
public struct SerialWork: ParallelWork {
    public init() {}

    public func values<Item: Sendable, Value: Sendable>(
        of produce: (_ handOver: (Item) -> Void) -> Void, _ body: @escaping @Sendable (Item) -> Value
    ) -> [Value] {
        var values: [Value] = []
        produce { values.append(body($0)) }
        return values
    }
}
