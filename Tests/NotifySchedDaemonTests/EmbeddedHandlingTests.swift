import NotifySchedControl
import NotifySchedCore
import NotifySchedTesting
import Testing

/// What the user's answers do, through the real driver in virtual time: `handle` and its
/// prompt, Remind Me Later after the remind period, a snooze of its own length, Ignore, a
/// popup closed before a restart.
@Suite struct EmbeddedHandlingTests {
    static let start = Instant(secondsSinceEpoch: 1_800_000_000)
    static let feed = """
        {"notifications": [
          {"id": "once", "title": "Once", "action": {"url": "https://example.org/once"}},
          {"id": "tick", "title": "Tick", "calendar": "*:0/10", "action": {"url": "https://example.org/tick"}}
        ]}
        """

    /// A daemon on `feed` whose remind period is an hour.
    private func daemon() throws -> EmbeddedDaemon {
        try EmbeddedDaemon(feeds: [("answers.json", Self.feed)], at: Self.start) {
            $0.sources[0].settings.iNotify.remindPeriod = .hours(1)
        }
    }

    /// Asks `handle` about `shown`'s occurrence and answers its prompt with `key`.
    ///
    /// - Returns: The call's reply.
    private func handle(_ shown: RecordingDesktop.Shown, with key: String, on daemon: EmbeddedDaemon) throws
        -> ControlReply?
    {
        let id = shown.popup.occurrenceID
        let reply = try daemon.call(.handle(occurrenceID: id, showAlert: true))
        #expect(reply.value == nil, "the call waits for the prompt's answer")
        #expect(daemon.desktop.waitingKeys.contains(PopupKey(occurrenceID: id, role: .prompt)))
        daemon.answer(PopupKey(occurrenceID: id, role: .prompt), .action(key))
        return reply.value
    }

    @Test func aRemindedOccurrenceComesBackAfterTheRemindPeriodAndAnIgnoredEntryShowsNoMore() throws {
        let daemon = try daemon()
        daemon.advance(by: .minutes(11))
        let once = try #require(daemon.shown(titled: "Once").first)
        let tick = try #require(daemon.shown(titled: "Tick").first)
        let reminded = try handle(once, with: "remind", on: daemon)
        guard case .handled("handled", let report) = reminded else {
            Issue.record("the remind is answered: \(String(describing: reminded))")
            return
        }
        #expect(report.hasPrefix("action: remind\nmarked: reminded"), "\(report)")
        let ignored = try handle(tick, with: "ignore", on: daemon)
        #expect(ignored == .handled(status: "handled", report: "action: ignore\nmarked: ignored"))
        daemon.advance(to: Self.start + .minutes(70))
        #expect(daemon.shown(titled: "Once").count == 1, "the reminder waits for the remind period")
        daemon.advance(to: Self.start + .hours(3))
        let again = daemon.shown(titled: "Once")
        #expect(again.count == 2, "back once")
        #expect(again.last?.popup.occurrenceID == once.popup.occurrenceID, "under its id")
        #expect(again.last.map { $0.at >= Self.start + .minutes(11) + .hours(1) } == true)
        #expect(daemon.shown(titled: "Tick").count == 1, "an ignored entry shows no more")
        let ledger = try daemon.ledger(of: "answers.json")
        #expect(ledger.map(\.entryID) == ["tick", "once"], "one occurrence each, newest first: \(ledger)")
        #expect(ledger.map(\.outcome) == [.ignored, .delivered], "the reminder was answered: \(ledger)")
    }

    @Test func aSnoozedOccurrenceComesBackOnceWhenTheSnoozeEnds() throws {
        let daemon = try daemon()
        daemon.advance(by: .seconds(1))
        let once = try #require(daemon.shown(titled: "Once").first)
        let asked = daemon.clock.now
        let reply = try daemon.call(.snooze(occurrenceID: "once", .after(.minutes(3))))
        guard case .handled("handled", let report) = reply.value else {
            Issue.record("the snooze is answered: \(String(describing: reply.value))")
            return
        }
        #expect(report.hasPrefix("marked: reminded\nuntil: "), "\(report)")
        #expect(daemon.desktop.calls.contains(.close(once.popup.key)), "the snoozed popup goes")
        daemon.advance(by: .hours(2))
        let shows = daemon.shown(titled: "Once")
        #expect(shows.count == 2, "back once")
        #expect(shows.last?.at == asked + .minutes(3), "back when the snooze ends")
    }

    /// The prompt offers the configured snooze in place of Remind Me Later; pressing it brings
    /// the occurrence back once, on time, across a restart of the daemon.
    @Test func thePromptsSnoozeButtonBringsTheOccurrenceBackOnceAcrossARestart() throws {
        let daemon = try EmbeddedDaemon(feeds: [("answers.json", Self.feed)], at: Self.start) {
            $0.snoozeChoices = [.after(.minutes(4))]
        }
        daemon.advance(by: .seconds(1))
        let once = try #require(daemon.shown(titled: "Once").first)
        #expect(once.popup.buttons.map(\.key) == ["open", "snooze-240"])
        let pressed = daemon.clock.now
        let reply = try handle(once, with: "snooze-240", on: daemon)
        guard case .handled("handled", let report) = reply else {
            Issue.record("the snooze is answered: \(String(describing: reply))")
            return
        }
        #expect(report.hasPrefix("action: snooze-240\nmarked: reminded\nuntil: "), "\(report)")
        daemon.advance(by: .minutes(1))
        try daemon.stopAndRestart()
        daemon.advance(by: .hours(1))
        let shows = daemon.shown(titled: "Once")
        #expect(shows.map(\.at) == [once.at, pressed + .minutes(4)], "back once, when the snooze ends")
    }

    /// A popup the user closed while the daemon ran is recorded closed, and the next daemon
    /// neither shows it again nor takes it over.
    @Test func aPopupClosedBeforeARestartIsRecordedClosedAndNotShownAgain() throws {
        let daemon = try daemon()
        daemon.advance(by: .seconds(1))
        let once = try #require(daemon.shown(titled: "Once").first)
        daemon.answer(once.popup.key, .closed(.dismissed))
        try daemon.stopAndRestart()
        daemon.advance(by: .minutes(5))
        #expect(daemon.shown(titled: "Once").count == 1)
        #expect(try daemon.ledger(of: "answers.json").first { $0.entryID == "once" }?.outcome == .closed)
    }

    /// A popup whose entry changed in the feed is replaced in place, and the user's answer to it
    /// still holds for the entry: a reminder brings the occurrence back, whatever its entry
    /// became (here a calendar entry became one due at once, which owes nothing more).
    @Test func anAnswerToAPopupWhoseEntryChangedStillHolds() throws {
        let daemon = try EmbeddedDaemon(
            feeds: [
                ("feed.json", #"{"notifications": [{"id": "daily", "title": "Daily", "calendar": "*-*-* 08:30 UTC"}]}"#)
            ],
            at: Self.start
        ) { $0.sources[0].settings.iNotify.remindPeriod = .minutes(10) }
        daemon.advance(by: .hours(1))
        let shown = try #require(daemon.shown(titled: "Daily").first)
        try daemon.edit("feed.json", to: #"{"notifications": [{"id": "daily", "title": "Daily", "body": "now"}]}"#)
        #expect(daemon.desktop.replacedPopups.map(\.body) == ["now"], "replaced in place")
        daemon.answer(shown.popup.key, .action("remind"))
        daemon.advance(by: .hours(1))
        let shows = daemon.shown(titled: "Daily").filter(\.isDelivery)
        #expect(shows.map(\.at) == [shown.at, Self.start + .hours(1) + .minutes(10)], "back after the remind period")
    }
}
