import Glibc
import NotifySchedCore

/// The desktop's install id: a random 128-bit value, written as a version-4 UUID, kept in the
/// state folder (`install-id`, readable by the user only) from the first time it is needed. It
/// places the desktop in each staged rollout's buckets (`Rollout`), and never leaves the
/// machine: nothing sends it, logs it or puts it in a feed request.
public struct InstallIdentity: Sendable, Equatable {
    /// The file's name in the state folder.
    public static let fileName = "install-id"

    /// The id.
    public let id: String
    /// When it was made (its file's modification time): targeting's `installAgeDays`.
    public let madeAt: Instant?

    /// The install id kept in `folder`: the one there, or a new one, kept there now. A file
    /// that does not hold an id (damaged) is replaced by a new one.
    ///
    /// - Throws: `PlatformError` when the folder or the file cannot be made or read.
    public static func load(inFolder folder: String) throws(PlatformError) -> InstallIdentity {
        let path = folder + "/" + fileName
        if let kept = try read(path) { return InstallIdentity(id: kept, madeAt: modified(path)) }
        try AtomicFile.createFolder(folder)
        var made = newID()
        do {
            try AtomicFile.create(Array((made + "\n").utf8), at: path)
        } catch  where error.code == .alreadyExists {
            // Another process made one first: that one is the desktop's.
            if let kept = try read(path) {
                made = kept
            } else {
                try AtomicFile.write(Array((made + "\n").utf8), to: path, permissions: 0o600)
            }
        }
        return InstallIdentity(id: made, madeAt: modified(path))
    }

    /// When the file at `path` was last written; nil when it cannot be said.
    private static func modified(_ path: String) -> Instant? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Instant(microseconds: Int64(status.st_mtim.tv_sec) * 1_000_000 + Int64(status.st_mtim.tv_nsec) / 1000)
    }

    /// The id in the file at `path`; nil when there is no file or it holds no id.
    private static func read(_ path: String) throws(PlatformError) -> String? {
        let bytes: [UInt8]
        do {
            bytes = try FeedFile.read(path, maxBytes: 64)
        } catch  where error.code == .notFound {
            return nil
        } catch  where error.code == .tooLarge {
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return isID(text) ? text : nil
    }

    /// Whether `text` is an id as `newID()` writes them: 36 characters, lower-case hex digits in
    /// groups of 8, 4, 4, 4 and 12 joined by dashes.
    static func isID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12]
            && groups.allSatisfy { $0.allSatisfy { "0123456789abcdef".contains($0) } }
    }

    /// A new random id from the system's random source.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let cuts = [0, 8, 12, 16, 20, 32].map { hex.index(hex.startIndex, offsetBy: $0) }
        return zip(cuts, cuts.dropFirst()).map { String(hex[$0..<$1]) }.joined(separator: "-")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
