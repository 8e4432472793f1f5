import NotifySchedCore
import NotifySchedFleet
import Testing

/// The fleet simulator itself, at a scale the tests run in a moment: it repeats for a seed, and
/// in a steady fleet it sees what the policy promises (one check per desktop per period, a
/// change everywhere within a period and the first checks' spread).
@Suite struct FleetSimulationTests {
    private let simulation = FleetSimulation(desktops: 20_000, period: .hours(1), seed: 2026)
    private var steady: FleetScenario { FleetScenario.all[0] }

    @Test func aRunIsRepeatableForItsSeed() {
        #expect(simulation.run(steady) == simulation.run(steady))
        var other = simulation
        other.seed += 1
        #expect(other.run(steady) != simulation.run(steady))
    }

    @Test func countingWindowsHoldAFewHundredRequests() {
        #expect(FleetSimulation(desktops: 1_000_000, period: .hours(1)).windowSeconds == 1)
        #expect(FleetSimulation(desktops: 1_000_000, period: .hours(12)).windowSeconds == 10)
        #expect(simulation.windowSeconds == 42)
    }

    @Test func aSteadyFleetChecksOncePerPeriodAndHasAChangeWithinOne() {
        let result = simulation.run(steady)
        #expect(result.peakRatio <= 2, "seed 2026: \(result)")
        // Each desktop starts at random within the two periods before the event, checks first
        // within a period of its start and then once a period to the end of the run, six
        // periods after the event: seven checks on average.
        let perDesktop = Double(result.checks) / Double(simulation.desktops)
        #expect(abs(perDesktop - 7) < 0.1, "seed 2026: \(perDesktop) checks a desktop")
        #expect(result.haveChange == simulation.desktops)
        #expect(result.nearlyAllHaveChangeSeconds.map { $0 <= 3600 } == true, "seed 2026: \(result)")
    }

    /// Issue 17's bar, at a fiftieth of its scale (counting windows grow to match): no scenario
    /// draws more than twice the steady load at any time, and a change published at the event
    /// reaches 99 % of the desktops within a period plus the spread (another period).
    @Test(arguments: [TimeSpan.hours(1), .hours(12)])
    func noScenarioPeaksAboveTwiceTheMeanAndAChangeReachesNearlyAllWithinTwoPeriods(period: TimeSpan) {
        let simulation = FleetSimulation(desktops: 20_000, period: period, seed: 2026)
        for scenario in FleetScenario.all {
            let result = simulation.run(scenario)
            #expect(result.peakRatio <= 2, "seed 2026, \(scenario.name): \(result)")
            let periodSeconds = Double(period.microseconds) / 1e6
            #expect(
                result.nearlyAllHaveChangeSeconds.map { $0 <= 2 * periodSeconds } == true,
                "seed 2026, \(scenario.name): \(result)")
        }
    }

    /// Issue 44's bar for receipts, at a fiftieth of its scale: the collector sees at most twice
    /// the mean (one upload per desktop per day), on a steady day and after six hours down, and
    /// takes at most one body a day from each desktop.
    @Test func receiptUploadsPeakAtMostTwiceTheMeanAlsoAfterTheCollectorWasDown() {
        let simulation = ReceiptFleetSimulation(desktops: 20_000, seed: 2026)
        let steady = simulation.run()
        let down = simulation.run(outage: ReceiptFleetSimulation.outage)
        for result in [steady, down] {
            #expect(result.peakRatio <= 2, "seed 2026: \(result)")
            #expect(result.mostTakenInADay == 1, "seed 2026: \(result)")
        }
        // Three days, less the desktops whose moment falls in the day's last hour: their upload
        // rides on a check after midnight, which is then that day's.
        #expect(steady.refused == 0 && (2.9...3).contains(Double(steady.posts) / 20_000), "\(steady)")
        #expect(down.refused > 4_000, "a quarter of a day's uploads met the outage: \(down)")
    }
}
