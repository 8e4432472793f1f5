import Foundation
import NotifySchedCore
import NotifySchedTesting
import Testing

/// `make install` and `make uninstall` as a packager or a user runs them, into temporary folders.
/// They install the debug binary this test run already has (`BINARY=`), since a release build here
/// would take minutes.
@Suite struct InstallTests {
    typealias CLI = CommandLineHarness

    static let make = "/usr/bin/make"
    static let desktopFileValidate = "/usr/bin/desktop-file-validate"

    /// Every file `make install` puts under the prefix, translations aside.
    static let expectedFiles = [
        "bin/notify-sched",
        "lib/notify-sched/desktop_harness.py",
        "lib/notify-sched/preview-popups",
        "lib/systemd/user/notify-sched.service",
        "share/applications/\(Popup.desktopEntry).desktop",
        "share/bash-completion/completions/notify-sched",
        "share/dbus-1/services/org.notify_sched.Daemon.service",
        "share/fish/vendor_completions.d/notify-sched.fish",
        "share/man/man1/notify-sched.1",
        "share/man/man5/notify-sched.conf.5",
        "share/notify-sched/feeds/demo-inotify.plist",
        "share/notify-sched/feeds/demo-ismartnews.plist",
        "share/notify-sched/feeds/demo-zbim.json",
        "share/notify-sched/feeds/demo.json",
        "share/zsh/site-functions/_notify-sched",
    ]

    /// One compiled catalog per language of `po/LINGUAS`, when the tree has translations.
    static var expectedTranslations: [String] {
        guard FileManager.default.isExecutableFile(atPath: CLI.repository.path + "/scripts/build-translations"),
            let linguas = try? String(contentsOf: CLI.repository.appendingPathComponent("po/LINGUAS"), encoding: .utf8)
        else { return [] }
        return linguas.split(separator: "\n").compactMap { line in
            let language = line.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            return language.isEmpty ? nil : "share/locale/\(language)/LC_MESSAGES/notify-sched.mo"
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: make)))
    func installPutsWorkingFilesUnderThePrefixAndUninstallRemovesThem() throws {
        let prefix = try TestFolder.make("install").path
        defer { try? FileManager.default.removeItem(atPath: prefix) }

        try Self.runMake(["install", "PREFIX=\(prefix)"])
        #expect(Self.files(under: prefix) == (Self.expectedFiles + Self.expectedTranslations).sorted())
        try Self.expectPaths(inFilesUnder: prefix, prefix: prefix)

        if FileManager.default.isExecutableFile(atPath: Self.desktopFileValidate) {
            let outcome = try ExternalCommand.run(
                Self.desktopFileValidate, ["\(prefix)/share/applications/\(Popup.desktopEntry).desktop"])
            #expect(outcome.status == 0)
            #expect(outcome.standardOutput + outcome.standardError == "", "desktop-file-validate complains")
        }
        if FileManager.default.isExecutableFile(atPath: SystemdUnitTests.analyzer) {
            let output = try SystemdUnitTests.verify(
                unit: "\(prefix)/lib/systemd/user/notify-sched.service", manPath: "\(prefix)/share/man")
            #expect(output == "", "systemd-analyze verify complains about the installed unit")
        }
        // Found beside the program, not in the XDG data folders or the source tree.
        let empty = try TestFolder.make("empty").path
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let listing = try ExternalCommand.run(
            "\(prefix)/bin/notify-sched", ["list", "--json"],
            environment: ["XDG_DATA_DIRS": empty, "NOTIFY_SCHED_DATA_DIR": "", "TZ": "UTC"])
        #expect(listing.status == 0, "notify-sched list: \(listing.standardError)")
        #expect(listing.standardOutput.contains("\(prefix)/share/notify-sched/feeds/demo.json"))
        if !Self.expectedTranslations.isEmpty {
            // The catalogs under <prefix>/share/locale speak, with no source tree to fall back on.
            let french = try ExternalCommand.run(
                "\(prefix)/bin/notify-sched", ["test"],
                environment: [
                    "LANG": "fr_FR.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "",
                    "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(empty)/no-bus", "XDG_STATE_HOME": empty,
                ])
            #expect(french.status == 1)
            #expect(french.standardError.contains("impossible d'afficher la notification"))
        }

        try Self.runMake(["uninstall", "PREFIX=\(prefix)"])
        #expect(Self.files(under: prefix) == [], "make uninstall left files behind")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: make)))
    func destdirStagesTheInstallWhileTheFilesNameThePrefix() throws {
        let stage = try TestFolder.make("stage").path
        defer { try? FileManager.default.removeItem(atPath: stage) }

        try Self.runMake(["install", "PREFIX=/usr/local", "DESTDIR=\(stage)"])
        let expected = (Self.expectedFiles + Self.expectedTranslations).map { "usr/local/\($0)" }.sorted()
        #expect(Self.files(under: stage) == expected)
        try Self.expectPaths(inFilesUnder: stage + "/usr/local", prefix: "/usr/local")
        if FileManager.default.isExecutableFile(atPath: SystemdUnitTests.analyzer) {
            #expect(try Self.systemdUserUnitPaths(home: stage).contains("/usr/local/lib/systemd/user"))
        }

        try Self.runMake(["uninstall", "PREFIX=/usr/local", "DESTDIR=\(stage)"])
        #expect(Self.files(under: stage) == [], "make uninstall left files behind")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: SystemdUnitTests.analyzer)))
    func homePrefixPutsTheUnitWhereSystemdLooksForIt() throws {
        let home = try TestFolder.make("home").path
        defer { try? FileManager.default.removeItem(atPath: home) }

        try Self.runMake(["install", "PREFIX=\(home)/.local"], environment: ["HOME": home])
        let folder = "\(home)/.local/share/systemd/user"
        #expect(FileManager.default.fileExists(atPath: folder + "/notify-sched.service"))
        #expect(try Self.systemdUserUnitPaths(home: home).contains(folder))
        try Self.runMake(["uninstall", "PREFIX=\(home)/.local"], environment: ["HOME": home])
        #expect(Self.files(under: home) == [], "make uninstall left files behind")
    }

    // MARK: Helpers

    /// The folders a user's systemd reads units from, as `systemd-analyze --user unit-paths` lists them.
    static func systemdUserUnitPaths(home: String) throws -> [String] {
        let runtime = try TestFolder.make("runtime")
        defer { try? FileManager.default.removeItem(at: runtime) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: runtime.path)
        let outcome = try ExternalCommand.run(
            SystemdUnitTests.analyzer, ["--user", "unit-paths"],
            environment: [
                "HOME": home, "XDG_RUNTIME_DIR": runtime.path,
                // Their defaults: systemd reads an empty value as no folder at all.
                "XDG_DATA_HOME": home + "/.local/share", "XDG_CONFIG_HOME": home + "/.config",
            ])
        try #require(outcome.status == 0, "systemd-analyze unit-paths: \(outcome.standardError)")
        return outcome.standardOutput.split(separator: "\n").map(String.init)
    }

    /// Runs `make ARGUMENTS BINARY=<the debug binary>` in the repository.
    static func runMake(_ arguments: [String], environment: [String: String] = [:]) throws {
        let outcome = try ExternalCommand.run(
            make, ["-C", CLI.repository.path, "--no-print-directory"] + arguments + ["BINARY=\(CLI.executable.path)"],
            environment: environment)
        try #require(outcome.status == 0, "make \(arguments.joined(separator: " ")): \(outcome.standardError)")
    }

    /// The regular files below `folder`, relative to it, sorted.
    static func files(under folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var files: [String] = []
        while let path = enumerator.nextObject() as? String {
            if enumerator.fileAttributes?[.type] as? FileAttributeType != .typeDirectory { files.append(path) }
        }
        return files.sorted()
    }

    /// The unit, the D-Bus activation file and the desktop file run `prefix`/bin/notify-sched.
    static func expectPaths(inFilesUnder root: String, prefix: String) throws {
        func read(_ path: String) throws -> String { try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8) }
        let program = "\(prefix)/bin/notify-sched"
        let unit = try read("lib/systemd/user/notify-sched.service")
        let activation = try read("share/dbus-1/services/org.notify_sched.Daemon.service")
        let desktop = try read("share/applications/\(Popup.desktopEntry).desktop")
        #expect(unit.contains("\nExecStart=\(program) daemon\n"))
        #expect(activation.contains("\nExec=\(program) daemon\n"))
        #expect(desktop.contains("\nExec=\(program) daemon\n"))
        #expect(desktop.contains("\nTryExec=\(program)\n"))
        for text in [unit, activation, desktop] where prefix != "/usr" {
            #expect(!text.contains("/usr/bin/notify-sched"), "an installed file still names /usr/bin/notify-sched")
        }
    }
}
