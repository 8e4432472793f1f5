import Foundation
import NotifySchedCore
import NotifySchedPlatform
import Testing

@Suite struct DeliveryLogFileTests {
    func temporaryLog() -> DeliveryLogFile {
        DeliveryLogFile(
            environment: [
                "XDG_STATE_HOME": FileManager.default.temporaryDirectory.path + "/ns-log-\(UUID().uuidString)"
            ])
    }

    @Test func theLogLivesUnderXDGStateHomeOrElseHomeLocalState() {
        #expect(DeliveryLogFile(environment: ["XDG_STATE_HOME": "/s"]).path == "/s/notify-sched/delivered.json")
        #expect(
            DeliveryLogFile(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"]).path
                == "/home/u/.local/state/notify-sched/delivered.json")
    }

    @Test func occurrencesAndStateReadBackAsTheyWereWritten() throws {
        let file = temporaryLog()
        #expect(try file.read() == DeliveryLog())
        let news = Occurrences.make(
            .iSmartNews, id: "occ-2", url: "https://example.org/n",
            news: NewsHandling(okLabel: "Go", cancelLabel: nil, repeats: true, contentHash: "h"))
        var expected = DeliveryLog()
        expected.record(Occurrences.make(.iNotify, label: "Get", url: "mailto:a@example.org"))
        expected.record(news)
        expected.state.apply(.reminded, to: Occurrences.make(.iNotify), at: Occurrences.moment)
        expected.state.apply(.newsShown, to: news, at: Occurrences.moment)
        try file.update { $0 = expected }
        #expect(try file.read() == expected)
        #expect(try file.read().occurrence(id: "occ-2") == news)
    }

    @Test func theLogKeepsOnlyTheNewestOccurrences() {
        var log = DeliveryLog()
        for index in 0..<(DeliveryLog.capacity + 5) { log.record(Occurrences.make(.native, id: "occ-\(index)")) }
        #expect(log.occurrences.count == DeliveryLog.capacity)
        #expect(log.occurrence(id: "occ-4") == nil)
        #expect(log.occurrence(id: "occ-5") != nil)
    }

    @Test func aFileThatIsNotALogIsAClearError() throws {
        let file = temporaryLog()
        try FileManager.default.createDirectory(
            atPath: (file.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: file.path))
        #expect {
            try file.read()
        } throws: { error in
            (error as? PlatformError)?.message.hasPrefix("\(file.path): not a notify-sched delivery log") == true
        }
    }
}
