import Foundation
import Glibc
import NotifySchedCore

/// The `DeliveryLog` on disk: `$XDG_STATE_HOME/notify-sched/delivered.json`
/// (`~/.local/state/notify-sched/delivered.json` by default), one JSON document.
///
/// Every change is a read-modify-write under an exclusive `flock` on `delivered.json.lock`, so a
/// `test --wait` and a `handle` running at once do not lose each other's writes; the new
/// document goes to a temporary file that is synced and renamed over the old one, then the
/// folder is synced.
public struct DeliveryLogFile: Sendable {
    /// The file's path.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The log of the user whose environment this is.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.init(path: UserDirectories(environment: environment).state + "/delivered.json")
    }

    /// The log as stored; empty when there is no file yet.
    ///
    /// - Throws: `PlatformError` when the file cannot be read or is not a delivery log.
    public func read() throws(PlatformError) -> DeliveryLog {
        try withLock { () throws(PlatformError) in try load() }
    }

    /// Lets `change` modify the stored log and writes the result back.
    ///
    /// - Throws: `PlatformError` when the file cannot be read or written.
    @discardableResult
    public func update<Result>(_ change: (inout DeliveryLog) -> Result) throws(PlatformError) -> Result {
        try withLock { () throws(PlatformError) in
            var log = try load()
            let result = change(&log)
            try store(log)
            return result
        }
    }

    private var folder: String { (path as NSString).deletingLastPathComponent }

    private func withLock<Result>(_ body: () throws(PlatformError) -> Result) throws(PlatformError) -> Result {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw PlatformError(.unreadable, "\(folder): cannot create the state folder: \(error.localizedDescription)")
        }
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw PlatformError(.unreadable, "\(path).lock: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw PlatformError(.unreadable, "\(path).lock: \(String(cString: strerror(errno)))")
            }
        }
        return try body()
    }

    private func load() throws(PlatformError) -> DeliveryLog {
        guard FileManager.default.fileExists(atPath: path) else { return DeliveryLog() }
        let bytes = try FeedFile.read(path)
        do {
            return try JSONDecoder().decode(StoredLog.self, from: Data(bytes)).log
        } catch {
            throw PlatformError(
                .unreadable, "\(path): not a notify-sched delivery log (\(error)); move it away to start a new one")
        }
    }

    private func store(_ log: DeliveryLog) throws(PlatformError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let temporary = path + ".new"
        do {
            let data = try encoder.encode(StoredLog(log))
            guard FileManager.default.createFile(atPath: temporary, contents: data) else {
                throw PlatformError(.unreadable, "\(temporary): cannot write")
            }
        } catch let error as PlatformError {
            throw error
        } catch {
            throw PlatformError(.unreadable, "\(path): cannot encode the delivery log: \(error)")
        }
        try sync(temporary, flags: O_RDONLY)
        guard rename(temporary, path) == 0 else {
            throw PlatformError(.unreadable, "\(path): \(String(cString: strerror(errno)))")
        }
        try sync(folder, flags: O_RDONLY | O_DIRECTORY)
    }

    private func sync(_ path: String, flags: Int32) throws(PlatformError) {
        let descriptor = open(path, flags | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            if descriptor >= 0 { close(descriptor) }
            throw PlatformError(.unreadable, "\(path): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
    }
}
