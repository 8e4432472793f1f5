import NotifySchedCore
import NotifySchedDaemon

/// The files the driver watches, whose edits a test reports (`changed(_:)`).
final class RecordedWatches: FileWatching {
    private var handlers: [String: [() -> Void]] = [:]

    @discardableResult
    func watch(_ path: String, settle: TimeSpan, _ onChange: @escaping () -> Void) -> Bool {
        handlers[path, default: []].append(onChange)
        return true
    }

    /// Whether the driver watches `path`.
    func watches(_ path: String) -> Bool {
        handlers[path] != nil
    }

    /// Reports an edit of `path` to whoever watches it.
    func changed(_ path: String) {
        for handler in handlers[path] ?? [] { handler() }
    }

    /// Forgets every watch, for a daemon that is gone.
    func reset() {
        handlers = [:]
    }
}
