import Glibc
import NotifySchedCore
import Synchronization

/// The system's tz database: TZif files under `$TZDIR` or `/usr/share/zoneinfo`.
///
/// Names are checked before any file is touched (no absolute paths, no `.` or `..`, no empty
/// components, only letters, digits, `-`, `_`, `+` and `/`, as systemd allows), files larger
/// than 1 MiB are refused, and loaded zones are cached for the life of the value. Safe to share
/// between threads.
public final class TimeZoneDatabase: ZoneProvider, Sendable {
    /// The folder the zone files are read from.
    public let directory: String
    private let cache = Mutex<[String: ZoneRules]>([:])

    /// The largest zone file read; real ones are under 100 KB.
    public static let maximumFileSize = 1 << 20

    /// Creates a database reading from `directory`.
    ///
    /// - Parameter directory: The zoneinfo folder. The default is `$TZDIR` when set and not
    ///   empty, else `/usr/share/zoneinfo`.
    public init(directory: String? = nil) {
        if let directory {
            self.directory = directory
        } else if let variable = getenv("TZDIR"), variable.pointee != 0 {
            self.directory = String(cString: variable)
        } else {
            self.directory = "/usr/share/zoneinfo"
        }
    }

    /// The rules of the zone called `name`, or nil when the name is refused, there is no such
    /// file, or the file is not valid TZif.
    ///
    /// - Parameter name: An IANA zone name such as `Europe/Berlin`.
    /// - Returns: The zone's rules, or nil.
    /// - Complexity: O(1) after the first successful load of `name`.
    public func zone(named name: String) -> ZoneRules? {
        try? loadZone(named: name)
    }

    /// The rules of the zone called `name`, with the reason when there are none.
    ///
    /// - Parameter name: An IANA zone name such as `Europe/Berlin`.
    /// - Returns: The zone's rules.
    /// - Throws: `CoreError` `.unknownZone` for a refused name or a missing file,
    ///   `.invalidZoneData` for a file that is too large or not valid TZif.
    public func loadZone(named name: String) throws(CoreError) -> ZoneRules {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        guard Self.isAcceptableName(name) else {
            throw CoreError(.unknownZone, "\"\(name)\" is not a valid time-zone name")
        }
        let path = directory + "/" + name
        let bytes = try Self.readZoneFile(path, name: name)
        let rules = try ZoneRules(identifier: name, tzif: bytes)
        cache.withLock { $0[name] = rules }
        return rules
    }

    /// Whether `name` may name a zone file: relative, components separated by single slashes,
    /// only ASCII letters, digits, `-`, `_` and `+`.
    ///
    /// - Parameter name: A candidate zone name.
    /// - Returns: Whether it is acceptable.
    public static func isAcceptableName(_ name: String) -> Bool {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count < 256 else { return false }
        return components.allSatisfy { component in
            !component.isEmpty
                && component.utf8.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
                }
        }
    }

    /// Reads a regular file of at most `maximumFileSize` bytes.
    static func readZoneFile(_ path: String, name: String) throws(CoreError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CoreError(.unknownZone, "no time zone \"\(name)\" (\(path): \(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            throw CoreError(.unknownZone, "no time zone \"\(name)\" (\(path) is not a regular file)")
        }
        guard status.st_size <= maximumFileSize else {
            throw CoreError(.invalidZoneData, "zone \(name): \(path) is larger than \(maximumFileSize) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: maximumFileSize + 1)
        var count = 0
        while count < bytes.count {
            let result = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return read(descriptor, base + count, buffer.count - count)
            }
            if result < 0 && errno == EINTR { continue }
            guard result >= 0 else {
                throw CoreError(
                    .invalidZoneData, "zone \(name): reading \(path) failed: \(String(cString: strerror(errno)))")
            }
            if result == 0 { break }
            count += result
        }
        guard count <= maximumFileSize else {
            throw CoreError(.invalidZoneData, "zone \(name): \(path) is larger than \(maximumFileSize) bytes")
        }
        return Array(bytes[0..<count])
    }
}
