import NotifySchedCore
import NotifySchedTesting
import Testing

/// The snooze buttons of native and ZBiM popups and prompts: where they go on each server, what
/// pressing one does, and what is never taken for one.
@Suite struct SnoozeButtonTests {
    private static func server(_ name: String, _ vendor: String = "tests") -> NotificationServer {
        NotificationServer(
            name: name, vendor: vendor, version: "1", specVersion: "1.2", capabilities: ["actions", "body"])
    }

    private static let gnomeShell = server("gnome-shell", "GNOME")
    private static let xfce = server("Xfce Notify Daemon", "Xfce")
    private static let dunst = server("dunst", "knopwob")
    private static let notificationDaemon = server("Notification Daemon", "GNOME")
    private let linked = Occurrences.make(.native, url: "https://example.org/standup")

    @Test func aPopupGetsTheSnoozeButtonsThatFitAfterItsOwn() {
        let policy = HandlingPolicy()
        let keys = { (occurrence: DeliveredOccurrence, server: NotificationServer) in
            policy.scheduledPopup(for: occurrence, on: server).buttons.map(\.key)
        }
        #expect(keys(linked, Self.gnomeShell) == ["open", "snooze-600", "snooze-3600"], "GNOME Shell draws three")
        #expect(keys(linked, Self.xfce) == ["open", "snooze-600", "snooze-3600", "snooze-tomorrow"])
        #expect(keys(linked, Self.notificationDaemon) == ["open", "snooze-600", "snooze-3600", "snooze-tomorrow"])
        let plain = Occurrences.make(.zbim)
        #expect(keys(plain, Self.gnomeShell) == ["snooze-600", "snooze-3600", "snooze-tomorrow"])
        #expect(
            keys(plain, Self.xfce) == ["ok", "snooze-600", "snooze-3600", "snooze-tomorrow"],
            "where the click on the popup is left out, OK acknowledges it and comes first")
        #expect(policy.scheduledPopup(for: plain, on: Self.dunst).hasDefaultAction)
    }

    @Test func thePromptOffersThemInPlaceOfRemindMeLaterOnlyWhenAllFit() {
        let labels = { (policy: HandlingPolicy, server: NotificationServer) in
            policy.prompt(for: linked, on: server).buttons.map(\.label)
        }
        #expect(labels(HandlingPolicy(), Self.xfce) == ["More Info", "In 10min", "In 1h", "Tomorrow", "Ignore"])
        #expect(
            labels(HandlingPolicy(), Self.gnomeShell) == ["More Info", "Remind Me Later", "Ignore"],
            "ZBiM's three buttons rather than part of the choices")
        let one = HandlingPolicy(snoozeChoices: [.after(.minutes(5))])
        #expect(labels(one, Self.gnomeShell) == ["More Info", "In 5min", "Ignore"])
        #expect(
            HandlingPolicy().prompt(for: Occurrences.make(.native), on: Self.xfce).buttons.map(\.key) == ["ok"],
            "a prompt without an action asks only for OK")
    }

    @Test func theLabelsAreInTheUsersLanguage() {
        let policy = HandlingPolicy(catalog: HandlingPolicyTests.catalog(locale: "fr_FR.UTF-8"))
        #expect(
            policy.prompt(for: linked, on: Self.xfce).buttons.map(\.label)
                == ["Plus d'info", "Dans 10min", "Dans 1h", "Demain", "Ignorer"])
    }

    @Test func iNotifyISmartNewsAndTestPopupsOfferNone() {
        let policy = HandlingPolicy()
        var test = linked
        test.source = DeliveredOccurrence.testSource
        let others = [
            Occurrences.make(.iNotify, url: "https://example.org"), Occurrences.make(.iSmartNews, url: "https://a.org"),
            test,
        ]
        for occurrence in others {
            let buttons =
                policy.scheduledPopup(for: occurrence, on: Self.xfce).buttons
                + policy.prompt(for: occurrence, on: Self.xfce).buttons
            #expect(!buttons.contains { $0.key.hasPrefix("snooze-") }, "\(occurrence.dialect) \(occurrence.source)")
        }
    }

    @Test func pressingOneRemindsUntilItsEnd() {
        let policy = HandlingPolicy()
        for (key, snooze) in [("snooze-600", Snooze.after(.minutes(10))), ("snooze-tomorrow", .tomorrowMorning)] {
            #expect(
                policy.decision(for: .action(key), of: linked)
                    == Decision(choice: .remindLater, change: .reminded, snooze: snooze))
        }
    }

    /// What the server reports is not proof notify-sched sent it: a key out of bounds, malformed,
    /// or for an occurrence that never had the button chooses nothing.
    @Test func anyOtherSnoozeKeyChoosesNothing() {
        let policy = HandlingPolicy()
        for key in [
            "snooze-", "snooze-0", "snooze--5", "snooze-1e3", "snooze-31622401", "snooze-99999999999999999999",
            "snooze-later", "snooze-600 ", "Snooze-600",
        ] {
            #expect(policy.decision(for: .action(key), of: linked) == Decision(), "\(key)")
        }
        #expect(policy.decision(for: .action("snooze-600"), of: Occurrences.make(.iNotify)) == Decision())
    }

    @Test func aButtonKeyReadsBackAsItsSnooze() {
        var generator = SplitMix64(seed: 0x5EED_B077)
        for _ in 0..<2_000 {
            let seconds = Int64.random(in: 1...Snooze.longest.microseconds / 1_000_000, using: &generator)
            let snooze = Snooze.after(.seconds(seconds))
            #expect(Snooze(buttonKey: snooze.buttonKey) == snooze, "seed 0x5EED_B077: \(seconds) s")
        }
        #expect(Snooze(buttonKey: Snooze.tomorrowMorning.buttonKey) == .tomorrowMorning)
    }

    /// The handler ends a snooze where the user is: tomorrow morning is 09:00 in the zone it is
    /// given, at the time the button was pressed.
    @Test func theHandlerEndsTomorrowMorningInTheUsersZone() throws {
        let paris = try ZoneRules(identifier: "CET", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
        let notifier = RecordingNotifier()
        let pressedAt = Instant(secondsSinceEpoch: 1_795_730_400)  // 2026-11-26T20:00:00Z
        let handler = HandlingHarness(
            notifier: notifier, lookup: { [linked] in $0 == linked.id ? linked : nil }, now: { pressedAt },
            zone: { paris })
        var outcomes: [HandlingOutcome] = []
        handler.onOutcome = { outcomes.append($0) }
        try handler.deliver(linked)
        notifier.answer(.scheduled(linked.id), .action("snooze-tomorrow"))
        #expect(outcomes.map(\.change) == [.reminded])
        #expect(outcomes.first?.remindUntil?.rfc3339 == "2026-11-27T08:00:00Z")
    }
}
