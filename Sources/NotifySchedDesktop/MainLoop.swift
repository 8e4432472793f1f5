import CLibnotify
import NotifySchedCore

/// The GLib main loop, on the default main context: every callback of notify-sched's process
/// comes from it (libnotify's answers, GDBus calls and signals, file and descriptor watches,
/// timers), on the thread that runs it. It is not `Sendable`.
///
/// libnotify reports button presses and closes only while the loop runs, so a caller that
/// waits for an answer calls `run()` and `stop()`s from a callback.
public final class MainLoop {
    private let loop: OpaquePointer
    /// The sources this loop's owner added (descriptor and signal watches, timers), which go
    /// with it: a daemon started again in the same process is not called by its predecessor's.
    private var sources: Set<guint> = []
    /// What runs when `run()` returns, in the order it was added.
    private var onReturn: [() -> Void] = []

    public init() {
        loop = g_main_loop_new(nil, 0)
    }

    deinit {
        for source in sources { g_source_remove(source) }
        g_main_loop_unref(loop)
    }

    /// Runs the loop until `stop()` is called, then what waits for its return (`whenReturning(_:)`).
    public func run() {
        g_main_loop_run(loop)
        for action in onReturn { action() }
    }

    /// Makes `run()` return once the current callback is done.
    public func stop() {
        g_main_loop_quit(loop)
    }

    /// Has `action` run each time `run()` returns: for work left to the loop's idle time that
    /// must not be lost when it stops (popups to close).
    func whenReturning(_ action: @escaping () -> Void) {
        onReturn.append(action)
    }

    /// Calls `action` from the loop after `span` (at millisecond precision), unless the loop is
    /// gone by then.
    public func after(_ span: TimeSpan, _ action: @escaping () -> Void) {
        var source: guint = 0
        source = Self.once(after: span) { [weak self] in
            self?.sources.remove(source)
            action()
        }
        sources.insert(source)
    }

    /// Calls `handler` from the loop each time `fileDescriptor` becomes readable, for as long as
    /// the loop lives.
    public func watchReadable(_ fileDescriptor: Int32, _ handler: @escaping () -> Void) {
        watch(fileDescriptor, priority: G_PRIORITY_DEFAULT, handler)
    }

    /// Calls `handler` from the loop, before anything else that is ready then, each time
    /// `terminations` (`TerminationSignals.catchSignals()`) becomes readable.
    public func onTermination(_ terminations: Int32, _ handler: @escaping () -> Void) {
        watch(terminations, priority: G_PRIORITY_HIGH, handler)
    }

    private func watch(_ fileDescriptor: Int32, priority: gint, _ handler: @escaping () -> Void) {
        let context = Unmanaged.passRetained(Callback(handler)).toOpaque()
        sources.insert(
            g_unix_fd_add_full(
                priority, fileDescriptor, G_IO_IN,
                { _, _, context in
                    if let context { Unmanaged<Callback>.fromOpaque(context).takeUnretainedValue().action() }
                    return 1  // G_SOURCE_CONTINUE
                }, context, Self.releaseCallback))
    }

    private static let releaseCallback: GDestroyNotify = { context in
        if let context { Unmanaged<Callback>.fromOpaque(context).release() }
    }

    /// Calls `action` once from the default main context, after `span`.
    ///
    /// - Returns: The timer's source.
    @discardableResult
    static func once(after span: TimeSpan, _ action: @escaping () -> Void) -> guint {
        once(afterMilliseconds: guint(clamping: max(0, span.microseconds / 1000)), action)
    }

    /// Calls `action` once from the default main context when it is idle.
    ///
    /// - Returns: The idle source.
    @discardableResult
    static func whenIdle(_ action: @escaping () -> Void) -> guint {
        once(afterMilliseconds: nil, action)
    }

    /// Calls `action` once from the default main context: after `milliseconds`, or when it is idle.
    private static func once(afterMilliseconds milliseconds: guint?, _ action: @escaping () -> Void) -> guint {
        let context = Unmanaged.passRetained(Callback(action)).toOpaque()
        let run: GSourceFunc = { context in
            if let context { Unmanaged<Callback>.fromOpaque(context).takeUnretainedValue().action() }
            return 0  // G_SOURCE_REMOVE: once
        }
        if let milliseconds {
            return g_timeout_add_full(G_PRIORITY_DEFAULT, milliseconds, run, context, releaseCallback)
        }
        return g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, run, context, releaseCallback)
    }
}

/// A closure as GLib callback data.
final class Callback {
    let action: () -> Void
    init(_ action: @escaping () -> Void) { self.action = action }
}
