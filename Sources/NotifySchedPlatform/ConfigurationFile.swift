import NotifySchedCore

/// Reads the configuration file: `$XDG_CONFIG_HOME/notify-sched/config` unless another is named.
public enum ConfigurationFile {
    /// The configuration in `path`; the defaults when `path` does not exist and `required` is false.
    ///
    /// - Returns: The configuration and its problems, each with the file's line.
    /// - Throws: `PlatformError` when the file cannot be read (or is missing and `required`).
    public static func load(_ path: String, required: Bool) throws(PlatformError) -> (Configuration, [Diagnostic]) {
        let bytes: [UInt8]
        do {
            bytes = try FeedFile.read(path, maxBytes: 1 << 20)
        } catch  where error.code == .notFound && !required {
            return (Configuration(), [])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PlatformError(.unreadable, "\(path): the configuration is not UTF-8 text")
        }
        return Configuration.parse(text)
    }
}
