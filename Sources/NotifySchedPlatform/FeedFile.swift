import Foundation
import NotifySchedCore

/// Reads a feed from a local file, refusing it before reading when it exceeds the size cap.
public enum FeedFile {
    /// Reads the file at `path`.
    ///
    /// - Parameters:
    ///   - path: A file path; `-` reads standard input.
    ///   - maxBytes: The size cap (`FeedReadLimits.maxBytes`, 16 MiB by default).
    /// - Throws: `PlatformError` when the file is missing, unreadable, not a regular file or too large,
    ///   or when `path` is a URL.
    public static func read(_ path: String, maxBytes: Int = FeedReadLimits().maxBytes) throws(PlatformError) -> [UInt8]
    {
        if path.hasPrefix("http://") || path.hasPrefix("https://") {
            throw PlatformError(
                .unsupported, "\(path): feeds over HTTP(S) cannot be fetched yet; download the feed and name the file")
        }
        if path == "-" {
            return try readBounded(FileHandle.standardInput, path: "standard input", maxBytes: maxBytes)
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw PlatformError(.notFound, "\(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw PlatformError(.unreadable, "\(path): not a regular file")
        }
        guard Int(status.st_size) <= maxBytes else {
            throw PlatformError(
                .tooLarge, "\(path): \(status.st_size) bytes is larger than the feed size cap of \(maxBytes) bytes")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw PlatformError(.unreadable, "\(path): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        return try readBounded(handle, path: path, maxBytes: maxBytes, expectedSize: Int(status.st_size))
    }

    /// Reads until end of file, failing as soon as more than `maxBytes` arrive (the file may
    /// grow after `stat`, and standard input has no size).
    private static func readBounded(
        _ handle: FileHandle, path: String, maxBytes: Int, expectedSize: Int = 0
    ) throws(PlatformError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(min(expectedSize, maxBytes) + 1)
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw PlatformError(.unreadable, "\(path): \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return bytes }
            bytes.append(contentsOf: chunk)
            if bytes.count > maxBytes {
                throw PlatformError(.tooLarge, "\(path): larger than the feed size cap of \(maxBytes) bytes")
            }
        }
    }
}
