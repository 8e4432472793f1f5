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

    @Test func aSuccessfulCheckComesBackOnePeriodLaterKeepingItsPhase() {
        let policy = PollingPolicy(checkPeriod: .hours(12))
        var generator = SplitMix64(seed: 3)
        #expect(policy.nextCheck(afterSuccessAt: now, using: &generator) == now + .hours(12))
        let afterFirstCopy = (0..<500).map { _ in
            policy.nextCheck(afterSuccessAt: now, firstCopy: true, using: &generator) - now
        }
        #expect(afterFirstCopy.allSatisfy { $0 >= .zero && $0 <= .hours(12) })
        #expect(
            afterFirstCopy.contains { $0 < .hours(1) } && afterFirstCopy.contains { $0 > .hours(11) },
            "a fleet that took its first copies together spreads over the whole period")
    }

    @Test func backoffCeilingDoublesPerFailureUpToTheMaximum() {
        let policy = PollingPolicy(checkPeriod: .hours(12), initialBackoff: .minutes(1), maximumBackoff: .hours(1))
        #expect(
            (1...8).map { policy.backoffCeiling(afterFailure: $0) } == [
                .minutes(1), .minutes(2), .minutes(4), .minutes(8), .minutes(16), .minutes(32), .hours(1), .hours(1),
            ])
        #expect(policy.backoffCeiling(afterFailure: 10_000) == .hours(1), "huge failure counts must not overflow")
    }

    @Test func withoutACopyFailureDelaysAreFullyJitteredBetweenTheFloorAndTheCeiling() {
        let policy = PollingPolicy(
            initialBackoff: .minutes(1), maximumBackoff: .hours(1), minimumRetryDelay: .seconds(10))
        var generator = SplitMix64(seed: 42)
        for failures in 1...10 {
            let ceiling = policy.backoffCeiling(afterFailure: failures)
            var delays: [TimeSpan] = []
            for _ in 0..<200 {
                delays.append(
                    policy.nextCheck(afterFailure: failures, at: now, hasCopy: false, using: &generator) - now)
            }
            #expect(delays.allSatisfy { $0 >= .seconds(10) && $0 <= ceiling }, "delay outside [10 s, \(ceiling)]")
            // Full jitter spreads over the whole range, not around the ceiling.
            let spread = TimeSpan(microseconds: ceiling.microseconds - TimeSpan.seconds(10).microseconds)
            #expect(delays.contains { $0 < .seconds(10) + TimeSpan(microseconds: spread.microseconds / 4) })
            #expect(delays.contains { $0 > ceiling - TimeSpan(microseconds: spread.microseconds / 4) })
        }
    }

    /// With a copy in force, a failure asks no more of the portal than a success would: the
    /// retry falls at a new phase about a period later, whatever the failures before it.
    @Test func withACopyARetryFallsWithinHalfAndOneAndAHalfPeriods() {
        let policy = PollingPolicy(checkPeriod: .hours(1))
        var generator = SplitMix64(seed: 43)
        for failures in [1, 2, 9] {
            let delays = (0..<500).map { _ in
                policy.nextCheck(afterFailure: failures, at: now, hasCopy: true, using: &generator) - now
            }
            #expect(delays.allSatisfy { $0 >= .minutes(30) && $0 <= .minutes(90) })
            #expect(delays.contains { $0 < .minutes(35) } && delays.contains { $0 > .minutes(85) })
        }
    }

    @Test func theSameSeedGivesTheSameDelays() {
        let policy = PollingPolicy()
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        let a = (1...5).map {
            policy.nextCheck(afterFailure: $0, at: now, hasCopy: $0.isMultiple(of: 2), using: &first)
        }
        let b = (1...5).map {
            policy.nextCheck(afterFailure: $0, at: now, hasCopy: $0.isMultiple(of: 2), using: &second)
        }
        #expect(a == b)
    }

    @Test func retryAfterIsHonouredButCappedAndSpread() {
        let policy = PollingPolicy(initialBackoff: .minutes(1))
        var generator = SplitMix64(seed: 1)
        for hasCopy in [false, true] {
            let after = { (retryAfter: RetryAfter) in
                (0..<200).map { _ in
                    policy.nextCheck(
                        afterFailure: 1, at: now, retryAfter: retryAfter, hasCopy: hasCopy, using: &generator)
                }
            }
            let later = after(.delay(.hours(2)))
            #expect(later.allSatisfy { $0 >= now + .hours(2) }, "never before the Retry-After")
            #expect(Set(later).count > 150, "spread after it, not all at its instant")
            #expect(after(.date(now + .minutes(90))).allSatisfy { $0 >= now + .minutes(90) })
            #expect(
                after(.delay(.days(30))).allSatisfy { $0 >= now + .days(1) && $0 <= now + .days(1) + .hours(2) },
                "a Retry-After of a month must not silence the source for more than maximumRetryAfter")
            #expect(after(.delay(.seconds(1))).allSatisfy { $0 >= now + .seconds(10) }, "nor shorten the backoff")
        }
    }

    @Test func aFirstCheckWithACopyFallsAtANewPhaseAndWithoutOneWithinSeconds() {
        let policy = PollingPolicy(checkPeriod: .hours(1))
        var generator = SplitMix64(seed: 99)
        let withCopy = (0..<500).map { _ in policy.firstCheck(now: now, hasCopy: true, using: &generator) - now }
        #expect(withCopy.allSatisfy { $0 >= .zero && $0 <= .hours(1) })
        #expect(withCopy.contains { $0 < .minutes(5) } && withCopy.contains { $0 > .minutes(55) })
        let withoutCopy = (0..<500).map { _ in policy.firstCheck(now: now, hasCopy: false, using: &generator) - now }
        #expect(withoutCopy.allSatisfy { $0 >= .zero && $0 <= .seconds(5) })
    }
}

@Suite struct RetryAfterTests {
    @Test func readsDelaySecondsAndHTTPDates() {
        #expect(RetryAfter.parse("120") == .delay(.seconds(120)))
        #expect(RetryAfter.parse(" 0 ") == .delay(.zero))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT") == .date(Instant(secondsSinceEpoch: 784_111_777)))
        #expect(RetryAfter.parse("99999999999999999999") == .delay(.days(366)))
        #expect(RetryAfter.parse("0000000000120") == .delay(.seconds(120)), "leading zeros are still the number")
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
