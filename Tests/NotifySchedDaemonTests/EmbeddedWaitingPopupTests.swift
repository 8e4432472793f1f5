import NotifySchedCore
import NotifySchedDaemon
import NotifySchedStore
import NotifySchedTesting
import Testing

/// Popups chosen by session events, posted events and iSmartNews queues wait until they are
/// shown: for a notification server, for a queue's timeout, for quiet hours to end. Neither a
/// crash nor a restart loses them or shows them twice. The real driver, in virtual time.
@Suite struct EmbeddedWaitingPopupTests {
    static let start = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test func sessionPopupsWaitForANotificationServerEvenAcrossACrash() throws {
        let news = #"[{"title": "Welcome", "text": "Read the news"}]"#
        let native =
            #"{"notifications": [{"id": "hello", "title": "Hello again", "events": {"session:start": "ON=1"}}]}"#
        let daemon = try EmbeddedDaemon(
            feeds: [("news.json", news), ("native.json", native)], at: Self.start, serverRunning: false
        ) { $0.sources[0].dialect = .iSmartNews }
        daemon.advance(by: .seconds(5))
        #expect(try daemon.store.waitingPopups().count == 2, "both session popups wait in the database")
        try daemon.killAndRestart()
        daemon.advance(by: .seconds(5))
        #expect(daemon.shown.isEmpty)
        daemon.desktop.serverComes()
        #expect(daemon.shown.map(\.popup.summary).sorted() == ["Hello again", "Welcome"])
        #expect(try daemon.store.waitingPopups().isEmpty, "the deliveries took them off the waiting list")
        daemon.advance(by: .minutes(5))
        #expect(daemon.shown.count == 2, "the second session start added no popup beside the waiting ones")
    }

    /// A popup a session event shows is written to the ledger with the event, not at the
    /// daemon's next one: a kill -9 minutes later does not deliver its occurrence again (the
    /// next daemon takes the popup over in place).
    @Test func aPopupAnUnlockShowedIsNotShownAgainAfterAKill() throws {
        let news = #"[{"title": "Build news", "text": "Read it", "always": true}]"#
        let daemon = try EmbeddedDaemon(feeds: [("news.json", news)], at: Self.start) {
            $0.sources[0].dialect = .iSmartNews
        }
        daemon.advance(by: .minutes(1))
        daemon.unlock()
        daemon.advance(by: .minutes(10))
        try daemon.killAndRestart()
        daemon.advance(by: .minutes(1))
        let delivered = daemon.shown.filter(\.isDelivery).map(\.popup.occurrenceID)
        #expect(Set(delivered).count == delivered.count, "an occurrence delivered twice: \(delivered)")
    }

    @Test func aQueuedNewsMessageFollowsOnTimeAcrossARestart() throws {
        let news = """
            [{"queues": [{"name": "tips", "timeout": 40}]},
             {"title": "Build news", "always": true},
             {"title": "Tip", "queue": "tips", "always": true}]
            """
        let daemon = try EmbeddedDaemon(feeds: [("news.json", news)], at: Self.start) {
            $0.sources[0].dialect = .iSmartNews
        }
        #expect(daemon.shown.map(\.popup.summary) == ["Build news"])
        daemon.advance(by: .seconds(10))
        try daemon.stopAndRestart()
        daemon.advance(by: .seconds(60))
        // The first popup taken over in place, the new cycle's own, then the tip.
        #expect(daemon.shown.map(\.popup.summary) == ["Build news", "Build news", "Build news", "Tip"])
        #expect(
            daemon.shown.last?.at == Self.start + .seconds(40),
            "the tip waits for its queue's timeout from the cycle that chose it, across the restart")
        daemon.advance(by: .minutes(5))
        #expect(daemon.shown.count == 4, "the second cycle's tip is not queued beside the waiting one")
    }

    @Test func quietHoursHoldEveryPopupThatIsNotCriticalUntilTheyEnd() throws {
        let feed = """
            {"notifications": [
              {"id": "calm", "title": "Calm"},
              {"id": "alarm", "title": "Alarm", "urgency": "critical"},
              {"id": "hello", "title": "Hello again", "events": {"session:start": "ON=1"}}
            ]}
            """
        // 08:00 UTC, inside quiet hours from 06:00 to 10:00.
        let daemon = try EmbeddedDaemon(feeds: [("feed.json", feed)], at: Self.start) {
            $0.quietHours = QuietHours(parsing: "06:00-10:00")
        }
        daemon.advance(by: .hours(1))
        #expect(daemon.shown.map(\.popup.summary) == ["Alarm"], "quiet hours let only the critical popup through")
        #expect(try daemon.store.waitingPopups().map(\.entryID) == ["hello"])
        daemon.advance(by: .hours(2))
        #expect(daemon.shown.map(\.popup.summary).sorted() == ["Alarm", "Calm", "Hello again"])
        #expect(daemon.shown.dropFirst().allSatisfy { $0.at == Self.start + .hours(2) }, "when quiet hours end")
    }

    @Test func aRestartedDaemonShowsNoSecondINotifyMessageBesideTheOneItTookOver() throws {
        let updates = #"{"2026/01/01": {"Title": "Older"}, "2026/02/01": {"Title": "Newer"}}"#
        // `debug` checks at every start, whatever the period.
        let daemon = try EmbeddedDaemon(feeds: [("updates.json", updates)], at: Self.start) {
            $0.sources[0].dialect = .iNotify
            $0.sources[0].settings.iNotify.debug = true
        }
        #expect(daemon.shown.map(\.popup.summary) == ["Newer"])
        try daemon.stopAndRestart()
        daemon.advance(by: .minutes(5))
        #expect(daemon.shown.map(\.popup.summary) == ["Newer", "Newer"], "the unanswered message is taken over")
        #expect(daemon.desktop.waitingKeys.count == 1, "in place")
        #expect(daemon.log.contains { $0.contains("its last message is on screen or waiting") })
    }

    /// A resume posts `session:resume`: the news cycle shows its message again, iNotify's
    /// check shows no second message while its first is on screen, and shows it again once
    /// it is closed (`debug` recycles it).
    @Test func aResumeRunsTheSessionResumeEventOfEverySource() throws {
        let updates = #"{"2026/01/01": {"Title": "Update", "Message": "A new version"}}"#
        let news = """
            [{"event": {"name": "session:resume", "pattern": "ON=1"}}, {"event": {"name": "app:didfinishlaunching"}},
             {"title": "Welcome back", "always": true}]
            """
        let daemon = try EmbeddedDaemon(feeds: [("updates.json", updates), ("news.json", news)], at: Self.start) {
            $0.sources[0].dialect = .iNotify
            $0.sources[0].settings.iNotify.debug = true
            $0.sources[1].dialect = .iSmartNews
        }
        #expect(daemon.shown.map(\.popup.summary).sorted() == ["Update", "Welcome back"])
        daemon.advance(by: .hours(1))
        daemon.resume()
        #expect(daemon.shown.count == 3)
        #expect(daemon.shown.last?.popup.summary == "Welcome back")
        let update = try #require(daemon.shown.first { $0.popup.summary == "Update" })
        daemon.answer(update.popup.key, .closed(.dismissed))
        daemon.advance(by: .hours(1))
        daemon.resume()
        #expect(daemon.shown.dropFirst(3).map(\.popup.summary).sorted() == ["Update", "Welcome back"])
        #expect(daemon.log.contains("notify-sched: resumed from suspend; planning again"))
    }
}
