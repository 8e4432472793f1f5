import NotifySchedCore
import NotifySchedTesting
import Testing

/// `HandlingExecutor.deliverAll(_:then:)` against its oracle, `deliver(_:)` one occurrence
/// after the other: what the server is asked (in another order: a popup that replaces another
/// does not wait for the answers to new ones), what each occurrence comes to and what is left on
/// screen are the same, while new popups go to the notifier together, whether its answers come
/// at once or later.
@Suite struct DeliverAllTests {
    /// An occurrence among few entries and sources, so that batches meet their entries' popups
    /// on screen and each other; some iNotify ones have an action nothing opens.
    static func occurrence(_ index: Int, using generator: inout some RandomNumberGenerator) -> DeliveredOccurrence {
        let dialect: FeedDialect = Bool.random(using: &generator) ? .native : .iNotify
        let url = ["https://example.org/a", "https://example.org/unopenable", nil].randomElement(using: &generator)!
        return Occurrences.make(
            dialect, id: "occ-\(index)", entry: "entry-\(Int.random(in: 0..<6, using: &generator))",
            source: ["feed", "other"].randomElement(using: &generator)!, url: url)
    }

    static func handler(_ notifier: RecordingNotifier) -> HandlingHarness {
        HandlingHarness(
            policy: HandlingPolicy(), notifier: notifier, lookup: { _ in nil }, now: { Occurrences.moment })
    }

    /// What `deliverAll(_:then:)` reports once `notifier` gave every answer.
    static func deliverAll(
        _ occurrences: [DeliveredOccurrence], with handler: HandlingHarness, _ notifier: RecordingNotifier
    ) -> [Result<String?, CoreError>] {
        var results: [Result<String?, CoreError>]?
        handler.deliverAll(occurrences) { results = $0 }
        notifier.giveAnswers()
        return results ?? []
    }

    /// What each occurrence came to: the id it replaced, or the error's code.
    static func summary(_ result: Result<String?, CoreError>) -> String {
        switch result {
        case .success(let replaced): "shown" + (replaced.map { " in place of \($0)" } ?? "")
        case .failure(let error): error.code.rawValue
        }
    }

    @Test(arguments: 0..<40)
    func deliveringTogetherComesToWhatDeliveringOneByOneDoes(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        let together = RecordingNotifier()
        let oneByOne = RecordingNotifier()
        together.unopenable = ["https://example.org/unopenable"]
        oneByOne.unopenable = together.unopenable
        let batched = Self.handler(together)
        let sequential = Self.handler(oneByOne)
        var index = 0
        for _ in 0..<8 {
            let batch = (0..<Int.random(in: 1...7, using: &generator)).map { _ in
                index += 1
                return Self.occurrence(index, using: &generator)
            }
            together.holdsAnswers = Bool.random(using: &generator)
            let results = Self.deliverAll(batch, with: batched, together).map(Self.summary)
            let expected = batch.map { occurrence in
                Self.summary(Result { () throws(CoreError) in try sequential.deliver(occurrence) })
            }
            #expect(results == expected, "seed \(seed)")
        }
        #expect(
            together.calls.map { "\($0)" }.sorted() == oneByOne.calls.map { "\($0)" }.sorted(), "seed \(seed)")
        #expect(batched.onScreen.keys.sorted() == sequential.onScreen.keys.sorted(), "seed \(seed)")
    }

    @Test func newPopupsOfDistinctEntriesGoToTheNotifierTogether() {
        let notifier = RecordingNotifier()
        let handler = Self.handler(notifier)
        let first = (1...3).map { Occurrences.make(.native, id: "occ-\($0)", entry: "entry-\($0)") }
        _ = Self.deliverAll(first, with: handler, notifier)
        // A later occurrence of entry-2 replaces its popup alone, at once; occ-4 and occ-6 go
        // together, and occ-7 replaces occ-6's popup once the server answered them.
        let second = [
            Occurrences.make(.native, id: "occ-4", entry: "entry-4"),
            Occurrences.make(.native, id: "occ-5", entry: "entry-2"),
            Occurrences.make(.native, id: "occ-6", entry: "entry-6"),
            Occurrences.make(.native, id: "occ-7", entry: "entry-6"),
        ]
        let results = Self.deliverAll(second, with: handler, notifier).map(Self.summary)
        #expect(results == ["shown", "shown in place of occ-2", "shown", "shown in place of occ-6"])
        #expect(notifier.sideBySide == [3, 2])
    }

    /// A popup that replaces an earlier one goes at once, whatever the server takes to answer
    /// the new ones due with it: only a second occurrence of an entry among them waits for the
    /// server's answer to the first.
    @Test func onlyASecondOccurrenceOfAnEntryInTheRunWaitsForTheServersAnswers() {
        let notifier = RecordingNotifier()
        let handler = Self.handler(notifier)
        _ = Self.deliverAll([Occurrences.make(.native, id: "occ-1", entry: "entry-1")], with: handler, notifier)
        notifier.holdsAnswers = true
        let occurrences = [
            Occurrences.make(.native, id: "occ-2", entry: "entry-2"),
            Occurrences.make(.native, id: "occ-3", entry: "entry-3"),
            Occurrences.make(.native, id: "occ-4", entry: "entry-1"),
            Occurrences.make(.native, id: "occ-5", entry: "entry-5"),
            Occurrences.make(.native, id: "occ-6", entry: "entry-2"),
        ]
        var results: [String]?
        handler.deliverAll(occurrences) { results = $0.map(Self.summary) }
        #expect(notifier.replacedPopups.map(\.occurrenceID) == ["occ-4"], "in place of occ-1, at once")
        #expect(notifier.shownPopups.map(\.occurrenceID) == ["occ-1", "occ-2", "occ-3", "occ-5"])
        #expect(results == nil)
        #expect(handler.onScreen["occ-2"] == nil)
        notifier.giveAnswers()
        #expect(notifier.replacedPopups.map(\.occurrenceID) == ["occ-4", "occ-6"], "occ-6 once occ-2 is on screen")
        #expect(results == ["shown", "shown", "shown in place of occ-1", "shown", "shown in place of occ-2"])
        #expect(notifier.sideBySide == [1, 3])
    }
}
