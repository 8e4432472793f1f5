import Foundation
import NotifySchedCore
import NotifySchedTesting
import Testing

/// What the Debian package says of the program matches the program. Building, installing,
/// upgrading and purging the package is `scripts/package-test`'s work (a release build takes
/// minutes), which CI runs.
@Suite struct DebianPackageTests {
    typealias CLI = CommandLineHarness

    @Test func theChangelogsVersionIsTheProgramsVersion() throws {
        let changelog = try String(
            contentsOf: CLI.repository.appendingPathComponent("debian/changelog"), encoding: .utf8)
        // The first line: "notify-sched (VERSION) DISTRIBUTION; urgency=…".
        let firstLine = try #require(changelog.split(separator: "\n").first)
        let version = firstLine.split(separator: "(").dropFirst().first?.split(separator: ")").first
        #expect(version.map(String.init) == ProductVersion.current)
    }
}
