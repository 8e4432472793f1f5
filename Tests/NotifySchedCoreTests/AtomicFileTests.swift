import Foundation
import NotifySchedCore
import NotifySchedPlatform
import Testing

@Suite struct AtomicFileTests {
    private func folder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notify-sched-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    @Test func writeReplacesTheWholeFileAndLeavesNoTemporaryBehind() throws {
        let folder = try folder()
        let path = folder + "/state.json"
        try AtomicFile.write(Array("first, and longer".utf8), to: path)
        try AtomicFile.write(Array("second".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["state.json"])
    }

    @Test func createNeverOverwritesAndKeepsTheModeExact() throws {
        let path = try folder() + "/key"
        try AtomicFile.create(Array("secret".utf8), at: path, permissions: 0o600)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(throws: PlatformError(.alreadyExists, "\(path): already exists")) {
            try AtomicFile.create(Array("other".utf8), at: path)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "secret")
    }

    @Test func createFolderMakesMissingParentsPrivate() throws {
        let path = try folder() + "/a/b/c"
        try AtomicFile.createFolder(path)
        try AtomicFile.createFolder(path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func xdgFoldersFollowTheEnvironmentAndIgnoreRelativePaths() {
        #expect(
            UserDirectories(environment: ["HOME": "/home/u", "XDG_CACHE_HOME": "/c", "XDG_STATE_HOME": "rel"])
                == UserDirectories(
                    configuration: "/home/u/.config/notify-sched", cache: "/c/notify-sched",
                    state: "/home/u/.local/state/notify-sched"))
    }
}
