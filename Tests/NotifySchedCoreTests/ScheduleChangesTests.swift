import NotifySchedCore
import Testing

@Suite struct ScheduleChangesTests {
    /// The entries of a native feed whose `notifications` array holds `entries` (JSON objects).
    private func entries(_ entries: String...) throws -> [ScheduleEntry] {
        let result = parse("{\"notifications\": [\n" + entries.joined(separator: ",\n") + "\n]}")
        #expect(errors(result) == [])
        return try #require(result.schedule?.entries)
    }

    private func changes(_ old: [ScheduleEntry], _ new: [ScheduleEntry]) -> (
        added: [String], changed: [String], unchanged: [String], withdrawn: [String]
    ) {
        let changes = ScheduleChanges(from: old, to: new)
        return (
            changes.added.map { new[$0].id }, changes.changed.map { new[$0.new].id },
            changes.unchanged.map { new[$0.new].id }, changes.withdrawn.map { old[$0].id }
        )
    }

    @Test func entriesAreMatchedByIdAndSortedIntoAddedChangedAndWithdrawn() throws {
        let old = try entries(
            #"{"id": "a", "title": "Alpha", "fireDate": "2026-06-01T09:00:00Z"}"#,
            #"{"id": "b", "title": "Beta", "fireDate": "2026-06-02T09:00:00Z"}"#,
            #"{"id": "c", "title": "Gamma", "fireDate": "2026-06-03T09:00:00Z"}"#)
        let new = try entries(
            #"{"id": "c", "title": "Gamma", "fireDate": "2026-06-03T09:00:00Z"}"#,
            #"{"id": "a", "title": "Alpha, moved", "fireDate": "2026-06-01T09:00:00Z"}"#,
            #"{"id": "d", "title": "Delta"}"#)
        let result = changes(old, new)
        #expect(result.added == ["d"])
        #expect(result.changed == ["a"])
        #expect(result.unchanged == ["c"], "an entry that only moved in the feed is unchanged")
        #expect(result.withdrawn == ["b"])
        #expect(
            ScheduleChanges(from: old, to: new).changed == [ScheduleChanges.Match(old: 0, new: 1)],
            "a match gives both positions")
    }

    @Test func aNewTriggerOrLatenessIsAChangeButTheSameFeedIsNone() throws {
        let base = #"{"id": "a", "title": "Alpha", "fireDate": "2026-06-01T09:00:00Z""#
        let old = try entries(base + "}")
        #expect(ScheduleChanges(from: old, to: try entries(base + "}")).isEmpty)
        #expect(changes(old, try entries(base + #", "repeatInterval": "day"}"#)).changed == ["a"])
        #expect(changes(old, try entries(base + #", "maxLateness": "1h"}"#)).changed == ["a"])
        #expect(
            changes(old, try entries(#"{"id": "a", "title": "Alpha", "fireDate": "2026-06-01T10:00:00Z"}"#)).changed
                == ["a"])
        #expect(
            changes(old, try entries(base + #", "action": "https://example.org/a"}"#)).changed == ["a"],
            "a new action is a change of content")
    }

    @Test func aFirstLoadAddsEverythingAndAnEmptyFeedWithdrawsEverything() throws {
        let feed = try entries(#"{"id": "a", "title": "Alpha"}"#, #"{"id": "b", "title": "Beta"}"#)
        #expect(changes([], feed).added == ["a", "b"])
        #expect(changes(feed, []).withdrawn == ["a", "b"])
    }

    @Test func aRepeatedIdMatchesItsFirstEntryOnly() throws {
        let old = [
            try entries(#"{"id": "a", "title": "First"}"#)[0], try entries(#"{"id": "a", "title": "Second"}"#)[0],
        ]
        let new = [old[0], old[0]]
        let result = ScheduleChanges(from: old, to: new)
        #expect(result.unchanged == [ScheduleChanges.Match(old: 0, new: 0)])
        #expect(result.added == [1])
        #expect(result.withdrawn == [1])
    }
}
