import CLibnotify
import NotifySchedCore

/// Watches files through GIO's file monitor (inotify on Linux), on the main loop: no polling,
/// and no wake-up while nothing changes.
public final class FileWatcher {
    private var monitors: [UnsafeMutablePointer<GFileMonitor>] = []

    public init() {}

    deinit {
        for monitor in monitors {
            g_file_monitor_cancel(monitor)
            g_object_unref(UnsafeMutableRawPointer(monitor))
        }
    }

    /// Calls `onChange` from the main loop after the file at `path` changed, was replaced (an
    /// editor saving through a rename), created or removed; for a folder, after a file in it did. A burst of events (a write in
    /// several pieces, then its close) is reported once, `settle` after the last.
    ///
    /// - Returns: false when the file's folder does not exist (GIO would then look for it every
    ///   few seconds, waking the process) or GIO cannot watch it.
    @discardableResult
    public func watch(_ path: String, settle: TimeSpan = .milliseconds(100), _ onChange: @escaping () -> Void) -> Bool {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let folder = g_file_get_parent(file) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(folder)) }
        guard g_file_query_file_type(folder, G_FILE_QUERY_INFO_NONE, nil) == G_FILE_TYPE_DIRECTORY else { return false }
        // A folder (of calendar items) is watched for changes to what it holds.
        let isFolder = g_file_query_file_type(file, G_FILE_QUERY_INFO_NONE, nil) == G_FILE_TYPE_DIRECTORY
        guard
            let monitor = isFolder
                ? g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, nil)
                : g_file_monitor_file(file, G_FILE_MONITOR_NONE, nil, nil)
        else { return false }
        monitors.append(monitor)
        let context = Unmanaged.passRetained(Watch(settle: settle, onChange)).toOpaque()
        _ = cgio_connect_file_changed(
            monitor,
            { _, _, _, event, context in
                guard let context, event != G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED else { return }
                Unmanaged<Watch>.fromOpaque(context).takeUnretainedValue().changed()
            }, context, { context, _ in if let context { Unmanaged<Watch>.fromOpaque(context).release() } })
        return true
    }

    /// One watched file: what to call, once its events settle.
    private final class Watch {
        let settle: TimeSpan
        let onChange: () -> Void
        /// Counts the events: only the settle timer of the last one calls `onChange`.
        var events = 0

        init(settle: TimeSpan, _ onChange: @escaping () -> Void) {
            self.settle = settle
            self.onChange = onChange
        }

        func changed() {
            events += 1
            let event = events
            MainLoop.once(after: settle) { [weak self] in
                guard let self, events == event else { return }
                onChange()
            }
        }
    }
}
