import Foundation
import NotifySchedCore
import Synchronization
import Testing

@Suite struct FeedStackDepthTests {
    /// Runs `body` on a new thread with `stackSize` bytes of stack and waits for it to end.
    static func onThread(stackSize: Int, _ body: @escaping @Sendable () -> Void) {
        let finished = NSCondition()
        let isFinished = Mutex(false)
        let thread = Thread {
            body()
            finished.lock()
            isFinished.withLock { $0 = true }
            finished.signal()
            finished.unlock()
        }
        thread.stackSize = stackSize
        thread.start()
        finished.lock()
        while !isFinished.withLock({ $0 }) { finished.wait() }
        finished.unlock()
    }

    /// Linux gives threads 8 MiB of stack unless told otherwise; the ceiling must fit in that
    /// even in a debug build, whose frames are several times larger than optimized ones.
    @Test func everyReaderReachesTheDepthCeilingOnADefaultSizedThreadStack() {
        let depth = FeedReadLimits.depthCeiling
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let xml =
            "<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
            + "</plist>"
        var builder = BinaryPlistBuilder()
        builder.referenceSize = 2
        for level in 0..<(depth - 1) { builder.add(builder.array([level + 1])) }
        builder.add(builder.array([]))
        let binary = builder.build()
        let limits = FeedReadLimits(maxDepth: .max)
        let errors = Mutex<[CoreError?]>([])
        Self.onThread(stackSize: 8 << 20) {
            let results = [json, xml].map { readError($0, limits: limits) } + [readError(binary, limits: limits)]
            errors.withLock { $0 = results }
        }
        #expect(errors.withLock { $0 } == [nil, nil, nil], "documents at the depth ceiling read")
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        #expect(readError(tooDeep, limits: limits)?.code == .limitExceeded)
    }
}
