import Foundation
import Glibc
import NotifySchedCore
import NotifySchedPlatform

/// The highest feed `version` accepted under each public key, for rollback protection
/// (DESIGN §6): `$XDG_STATE_HOME/notify-sched/feed-versions.json`, `{"<key base64>": version}`.
///
/// A small JSON file until the daemon's SQLite state (DESIGN §7) takes it over. It is written
/// atomically and durably, under an exclusive `flock` on `feed-versions.lock` so that the daemon
/// and a CLI run cannot lose each other's update. A version is recorded only after the feed's
/// signature verified and it parsed; a damaged file is an error, never a silent reset (that
/// would reopen the door to rollbacks).
///
/// One sequence per key: a portal that signs several feeds with one key numbers them in one
/// sequence (or uses one key per feed).
public struct AcceptedVersionStore: Sendable {
    /// The JSON file.
    public var path: String

    public init(directories: UserDirectories) {
        self.path = directories.state + "/feed-versions.json"
    }

    /// The highest version accepted under `key`, or nil when none was.
    ///
    /// - Throws: `NetworkError` `.storage` when the file exists but cannot be read or is damaged.
    public func highestVersion(for key: FeedPublicKey) throws(NetworkError) -> Int64? {
        try readAll()[key.base64]
    }

    /// Records that `version` was accepted under `key`, keeping the higher of it and the stored one.
    ///
    /// - Throws: `NetworkError` `.storage` when the file cannot be read or written.
    public func record(_ version: Int64, for key: FeedPublicKey) throws(NetworkError) {
        let folder = AtomicFile.folderPath(of: path)
        do {
            try AtomicFile.createFolder(folder)
        } catch {
            throw NetworkError(.storage, "state \(error.message)", underlyingError: error)
        }
        let lock = open(folder + "/feed-versions.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else {
            throw NetworkError(.storage, "state \(folder)/feed-versions.lock: \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        var versions = try readAll()
        if let stored = versions[key.base64], stored >= version { return }
        versions[key.base64] = version
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            try AtomicFile.write(Array(try encoder.encode(versions)), to: path, permissions: 0o600)
        } catch let error as PlatformError {
            throw NetworkError(.storage, "state \(error.message)", underlyingError: error)
        } catch {
            throw NetworkError(.storage, "state \(path): \(error)", underlyingError: error)
        }
    }

    private func readAll() throws(NetworkError) -> [String: Int64] {
        let content: [UInt8]
        do {
            content = try FeedFile.read(path, maxBytes: 4 << 20)
        } catch {
            if error.code == .notFound { return [:] }
            throw NetworkError(.storage, "state \(error.message)", underlyingError: error)
        }
        guard let versions = try? JSONDecoder().decode([String: Int64].self, from: Data(content)) else {
            throw NetworkError(
                .storage, "state \(path): damaged; rollback protection needs it: restore it or delete it knowingly")
        }
        return versions
    }
}
