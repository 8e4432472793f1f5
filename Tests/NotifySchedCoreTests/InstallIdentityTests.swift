import Foundation
import NotifySchedPlatform
import Testing

/// The desktop's install id: made once, kept private in the state folder, the same ever after.
@Suite struct InstallIdentityTests {
    private func freshFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("notify-sched-install-\(UUID().uuidString)/state")
            .path
    }

    @Test func theFirstLoadMakesARandomIdThatTheUserAloneCanReadAndLaterLoadsKeepIt() throws {
        let folder = freshFolder()
        let made = try InstallIdentity.load(inFolder: folder).id
        #expect(try InstallIdentity.load(inFolder: folder).id == made)
        #expect(try InstallIdentity.load(inFolder: freshFolder()).id != made, "another desktop, another id")
        #expect(
            made.range(
                of: #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#,
                options: .regularExpression) != nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + InstallIdentity.fileName)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    @Test func aDamagedFileIsReplacedByANewId() throws {
        let folder = freshFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "not an id\n".write(toFile: folder + "/" + InstallIdentity.fileName, atomically: true, encoding: .utf8)
        let made = try InstallIdentity.load(inFolder: folder).id
        #expect(made.count == 36)
        #expect(try InstallIdentity.load(inFolder: folder).id == made)
    }

    @Test func aFolderThatCannotBeMadeIsAnErrorNamingIt() throws {
        let file = freshFolder()
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: PlatformError.self) { try InstallIdentity.load(inFolder: file + "/state") }
    }
}
