import NotifySchedCore
import Testing

@Suite struct SourceHealthTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let policy = PollingPolicy(checkPeriod: .hours(1), initialBackoff: .minutes(1), minimumRetryDelay: .seconds(10))

    @Test func failuresBackOffAndASuccessClearsThem() {
        var health = SourceHealth(location: "https://portal.example/feed.json")
        var generator = SplitMix64(seed: 3)
        let failure = CheckFailure(code: "network.http-status", message: "the server answered 500")
        health.recordFailure(failure, at: now, policy: policy, using: &generator)
        health.recordFailure(failure, at: now, policy: policy, using: &generator)
        #expect(health.failures == 2)
        #expect(health.lastError == failure)
        #expect(health.lastCheck == now && health.lastSuccess == nil)
        let retry = try! #require(health.nextCheck)
        #expect(
            retry >= now + .seconds(10) && retry <= now + .minutes(2), "without a copy, the second waits up to 2 min")

        health.copyTakenAt = now - .days(1)
        health.recordSuccess(at: now + .minutes(3), policy: policy, using: &generator)
        #expect(
            health
                == SourceHealth(
                    location: "https://portal.example/feed.json", lastCheck: now + .minutes(3),
                    lastSuccess: now + .minutes(3), failures: 0, nextCheck: now + .minutes(63),
                    copyTakenAt: now - .days(1)))
    }

    @Test func retryAfterHoldsTheNextCheckBack() {
        var health = SourceHealth(location: "feed")
        var generator = SplitMix64(seed: 5)
        health.recordFailure(
            CheckFailure(code: "network.http-status", message: "429"), retryAfter: .delay(.minutes(30)), at: now,
            policy: policy, using: &generator)
        #expect(health.nextCheck.map { $0 >= now + .minutes(30) && $0 <= now + .minutes(31) } == true)
    }

    @Test func theFirstCheckIsWithinSecondsWithoutACopyAndAtANewPhaseWhenDue() {
        var generator = SplitMix64(seed: 9)
        let fresh = SourceHealth(location: "feed")
        #expect(
            fresh.firstCheck(now: now, hasCopy: false, policy: policy, using: &generator) <= now + .seconds(5))
        let firsts = (0..<200).map { _ in fresh.firstCheck(now: now, hasCopy: true, policy: policy, using: &generator) }
        #expect(firsts.allSatisfy { $0 >= now && $0 <= now + .hours(1) })
        #expect(Set(firsts).count > 100, "first checks must be spread, not bunched")
    }

    /// A resume (or a clock step) that finds a check overdue plans it anew within the period,
    /// rather than at once with every desktop that woke at the same time.
    @Test func aResumeRedrawsAnOverdueCheckAndLeavesOneAheadAlone() {
        var generator = SplitMix64(seed: 13)
        var overdue = SourceHealth(location: "feed", nextCheck: now - .hours(8), copyTakenAt: now - .hours(9))
        overdue.resumed(at: now, policy: policy, using: &generator)
        #expect(overdue.nextCheck.map { $0 >= now && $0 <= now + .hours(1) } == true)
        var ahead = SourceHealth(location: "feed", nextCheck: now + .minutes(20), copyTakenAt: now - .minutes(40))
        ahead.resumed(at: now, policy: policy, using: &generator)
        #expect(ahead.nextCheck == now + .minutes(20))
        var running = SourceHealth(location: "feed", copyTakenAt: now - .hours(1))
        running.resumed(at: now, policy: policy, using: &generator)
        #expect(running.nextCheck == nil, "a check under way is left to finish")
    }

    @Test func aPlannedCheckOutlivesARestartButNotAShortenedPeriod() {
        var generator = SplitMix64(seed: 11)
        let backingOff = SourceHealth(location: "feed", failures: 3, nextCheck: now + .hours(5))
        #expect(backingOff.firstCheck(now: now, hasCopy: true, policy: policy, using: &generator) == now + .hours(5))
        let healthy = SourceHealth(location: "feed", nextCheck: now + .hours(5))
        #expect(healthy.firstCheck(now: now, hasCopy: true, policy: policy, using: &generator) == now + .hours(1))
    }

    @Test func aCheckPlannedBeforeTheClockSteppedBackIsBroughtForward() {
        let healthy = SourceHealth(location: "feed", nextCheck: now + .days(400))
        #expect(healthy.latestCheck(now: now, policy: policy) == now + .hours(1))
        let failing = SourceHealth(location: "feed", failures: 1, nextCheck: now + .days(400))
        #expect(failing.latestCheck(now: now, policy: policy) == now + .days(1), "a Retry-After may hold it a day")
    }

    @Test func theCopyAgeCountsFromWhenItWasTaken() {
        let health = SourceHealth(location: "feed", copyTakenAt: now - .hours(2))
        #expect(health.copyAge(at: now) == .hours(2))
        #expect(SourceHealth(location: "feed").copyAge(at: now) == nil)
    }
}
