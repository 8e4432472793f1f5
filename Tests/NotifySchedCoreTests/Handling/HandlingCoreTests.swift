import NotifySchedCore
import Testing

/// Handling's decisions as values: each event and the effects it comes to, with no notifier.
/// The same scenarios run through a notifier in HandlingTests and on a real bus in
/// DesktopDeliveryTests.
@Suite struct HandlingCoreTests {
    let hub = Occurrences.make(.zbim, url: "https://example.org/hub")
    let server = NotificationServer(
        name: "mock", vendor: "test", version: "1", specVersion: "1.2", capabilities: ["actions", "body"])

    private func handling(_ policy: HandlingPolicy = HandlingPolicy()) -> HandlingCore {
        HandlingCore(policy: policy)
    }

    private func take(_ event: HandlingEvent, _ core: inout HandlingCore) -> [HandlingEffect] {
        core.handle(event, at: Occurrences.moment, in: .utc)
    }

    @Test func aHandleWithAlertAsksOnceAndASecondWaitsForThePromptAlreadyUp() {
        var core = handling()
        #expect(take(.handleRequested(hub, showAlert: true, server: server), &core) == [.showPrompt(hub)])
        core.note(.promptShown(hub))
        #expect(core.prompts[hub.id] == hub)
        #expect(take(.handleRequested(hub, showAlert: true, server: server), &core) == [])
    }

    @Test func anAnsweredPromptOpensTheURLThenClosesThePopupAndEnds() {
        var core = handling()
        core.note(.popupShown(hub, replacing: nil))
        core.note(.promptShown(hub))
        let opened = HandlingOutcome(
            occurrence: hub, origin: .prompt, response: .action("open"), choice: .open,
            opened: Occurrences.url("https://example.org/hub"), change: .viewed)
        #expect(
            take(.answered(hub, .prompt, .action("open")), &core)
                == [.openURL(Occurrences.url("https://example.org/hub"), then: opened)])
        #expect(core.prompts.isEmpty)
        #expect(take(.urlOpened(opened, failure: nil), &core) == [.close(.scheduled(hub.id)), .finished(opened)])
        #expect(core.popups.isEmpty, "the scheduled popup would only act a second time")
    }

    @Test func aURLNothingOpensEndsWithTheFailureItsCauseAndNoChange() {
        var core = handling()
        let effects = take(.handleRequested(hub, showAlert: false, server: nil), &core)
        guard case .openURL(_, let pending) = effects.first else {
            Issue.record("expected the URL to be opened first, got \(effects)")
            return
        }
        let cause = CoreError(.cannotOpen, "no handler", underlyingError: CoreError(.cannotOpen, "gio"))
        let finished = take(.urlOpened(pending, failure: cause), &core)
        guard case .finished(let outcome) = finished.last else {
            Issue.record("expected an outcome, got \(finished)")
            return
        }
        #expect(finished.count == 1, "an occurrence not answered closes nothing")
        #expect(outcome.failure?.code == .cannotOpen)
        #expect(outcome.failure?.message == "cannot open https://example.org/hub: no handler")
        #expect((outcome.failure?.underlyingError as? CoreError)?.message == "gio")
        #expect(outcome.opened == nil && outcome.change == nil && outcome.remindUntil == nil)
    }

    @Test func aSchemeThatIsNotAllowedIsNeverHandedToTheDesktop() {
        var core = handling()
        var gopher = hub
        gopher.content.action = NotificationAction(
            label: nil, url: try! ActionURL("gopher://example.org", policy: URLPolicy(extraSchemes: ["gopher"])))
        let effects = take(.handleRequested(gopher, showAlert: false, server: nil), &core)
        guard case .finished(let outcome) = effects.last, effects.count == 1 else {
            Issue.record("expected one outcome, got \(effects)")
            return
        }
        #expect(outcome.failure?.code == .cannotOpen)
        #expect(outcome.failure?.message.contains("the URL scheme \"gopher:\" is not allowed") == true)
        #expect(outcome.change == nil)
    }

    @Test func aServerWithoutButtonsCannotAskAndSaysHowToActAtOnce() {
        var core = handling()
        let plain = NotificationServer(
            name: "plain", vendor: "test", version: "1", specVersion: "1.2", capabilities: ["body"])
        let effects = take(.handleRequested(hub, showAlert: true, server: plain), &core)
        guard case .finished(let outcome) = effects.first else {
            Issue.record("expected an outcome, got \(effects)")
            return
        }
        #expect(outcome.failure?.code == .cannotAsk)
        #expect(outcome.failure?.message.contains("notify-sched handle \(hub.id) --no-alert") == true)
    }

    @Test func aPromptThatCouldNotBeShownEndsWithItsCause() {
        var core = handling()
        let cause = CoreError(.cannotShow, "nothing answers as org.freedesktop.Notifications")
        let effects = take(.promptFailed(hub, cause: cause), &core)
        guard case .finished(let outcome) = effects.first else {
            Issue.record("expected an outcome, got \(effects)")
            return
        }
        #expect(outcome.failure?.message == "cannot ask about notification occ-1: \(cause.message)")
        #expect(core.prompts.isEmpty)
    }

    @Test func aSnoozeRemindsUntilItEndsInTheUsersZoneAndClosesBothPopups() {
        var core = handling()
        core.note(.popupShown(hub, replacing: nil))
        let effects = take(.snoozeRequested(hub, .after(.minutes(10))), &core)
        let outcome = HandlingOutcome(
            occurrence: hub, origin: .atOnce, choice: .remindLater, change: .reminded,
            remindUntil: Occurrences.moment + .minutes(10))
        #expect(effects == [.close(.scheduled(hub.id)), .close(.prompt(hub.id)), .finished(outcome)])
    }

    @Test func aSnoozeOfAnINotifyMessageIsRefusedAndChangesNothing() {
        var core = handling()
        let message = Occurrences.make(.iNotify, url: "https://example.org")
        let effects = take(.snoozeRequested(message, .tomorrowMorning), &core)
        guard case .finished(let outcome) = effects.first, effects.count == 1 else {
            Issue.record("expected one outcome, got \(effects)")
            return
        }
        #expect(outcome.failure?.code == .cannotSnooze)
    }

    @Test func closingThePopupChoosesNothingAndLeavesThePromptUp() {
        var core = handling()
        core.note(.popupShown(hub, replacing: nil))
        core.note(.promptShown(hub))
        let effects = take(.answered(hub, .scheduled, .closed(.dismissed)), &core)
        #expect(effects == [.finished(HandlingOutcome(occurrence: hub, origin: .popup, response: .closed(.dismissed)))])
        #expect(core.popups.isEmpty)
        #expect(core.prompts[hub.id] == hub)
    }

    @Test func aNewPopupOfAnEntryTakesThePlaceOfItsEarlierOne() {
        var core = handling()
        var later = hub
        later.id = "occ-2"
        core.note(.popupShown(hub, replacing: nil))
        #expect(core.earlierOnScreen(later) == hub)
        core.note(.popupShown(later, replacing: hub.id))
        #expect(core.popups == [later.id: later])
        core.note(.popupGone(later.id))
        #expect(core.popups.isEmpty)
    }
}
