import NotifySchedPlatform

/// The thread a `StateStore`'s background writes run on, in the order they were asked, so that
/// the daemon's loop does not wait while SQLite syncs the file to disk.
///
/// Started with the first write and kept until the store goes; between writes it sleeps on a
/// condition, with no timer (DESIGN §8 keeps Dispatch, whose idle workers wake to end, out of
/// the daemon's steady state). `waitUntilDone()` is what makes a later read or write of the
/// store see every write asked before it.
final class BackgroundWriter: @unchecked Sendable {
    private let monitor = ThreadMonitor()
    // All guarded by `monitor`.
    private var queue: [() -> Void] = []
    private var isWriting = false
    private var isStarted = false
    private var isClosing = false

    /// Queues `work`; it runs after everything queued before it.
    ///
    /// - Returns: false, having queued nothing, when no thread could be started: the caller
    ///   then does the work itself.
    func add(_ work: @escaping () -> Void) -> Bool {
        monitor.lock()
        defer { monitor.unlock() }
        if !isStarted {
            guard start() else { return false }
            isStarted = true
        }
        queue.append(work)
        monitor.wakeAll()
        return true
    }

    /// Waits until everything queued so far has run.
    func waitUntilDone() {
        monitor.lock()
        while isWriting || !queue.isEmpty { monitor.wait() }
        monitor.unlock()
    }

    /// Runs what is queued, then ends the thread.
    func close() {
        monitor.lock()
        isClosing = true
        monitor.wakeAll()
        monitor.unlock()
        waitUntilDone()
    }

    private func start() -> Bool {
        (try? WorkerThread.start { self.run() }) != nil
    }

    private func run() {
        monitor.lock()
        while true {
            while queue.isEmpty && !isClosing { monitor.wait() }
            guard !queue.isEmpty else { break }
            let work = queue.removeFirst()
            isWriting = true
            monitor.unlock()
            work()
            monitor.lock()
            isWriting = false
            if queue.isEmpty { monitor.wakeAll() }
        }
        monitor.unlock()
    }
}
