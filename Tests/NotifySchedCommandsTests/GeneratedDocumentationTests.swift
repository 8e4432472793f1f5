import Foundation
import NotifySchedTesting
import Testing

/// The man page and the shell completions checked in under `share/`: generated from the command
/// definitions by `scripts/generate-docs`, and usable by `man` and the shells.
@Suite struct GeneratedDocumentationTests {
    typealias CLI = CommandLineHarness

    static let manPage = CLI.repository.appendingPathComponent("share/man/man1/notify-sched.1").path
    static let bashCompletion = CLI.repository.appendingPathComponent("share/completions/notify-sched.bash").path

    /// The build folder of this test run, whose checkouts hold swift-argument-parser:
    /// `<scratch>/<triple>/debug/notify-sched`.
    static let scratch = CLI.executable.resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test func checkedInManPageAndCompletionsMatchTheCommandDefinitions() throws {
        let outcome = try ExternalCommand.run(
            CLI.repository.appendingPathComponent("scripts/generate-docs").path,
            ["--check", "--binary", CLI.executable.path, "--scratch-path", Self.scratch.path])
        #expect(
            outcome.status == 0,
            "the checked-in files drifted from the code; run scripts/generate-docs:\n\(outcome.standardOutput)\(outcome.standardError)"
        )
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")))
    func manPageRendersWithoutWarnings() throws {
        let outcome = try ExternalCommand.run(
            "/usr/bin/man", ["--warnings", "-P", "cat", "-l", Self.manPage],
            environment: ["MANWIDTH": "100", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(outcome.status == 0)
        #expect(outcome.standardError == "", "man reports problems in the page")
        #expect(outcome.standardOutput.hasPrefix("NOTIFY-SCHED(1)"))
        #expect(outcome.standardOutput.contains("Schedule desktop notifications from portal feeds."))
    }

    @Test func bashCompletionLoadsInBash() throws {
        let outcome = try ExternalCommand.run(
            "/bin/bash", ["-c", "source \"$1\" && complete -p notify-sched", "bash", Self.bashCompletion])
        #expect(outcome.status == 0, "bash: \(outcome.standardError)")
        #expect(outcome.standardError == "")
        #expect(outcome.standardOutput.hasSuffix(" notify-sched\n"))
    }
}
