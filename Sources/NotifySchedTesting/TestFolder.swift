import Foundation

/// Fresh temporary folders for tests.
public enum TestFolder {
    /// A new empty folder under the system's temporary folder.
    public static func make(_ purpose: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-\(purpose)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
