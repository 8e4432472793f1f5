import NotifySchedCore
import Testing

@Suite struct VersionFlagTests {
    typealias CLI = CommandLineHarness

    @Test(arguments: [[], ["list"], ["daemon"], ["handle", "some-id"]])
    func everyCommandPrintsTheVersionAndExitsZero(command: [String]) throws {
        let outcome = try CLI.run(command + ["--version"])
        #expect(
            outcome == .init(status: 0, standardOutput: "notify-sched \(ProductVersion.current)\n", standardError: ""))
    }
}
