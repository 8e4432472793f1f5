import CLinux
import Glibc
import NotifySchedCore
import Synchronization

/// Hands values from worker threads to the thread that runs the main loop: `post` from any
/// thread, and the loop, watching `fileDescriptor` for readability, `take`s them in order.
///
/// An `eventfd` counts the posts, so the loop wakes once per batch and never polls; the values
/// wait behind a mutex. The daemon runs blocking work (a feed download, a big parse) on a
/// `WorkerThread` and posts the result here, so everything it acts on still happens on its loop.
public final class LoopMailbox<Value: Sendable>: Sendable {
    /// The descriptor the main loop watches; readable while values wait.
    public let fileDescriptor: Int32
    private let waiting = Mutex<[Value]>([])

    /// - Throws: `PlatformError` when the kernel refuses an eventfd (out of descriptors).
    public init() throws(PlatformError) {
        let descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else {
            throw PlatformError(.unwritable, "cannot create an eventfd: \(String(cString: strerror(errno)))")
        }
        fileDescriptor = descriptor
    }

    deinit {
        close(fileDescriptor)
    }

    /// Adds `value` and wakes the loop. Callable from any thread.
    public func post(_ value: Value) {
        waiting.withLock { $0.append(value) }
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(fileDescriptor, $0.baseAddress, 8) }
    }

    /// Every value posted so far, oldest first, and the descriptor made unreadable again.
    ///
    /// - Complexity: O(1) besides handing the array over.
    public func take() -> [Value] {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { read(fileDescriptor, $0.baseAddress, 8) }
        return waiting.withLock { values in
            defer { values = [] }
            return values
        }
    }
}
