import NotifySchedCore
import Testing

@Suite struct ScreenPlanTests {
    private let deliveredAt = instant("2026-11-26T09:00:00Z")

    private func entries(_ json: String) throws -> [ScheduleEntry] {
        try #require(parse(#"{"notifications": [\#(json)]}"#).schedule).entries
    }

    private func shown(_ entry: ScheduleEntry, source: String = "feed.json") -> DeliveredOccurrence {
        DeliveredOccurrence(id: "\(source)#\(entry.id)", entry: entry, source: source, deliveredAt: deliveredAt)
    }

    @Test func changedEntryIsShownInPlaceUnderItsOccurrenceAndWithdrawnOneClosed() throws {
        let old = try entries(
            #"{"id": "a", "title": "Before"}, {"id": "b", "title": "Gone"}, {"id": "c", "title": "Same"}"#)
        let new = try entries(#"{"id": "c", "title": "Same"}, {"id": "a", "title": "After"}"#)
        let onScreen = old.map { shown($0) }
        let plan = ScreenPlan.afterFeedChange(
            ScheduleChanges(from: old, to: new), old: old, new: new, source: "feed.json", onScreen: onScreen)
        #expect(
            plan == [
                .replace(
                    DeliveredOccurrence(
                        id: onScreen[0].id, entry: new[1], source: "feed.json", deliveredAt: deliveredAt)),
                .close(onScreen[1]),
            ])
    }

    @Test func popupsOfOtherSourcesAreLeftAlone() throws {
        let old = try entries(#"{"id": "a", "title": "Before"}"#)
        let new = try entries(#"{"id": "a", "title": "After"}"#)
        let plan = ScreenPlan.afterFeedChange(
            ScheduleChanges(from: old, to: new), old: old, new: new, source: "feed.json",
            onScreen: [shown(old[0], source: "other.json")])
        #expect(plan.isEmpty)
    }

    @Test func newDaemonTakesOverOnlyPopupsItDoesNotShowWhoseEntryIsStillInTheFeed() throws {
        let feed = try entries(#"{"id": "a", "title": "A"}, {"id": "b", "title": "B"}"#)
        let gone = try entries(#"{"id": "gone", "title": "Gone"}"#)[0]
        let candidates = [
            PopupOnServer(shown(feed[0]), popupID: 7), PopupOnServer(shown(feed[1]), popupID: 8),
            PopupOnServer(shown(gone), popupID: 9), PopupOnServer(shown(feed[0], source: "unread.json"), popupID: 10),
        ]
        let chosen = ScreenPlan.takeOver(
            candidates, shownAlready: [shown(feed[1]).id], entries: ["feed.json": feed])
        #expect(chosen.map(\.popupID) == [7])
    }
}
