import Glibc
import NotifySchedCore

/// Replaces files so that a crash or power loss leaves either the old content or the new, never
/// a mix: write a temporary file in the same folder, fsync it, rename it over the target, fsync
/// the folder (`reference/safety-facts.md`: a rename alone is not durable on Linux).
public enum AtomicFile {
    /// Writes `bytes` to `path`, replacing any file there atomically and durably.
    ///
    /// - Parameters:
    ///   - bytes: The new content.
    ///   - path: The file to replace; its folder must exist.
    ///   - permissions: The new file's mode, such as `0o600` for a private key. The default is `0o644`.
    /// - Throws: `PlatformError` `.unwritable` naming the path and the system's reason.
    public static func write(_ bytes: [UInt8], to path: String, permissions: mode_t = 0o644) throws(PlatformError) {
        try publish(bytes, at: path, permissions: permissions, replacing: true)
    }

    /// Creates the file `path` with `bytes`, complete and durable, failing if anything is there
    /// already (for a private key, which must never be overwritten).
    ///
    /// - Throws: `PlatformError` `.alreadyExists` when `path` exists, `.unwritable` otherwise.
    public static func create(_ bytes: [UInt8], at path: String, permissions: mode_t = 0o600) throws(PlatformError) {
        try publish(bytes, at: path, permissions: permissions, replacing: false)
    }

    /// Writes a temporary file beside `path`, then renames it over `path` or, when not
    /// `replacing`, links it there (which fails atomically if `path` exists).
    private static func publish(
        _ bytes: [UInt8], at path: String, permissions: mode_t, replacing: Bool
    ) throws(PlatformError) {
        let folder = Self.folderPath(of: path)
        // A name no other writer uses: the process id and random bits, created exclusively.
        let temporary = "\(path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw failure(path) }
        var closed = false
        defer {
            if !closed { close(descriptor) }
        }
        do throws(PlatformError) {
            // The mode given to open is masked by the umask; a key file must be exactly 0600.
            guard fchmod(descriptor, permissions) == 0 else { throw failure(path) }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes { raw in
                    Glibc.write(descriptor, raw.baseAddress! + written, raw.count - written)
                }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw failure(path)
                }
                written += count
            }
            guard fsync(descriptor) == 0 else { throw failure(path) }
            closed = true
            guard close(descriptor) == 0 else { throw failure(path) }
            if replacing {
                guard rename(temporary, path) == 0 else { throw failure(path) }
            } else {
                guard link(temporary, path) == 0 else {
                    throw errno == EEXIST ? PlatformError(.alreadyExists, "\(path): already exists") : failure(path)
                }
                unlink(temporary)
            }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncFolder(folder)
    }

    /// Creates `path` and its missing parents with mode `0o700` (XDG base directories are private).
    ///
    /// - Throws: `PlatformError` `.unwritable` when a folder cannot be created.
    public static func createFolder(_ path: String) throws(PlatformError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST { throw failure(current) }
        }
    }

    /// The folder holding `path` (`.` for a bare file name).
    public static func folderPath(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func syncFolder(_ folder: String) throws(PlatformError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw failure(folder) }
    }

    private static func failure(_ path: String) -> PlatformError {
        PlatformError(.unwritable, "\(path): \(String(cString: strerror(errno)))")
    }
}
