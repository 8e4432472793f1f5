import Glibc
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
        if SourceLocation.isURL(path) {
            throw PlatformError(
                .unsupported, "\(path): feeds over HTTP(S) cannot be fetched yet; download the feed and name the file")
        }
        if path == "-" {
            return try readAll(STDIN_FILENO, name: "standard input", maxBytes: maxBytes, expectedSize: 0)
        }
        // Non-blocking: opening a FIFO would otherwise wait for a writer forever. It is refused
        // below as not a regular file; reads of a regular file never block either way.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw PlatformError(
                errno == ENOENT ? .notFound : .unreadable, "\(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw PlatformError(.unreadable, "\(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw PlatformError(.unreadable, "\(path): not a regular file")
        }
        guard Int(status.st_size) <= maxBytes else {
            throw PlatformError(
                .tooLarge, "\(path): \(status.st_size) bytes is larger than the feed size cap of \(maxBytes) bytes")
        }
        return try readAll(descriptor, name: path, maxBytes: maxBytes, expectedSize: Int(status.st_size))
    }

    /// Reads until end of file straight into the array, failing as soon as more than `maxBytes`
    /// arrive: the file may grow after `fstat`, and standard input has no size.
    private static func readAll(
        _ descriptor: Int32, name: String, maxBytes: Int, expectedSize: Int
    ) throws(PlatformError) -> [UInt8] {
        // One byte more than expected, so that end of file shows without growing the buffer.
        var buffer = [UInt8](repeating: 0, count: max(expectedSize, 64 * 1024 - 1) + 1)
        var filled = 0
        while true {
            if filled == buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
            let count = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(descriptor, raw.baseAddress! + filled, raw.count - filled)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw PlatformError(.unreadable, "\(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            filled += count
            if filled > maxBytes {
                throw PlatformError(.tooLarge, "\(name): larger than the feed size cap of \(maxBytes) bytes")
            }
        }
        buffer.removeLast(buffer.count - filled)
        return buffer
    }
}
