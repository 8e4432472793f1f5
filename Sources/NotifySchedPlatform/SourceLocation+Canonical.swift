import Glibc
import NotifySchedCore

extension SourceLocation {
    /// The canonical form of `location`, the source's identity in the state database: a URL
    /// normalized (`normalizedURL(_:)`), a path made absolute (against the working directory)
    /// with its symlinks resolved. A path that does not resolve (the file is missing) is made
    /// absolute by its text alone, `.` and `..` folded; `-` (standard input) stays as it is.
    public static func canonical(_ location: String) -> String {
        if isURL(location) { return normalizedURL(location) ?? location }
        guard location != "-", !location.isEmpty else { return location }
        if let resolved = realpath(location, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return absolute(location)
    }

    /// `path` made absolute against the working directory, by its text.
    private static func absolute(_ path: String) -> String {
        var components: [Substring] = []
        if !path.hasPrefix("/"), let directory = getcwd(nil, 0) {
            components = String(cString: directory).split(separator: "/")
            free(directory)
        }
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
