import NotifySchedCore
import Testing

@Suite struct SourceChecksTests {
    @Test func atMostTheLimitRunAndTheNextStartsWhenOneFinishes() {
        var checks = SourceChecks<String>(limit: 2)
        #expect(checks.start(due: [3, 1, 2]).check == [1, 2])
        #expect(checks.start(due: [3, 1, 2]).check == [], "1 and 2 run, and the limit is reached")
        #expect(checks.finished(1, "one").isEmpty)
        #expect(checks.start(due: [3]).check == [3])
        #expect(checks.running == [2, 3])
    }

    @Test func aSlowSourceHoldsBackNeitherTheOthersNorTheSyncBeyondItsOwnCheck() {
        var checks = SourceChecks<String>(limit: 4)
        let sync = checks.requestSync(of: [0, 1, 2])
        #expect(checks.start(due: []).check == [0, 1, 2])
        #expect(checks.finished(1, "fast").isEmpty)
        #expect(checks.finished(2, "fast too").isEmpty)
        let answered = checks.finished(0, "slow")
        #expect(answered.count == 1)
        #expect(answered.first?.sync == sync)
        #expect(answered.first?.reports == ["slow", "fast", "fast too"], "in the order of the sources")
        #expect(checks.running.isEmpty)
        #expect(checks.start(due: []).answered.isEmpty, "no sync waits any more")
    }

    @Test func aSyncDuringACheckWaitsForAFreshOne() {
        var checks = SourceChecks<String>()
        #expect(checks.start(due: [0]).check == [0])
        let sync = checks.requestSync(of: [0])
        #expect(checks.start(due: []).check == [], "0 is checked once at a time")
        #expect(checks.finished(0, "from before the sync").isEmpty)
        #expect(checks.start(due: []).check == [0])
        #expect(checks.finished(0, "fresh").map(\.reports) == [["fresh"]])
        _ = sync
    }

    @Test func aSyncWithNothingToCheckIsAnsweredAtOnceWithWhatIsKnown() {
        var checks = SourceChecks<String>()
        let sync = checks.requestSync(of: [], known: [1: "refused"])
        let started = checks.start(due: [])
        #expect(started.check.isEmpty)
        #expect(started.answered.map(\.sync) == [sync])
        #expect(started.answered.first?.reports == ["refused"])
    }

    @Test func twoSyncsShareTheChecksThatStartAfterBoth() {
        var checks = SourceChecks<String>(limit: 1)
        let first = checks.requestSync(of: [0, 1], known: [2: "refused"])
        let second = checks.requestSync(of: [0, 1], known: [2: "refused"])
        #expect(checks.start(due: []).check == [0])
        #expect(checks.finished(0, "a").isEmpty)
        #expect(checks.start(due: []).check == [1])
        let answered = checks.finished(1, "b")
        #expect(answered.map(\.sync) == [first, second])
        #expect(answered.allSatisfy { $0.reports == ["a", "b", "refused"] })
    }
}
