import NotifySchedControl
import NotifySchedCore
import NotifySchedStore
import NotifySchedTesting
import Testing

/// A prompt's life (`handle` with its alert), through the real driver in virtual time: an answer
/// on either the prompt or the popup it asks about closes the other, a prompt outlives a stop
/// and is answered through the next daemon, and nothing answered comes back with a new server.
/// `PromptLifeCycleTests` keeps the live twins: `handle` over the bus, through a kill and a close.
@Suite struct EmbeddedPromptTests {
    static let start = Instant(secondsSinceEpoch: 1_800_000_000)
    static let feed = """
        {"notifications": [
          {"id": "now", "title": "Right away", "action": {"label": "Open", "url": "https://example.org/now"}}
        ]}
        """

    /// A daemon whose one entry is on screen, and `handle`'s call about it, whose prompt is up.
    private func prompted() throws -> (daemon: EmbeddedDaemon, id: String, reply: EmbeddedDaemon.Reply) {
        let daemon = try EmbeddedDaemon(feeds: [("team.json", Self.feed)], at: Self.start)
        daemon.advance(by: .minutes(1))
        let id = try #require(daemon.shown(titled: "Right away").first?.popup.occurrenceID)
        let reply = try daemon.call(.handle(occurrenceID: id, showAlert: true))
        #expect(reply.value == nil, "the call waits for the prompt's answer")
        #expect(daemon.desktop.waitingKeys.contains(.prompt(id)))
        return (daemon, id, reply)
    }

    /// What the ledger says of the occurrence `id`.
    private func outcome(of id: String, in daemon: EmbeddedDaemon) throws -> LedgerOutcome? {
        try daemon.store.ledgerRecord(occurrenceID: id)?.outcome
    }

    @Test func anAnswerOnThePromptClosesThePopupItAsksAbout() throws {
        let (daemon, id, reply) = try prompted()
        daemon.answer(.prompt(id), .action(UserChoice.ignore.rawValue))
        guard case .handled(let status, let report) = reply.value else {
            Issue.record("handle is answered once the prompt is: \(String(describing: reply.value))")
            return
        }
        #expect(status == "handled" && report.contains("marked: ignored"), "\(report)")
        #expect(daemon.desktop.waitingKeys.isEmpty, "neither the popup nor the prompt acts twice")
        #expect(try outcome(of: id, in: daemon) == .ignored)
    }

    @Test func anAnswerOnThePopupClosesItsPromptWhichNoDaemonTakesOverAgain() throws {
        let (daemon, id, reply) = try prompted()
        daemon.answer(.scheduled(id), .action(UserChoice.open.rawValue))
        guard case .handled(_, let report) = reply.value else {
            Issue.record("handle ends with the popup's answer: \(String(describing: reply.value))")
            return
        }
        #expect(report.contains("opened: https://example.org/now"), "\(report)")
        #expect(daemon.desktop.waitingKeys.isEmpty, "the prompt would act a second time")
        let shownBefore = daemon.shown.count
        try daemon.stopAndRestart()
        daemon.advance(by: .minutes(1))
        #expect(daemon.shown.count == shownBefore, "nothing is shown again: \(daemon.shown)")
    }

    @Test func aPromptOutlivesADaemonStopAndIsAnsweredThroughTheNext() throws {
        let (daemon, id, reply) = try prompted()
        daemon.stop()
        guard case .handled(let status, let report) = reply.value else {
            Issue.record("handle is told when the daemon stops: \(String(describing: reply.value))")
            return
        }
        #expect(status == "failed" && report.contains("the daemon stopped before the prompt was answered"), "\(report)")
        try daemon.start()
        let takenOver = daemon.shown.last { $0.popup.key == .prompt(id) }
        #expect(takenOver?.isDelivery == false, "the prompt, shown again in place: \(daemon.shown)")
        daemon.answer(.prompt(id), .action(UserChoice.open.rawValue))
        #expect(daemon.desktop.openedURLs == ["https://example.org/now"])
        #expect(try outcome(of: id, in: daemon) == .acted)
        #expect(daemon.desktop.waitingKeys.isEmpty)
    }

    @Test func anAnsweredOccurrenceIsNotShownAgainWhenTheServerRestarts() throws {
        let (daemon, id, _) = try prompted()
        daemon.answer(.prompt(id), .action(UserChoice.open.rawValue))
        let shownBefore = daemon.shown.count
        daemon.desktop.serverGoes()
        daemon.advance(by: .minutes(1))
        daemon.desktop.serverComes()
        daemon.advance(by: .minutes(1))
        #expect(daemon.shown.count == shownBefore, "neither the popup nor the prompt comes back: \(daemon.shown)")
        #expect(daemon.desktop.waitingKeys.isEmpty)
    }
}
