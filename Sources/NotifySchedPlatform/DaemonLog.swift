import Glibc
import NotifySchedCore

/// Where the daemon's log lines go: standard error, each line `notify-sched: …`.
///
/// When standard error is the journal's stream (systemd sets `JOURNAL_STREAM` to its device and
/// inode), each line starts with its priority as `<N>`, which journald takes off and keeps as
/// the line's priority: `journalctl --user -u notify-sched -p warning` then shows only what
/// went wrong. Anywhere else (a terminal, a file, a test) the lines carry no such prefix.
public struct DaemonLog: Sendable {
    private let write: @Sendable (String) -> Void
    private let marksPriority: Bool

    /// - Parameters:
    ///   - environment: The process's environment, for `JOURNAL_STREAM`.
    ///   - write: Writes one line to standard error.
    public init(environment: [String: String], write: @escaping @Sendable (String) -> Void) {
        self.write = write
        marksPriority = environment["JOURNAL_STREAM"].map(Self.isStandardError) ?? false
    }

    /// Logs `message`, a line for each of its lines.
    public func callAsFunction(_ priority: LogPriority, _ message: String) {
        let prefix = marksPriority ? "<\(priority.rawValue)>notify-sched: " : "notify-sched: "
        for line in message.split(separator: "\n", omittingEmptySubsequences: false) {
            write(prefix + line)
        }
    }

    /// Logs `message` at `LogPriority.error`.
    public func error(_ message: String) { self(.error, message) }
    /// Logs `message` at `LogPriority.warning`.
    public func warning(_ message: String) { self(.warning, message) }
    /// Logs `message` at `LogPriority.notice`.
    public func notice(_ message: String) { self(.notice, message) }
    /// Logs `message` at `LogPriority.info`.
    public func info(_ message: String) { self(.info, message) }

    /// Whether `stream` (`DEVICE:INODE`, in decimal) names the file standard error is open on:
    /// a child that inherited the variable but not the stream must not mark its lines.
    static func isStandardError(_ stream: String) -> Bool {
        let parts = stream.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }
}
