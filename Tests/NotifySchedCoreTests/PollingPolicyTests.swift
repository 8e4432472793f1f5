import NotifySchedCore
import Testing

@Suite struct PollingPolicyTests {
    let now = Instant(secondsSinceEpoch: 1_800_000_000)

    @Test func iNotifySourcesAreCheckedTwiceADayAndOthersByTheConfiguredDefault() {
        #expect(PollingPolicy.for(.iNotify).checkPeriod == .hours(12))
        #expect(PollingPolicy.for(.native).checkPeriod == .hours(1))
        #expect(PollingPolicy.for(.iSmartNews, defaultCheckPeriod: .minutes(30)).checkPeriod == .minutes(30))
        #expect(PollingPolicy.for(nil).checkPeriod == PollingPolicy.defaultCheckPeriod)
    }

    @Test func aSuccessfulCheckComesBackOnePeriodLater() {
        let policy = PollingPolicy(checkPeriod: .hours(12))
        #expect(policy.nextCheck(afterSuccessAt: now) == now + .hours(12))
    }

    @Test func backoffCeilingDoublesPerFailureUpToTheMaximum() {
        let policy = PollingPolicy(checkPeriod: .hours(12), initialBackoff: .minutes(1), maximumBackoff: .hours(1))
        #expect(
            (1...8).map { policy.backoffCeiling(afterFailure: $0) } == [
                .minutes(1), .minutes(2), .minutes(4), .minutes(8), .minutes(16), .minutes(32), .hours(1), .hours(1),
            ])
        #expect(policy.backoffCeiling(afterFailure: 10_000) == .hours(1), "huge failure counts must not overflow")
    }

    @Test func failureDelaysAreFullyJitteredBetweenTheFloorAndTheCeiling() {
        let policy = PollingPolicy(
            initialBackoff: .minutes(1), maximumBackoff: .hours(1), minimumRetryDelay: .seconds(10))
        var generator = SplitMix64(seed: 42)
        for failures in 1...10 {
            let ceiling = policy.backoffCeiling(afterFailure: failures)
            var delays: [TimeSpan] = []
            for _ in 0..<200 {
                delays.append(policy.nextCheck(afterFailure: failures, at: now, using: &generator) - now)
            }
            #expect(delays.allSatisfy { $0 >= .seconds(10) && $0 <= ceiling }, "delay outside [10 s, \(ceiling)]")
            // Full jitter spreads over the whole range, not around the ceiling.
            let spread = TimeSpan(microseconds: ceiling.microseconds - TimeSpan.seconds(10).microseconds)
            #expect(delays.contains { $0 < .seconds(10) + TimeSpan(microseconds: spread.microseconds / 4) })
            #expect(delays.contains { $0 > ceiling - TimeSpan(microseconds: spread.microseconds / 4) })
        }
    }

    @Test func theSameSeedGivesTheSameDelays() {
        let policy = PollingPolicy()
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        let a = (1...5).map { policy.nextCheck(afterFailure: $0, at: now, using: &first) }
        let b = (1...5).map { policy.nextCheck(afterFailure: $0, at: now, using: &second) }
        #expect(a == b)
    }

    @Test func retryAfterIsHonouredButCapped() {
        let policy = PollingPolicy(initialBackoff: .minutes(1))
        var generator = SplitMix64(seed: 1)
        #expect(
            policy.nextCheck(afterFailure: 1, at: now, retryAfter: .delay(.hours(2)), using: &generator) == now
                + .hours(2))
        let date = now + .minutes(90)
        #expect(policy.nextCheck(afterFailure: 1, at: now, retryAfter: .date(date), using: &generator) == date)
        #expect(
            policy.nextCheck(afterFailure: 1, at: now, retryAfter: .delay(.days(30)), using: &generator) == now
                + .days(1),
            "a Retry-After of a month must not silence the source for more than maximumRetryAfter")
        let early = policy.nextCheck(afterFailure: 1, at: now, retryAfter: .delay(.seconds(1)), using: &generator)
        #expect(early >= now + .seconds(10), "a short Retry-After does not shorten the backoff")
    }

    @Test func firstChecksAreSpreadOverTheWholeWindow() {
        let policy = PollingPolicy(firstCheckSpread: .minutes(5))
        var generator = SplitMix64(seed: 99)
        let firsts = (0..<500).map { _ in policy.firstCheck(now: now, using: &generator) - now }
        #expect(firsts.allSatisfy { $0 >= .zero && $0 <= .minutes(5) })
        #expect(firsts.contains { $0 < .minutes(1) } && firsts.contains { $0 > .minutes(4) })
    }
}

@Suite struct RetryAfterTests {
    @Test func readsDelaySecondsAndHTTPDates() {
        #expect(RetryAfter.parse("120") == .delay(.seconds(120)))
        #expect(RetryAfter.parse(" 0 ") == .delay(.zero))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT") == .date(Instant(secondsSinceEpoch: 784_111_777)))
        #expect(RetryAfter.parse("99999999999999999999") == .delay(.days(366)))
    }

    @Test func ignoresWhatIsNeither() {
        for text in ["", "-5", "soon", "1.5", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 31 Feb 1994 08:49:37 GMT"] {
            #expect(RetryAfter.parse(text) == nil, "\"\(text)\" should not parse")
        }
    }

    @Test func aDelayCountsFromTheResponse() {
        let now = Instant(secondsSinceEpoch: 1000)
        #expect(RetryAfter.delay(.seconds(30)).instant(after: now) == Instant(secondsSinceEpoch: 1030))
    }
}
