import CLibnotify
import NotifySchedCore
import NotifySchedPlatform

/// One blocking call to the notification server, made on another thread (`ServerCallThread`)
/// so that the main loop waits for it no longer than a limit, or not at all: told when the call
/// is done (`whenDone`), the loop takes the value then.
///
/// libnotify's calls are synchronous, with D-Bus's default timeout of 25 s and no way to set
/// another (reference/safety-facts.md); a hung server would hold the loop, and every timer and
/// control call with it, that long. Here the loop waits on a condition until the limit, or for
/// a moment once a SIGTERM came (`TerminationSignals`). When the server has not answered by
/// then, the call goes on in the background and its value reaches the loop later, from an idle
/// callback.
///
/// A call may be held until an instant (`notBefore`): its thread then waits for it, and sends
/// at it, so that a popup is ready before its due time and goes out at it.
///
/// The work uses libnotify objects that the loop's thread leaves alone until the value is back
/// (`DesktopNotifier` makes no other server call while one is overdue): that hand-over is what
/// the unchecked `Sendable` stands for.
final class ServerCall<Value>: @unchecked Sendable {
    private let work: () -> Value
    private let notBefore: Instant?
    private let whenDone: (() -> Void)?
    private let mutex = UnsafeMutablePointer<GMutex>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<GCond>.allocate(capacity: 1)
    // Guarded by `mutex`.
    private var result: Value?
    private var isFinished = false
    private var late: ((Value) -> Void)?

    private init(_ work: @escaping () -> Value, notBefore: Instant?, whenDone: (() -> Void)?) {
        self.work = work
        self.notBefore = notBefore
        self.whenDone = whenDone
        g_mutex_init(mutex)
        g_cond_init(condition)
    }

    deinit {
        g_mutex_clear(mutex)
        g_cond_clear(condition)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Runs `work`, not before `notBefore` when given, and waits at most `limit` from then for
    /// its value.
    ///
    /// - Returns: The value; nil when `limit` passed first, and `late` then gets the value on
    ///   the main loop once the call ends.
    static func run(
        within limit: TimeSpan, notBefore: Instant? = nil, _ work: @escaping () -> Value,
        late: @escaping (Value) -> Void
    ) -> Value? {
        start(notBefore: notBefore, work).wait(until: deadline(after: limit, from: notBefore), late: late)
    }

    /// Starts `work` on a thread of `ServerCallThread` and returns at once: several calls started
    /// one after the other go to the server side by side; `wait(until:late:)` takes each value.
    /// With `notBefore`, the thread waits until that instant before it starts the work.
    ///
    /// - Parameter whenDone: Called on the main loop once the work ended, so that the loop can
    ///   take the value without waiting for it.
    static func start(
        notBefore: Instant? = nil, _ work: @escaping () -> Value, whenDone: (() -> Void)? = nil
    ) -> ServerCall {
        let call = ServerCall(work, notBefore: notBefore, whenDone: whenDone)
        do {
            try ServerCallThread.run { call.perform() }
        } catch {
            // No thread to spare: the call is made here, however long it takes, rather than not at all.
            call.perform()
        }
        return call
    }

    /// The monotonic clock's reading `limit` after now, or after `notBefore` when that is
    /// later, for `wait(until:late:)`.
    static func deadline(after limit: TimeSpan, from notBefore: Instant? = nil) -> gint64 {
        let held = notBefore.map { max($0 - WallClock.now(), .zero) } ?? .zero
        return g_get_monotonic_time() + gint64((held + limit).microseconds)
    }

    private func perform() {
        if let notBefore { WallClock.sleep(until: notBefore) }
        let value = work()
        g_mutex_lock(mutex)
        result = value
        isFinished = true
        let late = self.late
        g_cond_signal(condition)
        g_mutex_unlock(mutex)
        guard late != nil || whenDone != nil else { return }
        let delivery = Unmanaged.passRetained(
            Callback { [whenDone] in
                late?(value)
                whenDone?()
            }
        ).toOpaque()
        g_idle_add_full(
            G_PRIORITY_DEFAULT,
            { context in
                if let context { Unmanaged<Callback>.fromOpaque(context).takeUnretainedValue().action() }
                return 0  // G_SOURCE_REMOVE: once
            }, delivery, { context in if let context { Unmanaged<Callback>.fromOpaque(context).release() } })
    }

    /// Whether the work ended: `wait(until:late:)` then returns its value at once.
    var isDone: Bool {
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        return isFinished
    }

    /// How long a wait goes on before it looks for a SIGTERM again, in microseconds.
    private static var slice: gint64 { 10_000 }
    /// How long the server has to answer once a SIGTERM came, in microseconds.
    static var stopGrace: gint64 { 300_000 }

    /// Waits until the monotonic clock reads `deadline` at most for the value.
    ///
    /// - Returns: The value; nil when `deadline` passed first (or a SIGTERM came, and then a
    ///   moment), and `late` then gets the value on the main loop once the call ends.
    func wait(until deadline: gint64, late: @escaping (Value) -> Void) -> Value? {
        g_mutex_lock(mutex)
        defer { g_mutex_unlock(mutex) }
        var deadline = deadline
        var stopping = false
        while !isFinished {
            // In slices, to see a SIGTERM that comes meanwhile: the server then has `stopGrace`
            // left to answer, so that a stop neither waits for a hung server nor shows again,
            // on the next start, a popup a live one was taking.
            let slice = min(deadline, g_get_monotonic_time() + Self.slice)
            if g_cond_wait_until(condition, mutex, slice) == 0, !isFinished {
                if slice == deadline {
                    self.late = late
                    return nil
                }
                if !stopping, TerminationSignals.isPending {
                    stopping = true
                    deadline = min(deadline, g_get_monotonic_time() + Self.stopGrace)
                }
            }
        }
        return result
    }
}
