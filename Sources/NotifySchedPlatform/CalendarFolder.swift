import Glibc
import NotifySchedCore

/// A folder of calendar items, one `.ics` file each, as vdirsyncer keeps them and khal reads
/// them (the vdir layout): read as one calendar feed.
public enum CalendarFolder {
    /// The most `.ics` files a folder may hold.
    public static let maximumFiles = 100_000

    /// Whether `path` is a folder (a symbolic link to one counts).
    public static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The `.ics` files of the folder at `path`, by name, each with its bytes. Hidden files (a
    /// sync program's temporary ones) and anything but regular files are passed over.
    ///
    /// - Parameter maxBytes: The most bytes all the files may hold together (the feed size cap).
    /// - Throws: `PlatformError` when the folder cannot be read, holds more than `maximumFiles`
    ///   items, or more than `maxBytes` together, or an item cannot be read.
    public static func read(_ path: String, maxBytes: Int = FeedReadLimits().maxBytes) throws(PlatformError) -> [(
        name: String, bytes: [UInt8]
    )] {
        guard let directory = opendir(path) else {
            throw PlatformError(
                errno == ENOENT ? .notFound : .unreadable, "\(path): \(String(cString: strerror(errno)))")
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix("."), name.lowercased().hasSuffix(".ics") else { continue }
            names.append(name)
            guard names.count <= maximumFiles else {
                closedir(directory)
                throw PlatformError(.tooLarge, "\(path): more than \(maximumFiles) calendar items")
            }
        }
        closedir(directory)
        var files: [(name: String, bytes: [UInt8])] = []
        var total = 0
        for name in names.sorted() {
            let file = path.hasSuffix("/") ? path + name : path + "/" + name
            let bytes: [UInt8]
            do {
                bytes = try FeedFile.read(file, maxBytes: maxBytes - total)
            } catch  where error.code == .notFound {
                continue  // removed while the folder was read: the next change reads it again
            } catch  where error.code == .tooLarge {
                throw PlatformError(
                    .tooLarge, "\(path): its calendar items hold more than the feed size cap of \(maxBytes) bytes")
            }
            total += bytes.count
            files.append((name, bytes))
        }
        return files
    }
}
