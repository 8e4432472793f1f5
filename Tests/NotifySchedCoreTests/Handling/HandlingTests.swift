import NotifySchedCore
import NotifySchedTesting
import Testing

/// The handling scenarios of DESIGN §5 and seed semantics §5 (items 20–29, 38–41, 49–56),
/// against a recording notifier. The same scenarios run on a real bus in DesktopDeliveryTests.
@Suite struct HandlingTests {
    let notifier = RecordingNotifier()

    /// A handler that knows `occurrences` and records its outcomes into `sink`.
    func handler(
        _ occurrences: [DeliveredOccurrence], policy: HandlingPolicy = HandlingPolicy(), sink: OutcomeSink
    ) -> HandlingHarness {
        let handler = HandlingHarness(
            policy: policy, notifier: notifier, lookup: { id in occurrences.first { $0.id == id } },
            now: { Occurrences.moment })
        handler.onOutcome = { sink.outcomes.append($0) }
        return handler
    }

    // MARK: ZBiM handleLocalNotification semantics

    @Test func aNotificationNotifySchedDidNotDeliverIsNotHandledAndNothingHappens() {
        let sink = OutcomeSink()
        let handler = handler([Occurrences.make(.zbim, url: "https://example.org")], sink: sink)
        #expect(!handler.handle("someone-else"))
        #expect(!handler.handle(nil, showAlert: false))
        #expect(!handler.canHandle("someone-else"))
        #expect(notifier.calls == [])
        #expect(sink.outcomes == [])
        #expect(sink.state() == HandlingState())
    }

    @Test func canHandleAnswersWithoutSideEffects() {
        let sink = OutcomeSink()
        let handler = handler([Occurrences.make(.zbim, url: "https://example.org")], sink: sink)
        #expect(handler.canHandle("occ-1"))
        #expect(notifier.calls == [])
        #expect(sink.outcomes == [])
    }

    @Test func showAlertDefaultsToTrueAndPromptsBeforeActing() {
        let sink = OutcomeSink()
        let handler = handler([Occurrences.make(.zbim, url: "https://example.org/hub")], sink: sink)
        #expect(handler.handle("occ-1"))
        #expect(notifier.shownPopups.map(\.isResident) == [true])
        #expect(notifier.openedURLs == [], "nothing opens before the user answers")
        #expect(sink.outcomes == [])

        notifier.answer(.action("open"))
        #expect(notifier.openedURLs == ["https://example.org/hub"])
        #expect(
            sink.outcomes == [
                HandlingOutcome(
                    occurrence: Occurrences.make(.zbim, url: "https://example.org/hub"), origin: .prompt,
                    response: .action("open"),
                    choice: .open, opened: Occurrences.url("https://example.org/hub"), change: .viewed)
            ])
        #expect(sink.state()["feed"].viewed == ["2011/02/01"], "the ZBiM uuid is marked when acted on")
    }

    @Test func declinedOrClosedPromptsOpenNothing() {
        let sink = OutcomeSink()
        let handler = handler([Occurrences.make(.zbim, url: "https://example.org/hub")], sink: sink)
        handler.handle("occ-1")
        notifier.answer(.closed(.dismissed))
        handler.handle("occ-1")
        notifier.answer(.action("ignore"))
        #expect(notifier.openedURLs == [])
        #expect(sink.outcomes.map(\.choice) == [nil, .ignore])
        #expect(sink.state()["feed"].ignored == ["2011/02/01"])
        #expect(sink.state()["feed"].viewed == [])
    }

    @Test func withoutAlertTheActionRunsAtOnceWithNoPrompt() {
        let sink = OutcomeSink()
        let handler = handler([Occurrences.make(.zbim, url: "https://example.org/hub")], sink: sink)
        #expect(handler.handle("occ-1", showAlert: false))
        #expect(notifier.calls == [.open("https://example.org/hub")])
        #expect(sink.outcomes.map(\.opened) == [Occurrences.url("https://example.org/hub")])
        #expect(sink.outcomes.map(\.response) == [nil])
    }

    @Test func aClickOnTheScheduledPopupOrItsButtonActsAtOnce() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        notifier.answer(.action("default"))
        try handler.deliver(occurrence)
        notifier.answer(.action("open"))
        #expect(notifier.shownPopups.count == 2, "no prompt comes between the click and the action")
        #expect(notifier.openedURLs == ["https://example.org/notes", "https://example.org/notes"])
    }

    @Test func aScheduledPopupThatClosesMarksNothing() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.zbim, url: "https://example.org/hub")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        notifier.answer(.closed(.expired))
        #expect(sink.outcomes == [HandlingOutcome(occurrence: occurrence, origin: .popup, response: .closed(.expired))])
        #expect(sink.state() == HandlingState(), "ZBiM marks a notification on tap, not on delivery")
    }

    // MARK: Feed changes (DESIGN §5)

    @Test func aChangedEntryReplacesItsPopupInPlaceAndItsAnswerUsesTheNewContent() throws {
        let sink = OutcomeSink()
        let before = Occurrences.make(.native, title: "Old", url: "https://example.org/old")
        let after = Occurrences.make(.native, title: "New", url: "https://example.org/new")
        let handler = handler([before], sink: sink)
        try handler.deliver(before)
        #expect(try handler.replace(after))
        #expect(notifier.calls.count == 2)
        guard case .replace(let popup) = notifier.calls.last else {
            Issue.record("the popup must be replaced, not shown again: \(notifier.calls)")
            return
        }
        #expect(popup.summary == "New" && popup.occurrenceID == after.id)
        #expect(handler.onScreen[after.id] == after)
        notifier.answer(.action("open"))
        #expect(notifier.openedURLs == ["https://example.org/new"])
        #expect(handler.onScreen.isEmpty, "an answered popup is no longer on screen")
        #expect(try !handler.replace(after), "a popup that was answered is not shown again")
        #expect(notifier.calls.count == 3)
    }

    @Test func aNewerOccurrenceOfAnEntryReplacesItsUnansweredPopupInsteadOfStacking() throws {
        let sink = OutcomeSink()
        let news = NewsHandling(contentHash: "tip")
        let first = Occurrences.make(.iSmartNews, id: "occ-1", entry: "tip", url: "https://example.org/a", news: news)
        let second = Occurrences.make(.iSmartNews, id: "occ-2", entry: "tip", url: "https://example.org/a", news: news)
        let other = Occurrences.make(.iSmartNews, id: "occ-3", entry: "other", news: NewsHandling(contentHash: "o"))
        let handler = handler([first, second, other], sink: sink)
        #expect(try handler.deliver(first) == nil)
        #expect(try handler.deliver(other) == nil, "another entry's popup is its own")
        #expect(try handler.deliver(second) == first.id)
        guard case .replace(let popup) = notifier.calls.last else {
            Issue.record("the popup must be replaced, not shown again: \(notifier.calls)")
            return
        }
        #expect(popup.occurrenceID == second.id)
        #expect(notifier.shownPopups.count == 2)
        #expect(Set(handler.onScreen.keys) == [second.id, other.id])
        // The popup on screen answers for the newer occurrence.
        #expect(try !handler.replace(first), "the earlier occurrence is no longer on screen")
        notifier.answer(.action(UserChoice.cancel.rawValue))
        notifier.answer(.action(UserChoice.open.rawValue))
        #expect(sink.outcomes.map(\.occurrence.id).sorted() == [second.id, other.id])
    }

    /// With no server, a newer occurrence cannot replace its entry's popup: the earlier one is
    /// gone for handling, and the notifier lets go of it too, so that a server that comes back
    /// does not show it again with nobody to hear its buttons.
    @Test func aReplacementThatNoServerTakesLetsGoOfTheEarlierPopup() throws {
        let first = Occurrences.make(.native, id: "occ-1", entry: "tip", url: "https://example.org/a")
        let second = Occurrences.make(.native, id: "occ-2", entry: "tip", url: "https://example.org/a")
        let handler = handler([first, second], sink: OutcomeSink())
        try handler.deliver(first)
        notifier.server = nil
        #expect(throws: CoreError.self) { try handler.deliver(second) }
        #expect(handler.onScreen.isEmpty)
        #expect(notifier.waitingKeys.isEmpty, "the notifier holds no popup handling does not")
    }

    @Test func aWithdrawnEntryClosesItsPopupAndNothingIsHandled() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        #expect(handler.withdraw(occurrenceID: occurrence.id))
        #expect(notifier.calls.last == .close(.scheduled(occurrence.id)))
        #expect(!handler.withdraw(occurrenceID: occurrence.id), "a popup closes once")
        #expect(sink.outcomes == [])
        #expect(sink.state() == HandlingState())
    }

    @Test func aZBiMEntryWithoutURIIsAcknowledgedWithOKAlone() {
        let sink = OutcomeSink()
        let handler = handler([Occurrences.make(.zbim)], sink: sink)
        handler.handle("occ-1")
        #expect(notifier.shownPopups.map(\.buttons) == [[PopupButton(key: "ok", label: "OK")]])
        notifier.answer(.action("ok"))
        #expect(notifier.openedURLs == [])
        #expect(sink.outcomes.map(\.change) == [.viewed])
    }

    // MARK: URLs that cannot be opened

    @Test func aURLNothingOpensIsAFailureAndNothingIsMarkedViewed() {
        let sink = OutcomeSink()
        notifier.unopenable = ["mailto:news@example.org"]
        let handler = handler([Occurrences.make(.iNotify, url: "mailto:news@example.org")], sink: sink)
        handler.handle("occ-1", showAlert: false)
        let outcome = sink.outcomes.first
        #expect(outcome?.failure?.code == .cannotOpen)
        #expect(
            outcome?.failure?.message == "cannot open mailto:news@example.org: no application handles mailto URLs")
        #expect(outcome?.opened == nil)
        #expect(outcome?.change == nil)
        #expect(sink.state() == HandlingState())
    }

    @Test func anINotifyMessageWhoseURLNothingOpensIsNotShownAndChangesNothing() {
        let sink = OutcomeSink()
        notifier.unopenable = ["mailto:news@example.org"]
        let occurrence = Occurrences.make(.iNotify, url: "mailto:news@example.org")
        let handler = handler([occurrence], sink: sink)
        #expect(
            throws: CoreError(.cannotOpen, "not showing occ-1: nothing opens its action URL mailto:news@example.org")
        ) {
            try handler.deliver(occurrence)
        }
        #expect(notifier.calls == [])
        #expect(sink.state() == HandlingState())
    }

    @Test func aSchemeTheHandlerDoesNotAllowIsRefusedBeforeAnythingOpens() {
        let sink = OutcomeSink()
        let gopher = DeliveredOccurrence(
            id: "occ-1", source: "feed", entryID: "k", dialect: .iNotify,
            content: NotificationContent(
                title: "T", body: "",
                action: NotificationAction(
                    label: nil, url: try! ActionURL("gopher://example.org", policy: URLPolicy(extraSchemes: ["gopher"]))
                )),
            deliveredAt: Occurrences.moment)
        let handler = handler([gopher], sink: sink)
        handler.handle("occ-1", showAlert: false)
        #expect(notifier.calls == [])
        #expect(
            sink.outcomes.first?.failure
                == CoreError(
                    .cannotOpen,
                    "not opening gopher://example.org: the URL scheme \"gopher:\" is not allowed (allowed: http, https, mailto)"
                ))
        #expect(sink.state() == HandlingState())
    }

    @Test func aServerWithoutButtonsCannotAskAndSaysWhatToRunInstead() {
        let sink = OutcomeSink()
        notifier.server?.capabilities = ["body"]
        let handler = handler([Occurrences.make(.native, url: "https://example.org")], sink: sink)
        #expect(handler.handle("occ-1"))
        #expect(notifier.calls == [])
        #expect(sink.outcomes.first?.failure?.code == .cannotAsk)
        #expect(
            sink.outcomes.first?.failure?.message
                == "the notification server (recording) shows no buttons, so it cannot ask; run `notify-sched handle occ-1 --no-alert` to act at once"
        )
    }

    @Test func noServerMeansThePromptCannotBeShown() {
        let sink = OutcomeSink()
        notifier.server = nil
        let handler = handler([Occurrences.make(.native)], sink: sink)
        #expect(handler.handle("occ-1"))
        #expect(sink.outcomes.first?.failure?.code == .cannotShow)
    }

    // MARK: iNotify button state changes (seed semantics §1.7)

    @Test func iNotifyActionAppendsToViewedClearsTheReminderAndOpensTheURL() {
        let sink = OutcomeSink()
        let start = HandlingState(sources: [
            "feed": SourceHandlingState(viewed: ["old"], lastReminded: Occurrences.moment)
        ])
        let handler = handler([Occurrences.make(.iNotify, url: "https://example.org/get")], sink: sink)
        handler.handle("occ-1")
        notifier.answer(.action("open"))
        #expect(sink.state(from: start)["feed"] == SourceHandlingState(viewed: ["old", "2011/02/01"]))
        #expect(notifier.openedURLs == ["https://example.org/get"])
    }

    @Test func iNotifyRemindSetsTheReminderTimeAndLeavesTheListsAlone() {
        let sink = OutcomeSink()
        let start = HandlingState(sources: ["feed": SourceHandlingState(viewed: ["a"], ignored: ["b"])])
        let handler = handler([Occurrences.make(.iNotify, url: "https://example.org/get")], sink: sink)
        handler.handle("occ-1")
        notifier.answer(.action("remind"))
        #expect(
            sink.state(from: start)["feed"]
                == SourceHandlingState(viewed: ["a"], ignored: ["b"], lastReminded: Occurrences.moment))
        #expect(notifier.openedURLs == [])
    }

    @Test func iNotifyIgnoreAppendsToIgnoredAndClearsTheReminder() {
        let sink = OutcomeSink()
        let start = HandlingState(sources: ["feed": SourceHandlingState(lastReminded: Occurrences.moment)])
        let handler = handler([Occurrences.make(.iNotify, url: "https://example.org/get")], sink: sink)
        handler.handle("occ-1")
        notifier.answer(.action("ignore"))
        #expect(sink.state(from: start)["feed"] == SourceHandlingState(ignored: ["2011/02/01"]))
    }

    @Test func iNotifyOKWithoutURLMarksViewedWithoutOpening() {
        let sink = OutcomeSink()
        let start = HandlingState(sources: ["feed": SourceHandlingState(lastReminded: Occurrences.moment)])
        let handler = handler([Occurrences.make(.iNotify)], sink: sink)
        handler.handle("occ-1")
        notifier.answer(.action("ok"))
        #expect(sink.state(from: start)["feed"] == SourceHandlingState(viewed: ["2011/02/01"]))
        #expect(notifier.openedURLs == [])
    }

    @Test func iNotifyListsAreAppendedWithoutRemovingDuplicatesAsTheOriginalDoes() {
        var state = HandlingState()
        let occurrence = Occurrences.make(.iNotify)
        state.apply(.viewed, to: occurrence, at: Occurrences.moment)
        state.apply(.viewed, to: occurrence, at: Occurrences.moment)
        #expect(state["feed"].viewed == ["2011/02/01", "2011/02/01"])
    }

    // MARK: iSmartNews marking (seed semantics §2.4)

    @Test(arguments: [
        // repeats, always, button → marked shown
        (false, false, "open", true), (false, false, "cancel", true),
        (true, false, "open", true), (true, false, "cancel", false),
        (false, true, "open", false), (false, true, "cancel", false),
        (true, true, "open", false), (true, true, "cancel", false),
    ])
    func iSmartNewsMarksShownByItsButtonRules(repeats: Bool, always: Bool, button: String, marked: Bool) throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(
            .iSmartNews, url: "https://example.org/news",
            news: NewsHandling(repeats: repeats, always: always, contentHash: "md5-of-message"))
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        notifier.answer(.action(button))
        #expect(sink.state()["feed"].shownNews == (marked ? ["md5-of-message"] : []))
        #expect(notifier.openedURLs == (button == "open" ? ["https://example.org/news"] : []))
    }

    @Test func anISmartNewsPopupClosedWithoutAButtonIsNotMarked() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.iSmartNews, news: NewsHandling(contentHash: "h"))
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        notifier.answer(.closed(.expired))
        #expect(sink.state() == HandlingState())
    }

    @Test func iSmartNewsMetaItemsNeverEnterTheShownSetButTheirClosingIsNoted() throws {
        // seed semantics §2.8: a meta item is put away by its own rules (oncePerVersion,
        // oncePerInstall), which read how it was closed; the classic "shown" cache never has it.
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(
            .iSmartNews, url: "https://example.org", news: NewsHandling(contentHash: "h", isClassic: false))
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        notifier.answer(.action("open"))
        let state = sink.state()[occurrence.source]
        #expect(state.shownNews.isEmpty)
        #expect(state.metaClosings[occurrence.entryID]?.keys.sorted { $0.rawValue < $1.rawValue } == [.ok])
        #expect(notifier.openedURLs == ["https://example.org"])
    }

    // MARK: The prompt's life cycle

    @Test func theScheduledPopupClosingWhileThePromptIsUpLeavesThePromptWaiting() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        handler.handle(occurrence.id)
        notifier.answer(.scheduled(occurrence.id), .closed(.expired))
        #expect(notifier.waitingKeys == [.prompt(occurrence.id)], "the prompt stays")
        #expect(sink.outcomes.map(\.endsHandling) == [false], "the popup's closing does not end handle")
        notifier.answer(.prompt(occurrence.id), .action("open"))
        #expect(sink.outcomes.last?.origin == .prompt)
        #expect(sink.outcomes.last?.endsHandling == true)
        #expect(notifier.openedURLs == ["https://example.org/notes"])
    }

    @Test func anAnswerOnThePromptClosesTheOccurrencesScheduledPopup() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.iNotify, url: "https://example.org/update")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        handler.handle(occurrence.id)
        notifier.answer(.prompt(occurrence.id), .action(UserChoice.remindLater.rawValue))
        #expect(notifier.calls.last == .close(.scheduled(occurrence.id)), "its buttons would act a second time")
        #expect(notifier.waitingKeys == [])
        #expect(handler.onScreen.isEmpty && handler.prompts.isEmpty)
    }

    @Test func aDismissedPromptLeavesTheScheduledPopupOnScreen() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        handler.handle(occurrence.id)
        notifier.answer(.prompt(occurrence.id), .closed(.dismissed))
        #expect(notifier.waitingKeys == [.scheduled(occurrence.id)], "nothing was answered")
        #expect(sink.outcomes.map(\.origin) == [.prompt])
    }

    @Test func anAnswerOnTheScheduledPopupClosesThePromptAboutIt() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        handler.handle(occurrence.id)
        notifier.answer(.scheduled(occurrence.id), .action("default"))
        #expect(notifier.calls.last == .close(.prompt(occurrence.id)))
        #expect(notifier.waitingKeys == [])
        #expect(sink.outcomes.map(\.endsHandling) == [true], "handle ends with the popup's answer")
    }

    @Test func aSecondHandleOfAnOccurrenceWaitsForThePromptAlreadyUp() {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        #expect(handler.handle(occurrence.id))
        #expect(handler.handle(occurrence.id))
        #expect(notifier.shownPopups.map(\.role) == [.prompt], "one prompt")
    }

    @Test func handlingWithoutAlertClosesTheScheduledPopup() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        try handler.deliver(occurrence)
        handler.handle(occurrence.id, showAlert: false)
        #expect(sink.outcomes.map(\.origin) == [.atOnce])
        #expect(notifier.calls.last == .close(.scheduled(occurrence.id)))
    }

    @Test func aPromptIsTakenOverInPlaceAndItsAnswerIsHandled() throws {
        let sink = OutcomeSink()
        let occurrence = Occurrences.make(.native, url: "https://example.org/notes")
        let handler = handler([occurrence], sink: sink)
        try handler.takeOverPrompt(about: occurrence, popupID: 7)
        #expect(notifier.shownPopups.map(\.role) == [.prompt])
        notifier.answer(.prompt(occurrence.id), .action("ignore"))
        #expect(sink.outcomes.map(\.change) == [.ignored])
    }

    // MARK: From the feed to the handler

    @Test func anINotifyEntryFromAFeedIsHandledByItsKey() throws {
        let feed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>2026/03/01</key><dict>
                <key>Title</key><string>Update</string>
                <key>ActionURL</key><string>https://example.org/update</string>
              </dict>
            </dict></plist>
            """
        let entry = try #require(parse(feed).schedule?.entries.first)
        let occurrence = DeliveredOccurrence(
            id: "occ-9", entry: entry, source: "inotify.plist", deliveredAt: Occurrences.moment)
        let sink = OutcomeSink()
        let handler = handler([occurrence], sink: sink)
        handler.handle("occ-9")
        #expect(notifier.shownPopups.first?.buttons.map(\.label) == ["More Info", "Remind Me Later", "Ignore"])
        notifier.answer(.action("ignore"))
        #expect(sink.state()["inotify.plist"].ignored == ["2026/03/01"])
    }
}

/// Collects outcomes; a class so the handler's closure and the test see the same list.
final class OutcomeSink {
    var outcomes: [HandlingOutcome] = []

    /// The handling state after the outcomes, from `start`, each change applied as the state
    /// database records it (`StateStore.recordHandling`).
    func state(from start: HandlingState = HandlingState()) -> HandlingState {
        outcomes.reduce(into: start) { state, outcome in
            guard let change = outcome.change else { return }
            state.apply(change, to: outcome.occurrence, at: Occurrences.moment, remindUntil: outcome.remindUntil)
        }
    }
}
