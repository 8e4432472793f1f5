/// Runs independent pieces of one job, possibly side by side: the core says which pieces are
/// independent, the platform on which threads they run (`WorkerThreads`, in Platform).
public protocol ParallelWork: Sendable {
    /// `[body(0), …, body(count - 1)]`, each value computed possibly on another thread.
    func values<Value: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Value) -> [Value]
}

/// Runs the pieces one after another on the caller's thread.
public struct SerialWork: ParallelWork {
    public init() {}

    public func values<Value: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> Value) -> [Value] {
        (0..<count).map(body)
    }
}
