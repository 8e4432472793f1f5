import NotifySchedCore
import Testing

/// What an id typed at `notify-sched handle` names: an occurrence id, or an entry id for its
/// latest delivered occurrence.
@Suite struct OccurrenceLookupTests {
    private func candidate(_ id: String, _ source: String, _ entry: String, at seconds: Int64)
        -> OccurrenceLookup.Candidate
    {
        OccurrenceLookup.Candidate(
            occurrenceID: id, source: source, entryID: entry, occurrence: Instant(secondsSinceEpoch: seconds))
    }

    @Test func anOccurrenceIdNamesItsOccurrenceEvenWhenAnEntryHasThatIdToo() {
        let candidates = [candidate("later", "a", "x", at: 20), candidate("o1", "b", "later", at: 30)]
        #expect(OccurrenceLookup("later", candidates: candidates) == .found(occurrenceID: "later"))
    }

    @Test func anEntryIdNamesTheLatestOccurrenceOfThatEntry() {
        let candidates = [candidate("o1", "a", "daily", at: 10), candidate("o2", "a", "daily", at: 20)]
        #expect(OccurrenceLookup("daily", candidates: candidates) == .found(occurrenceID: "o2"))
    }

    @Test func anEntryIdOfSeveralSourcesIsAmbiguousAndTheProblemNamesEachOccurrence() throws {
        let candidates = [candidate("o1", "a", "daily", at: 10), candidate("o2", "b", "daily", at: 20)]
        let lookup = OccurrenceLookup("daily", candidates: candidates)
        #expect(lookup == .ambiguous([candidates[1], candidates[0]]), "the latest first")
        let problem = try #require(lookup.problem(with: "daily", catalog: .english))
        #expect(problem.contains("o1 (a, ") && problem.contains("o2 (b, "), "\(problem)")
        #expect(problem.contains("nothing was done"))
    }

    @Test func anIdThatNamesNothingSaysWhereTheIdsAre() throws {
        let lookup = OccurrenceLookup("nd-url", candidates: [])
        #expect(lookup == .notFound)
        let problem = try #require(lookup.problem(with: "nd-url", catalog: .english))
        #expect(problem.hasPrefix("notify-sched: nd-url: not a notification notify-sched delivered"))
        #expect(problem.contains("`notify-sched list` shows each entry's last occurrence id"))
    }
}
