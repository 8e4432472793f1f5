import NotifySchedControl
import NotifySchedCore
import Testing

@Suite struct SourceHealthReportTests {
    @Test func aFailedCheckIsReportedWithItsCodeBesideItsMessage() {
        let failure = CheckFailure(code: "network.unreachable", message: "https://portal.example/a.json: refused")
        let report = SourceHealthReport(SourceHealth(location: "https://portal.example/a.json", lastError: failure))
        #expect(report.lastError == failure.message)
        #expect(report.lastErrorCode == "network.unreachable", "a program matches the code, not the words")
        #expect(SourceHealthReport(SourceHealth(location: "a.json")).lastErrorCode == nil)
    }
}
