import ArgumentParser
import Foundation
import NotifySchedCore
import NotifySchedFleet

/// `notify-sched-bench fleet`: what a portal sees when a fleet of desktops follows it, each
/// polling with the daemon's own policy, in the scenarios of `FleetScenario.all`, for a 1 h and
/// a 12 h fetch period: the busiest window's requests per second against the mean the period
/// implies, what is left of a burst in the run's last period, and how long until half and 99 %
/// of the desktops have a change published at the scenario's event.
struct FleetBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet", abstract: "Requests at a portal from N desktops in virtual time, scenario by scenario.")

    @Option(help: "Desktops following the portal.")
    var desktops = 1_000_000

    @Option(
        name: .customLong("period"), help: ArgumentHelp("Fetch periods to run (repeatable).", valueName: "span"))
    var periods: [String] = ["1h", "12h"]

    @Option(help: "The random generator's seed.")
    var seed: UInt64 = 17

    @Option(help: "Fail (exit 1) when a scenario's peak / mean is above this.")
    var maximumRatio: Double?

    @Flag(help: "Print one JSON array of the results instead of the table.")
    var json = false

    @Flag(
        help: """
            Simulate the desktops' daily receipts' uploads instead, over three days, with and \
            without a collector down for six hours (503 Retry-After: 120).
            """)
    var receipts = false

    func validate() throws {
        guard desktops > 0 else { throw ValidationError("--desktops must be positive") }
        for period in periods where TimeSpan.parse(period).map({ $0 >= .minutes(1) }) != true {
            throw ValidationError("--period: \"\(period)\" is not a duration of a minute or more")
        }
    }

    func run() throws {
        if receipts { return try runReceipts() }
        var results: [FleetResult] = []
        if !json { print(Self.header) }
        for period in periods.compactMap(TimeSpan.parse) {
            let simulation = FleetSimulation(desktops: desktops, period: period, seed: seed)
            for scenario in FleetScenario.all {
                let started = ContinuousClock.now
                let result = simulation.run(scenario)
                results.append(result)
                if !json { print(Self.row(result, took: ContinuousClock.now - started)) }
            }
        }
        try finish(results, ratio: \.peakRatio) { "\($0.scenario) at a \($0.periodSeconds) s period" }
    }

    /// The receipts' scenarios (`ReceiptFleetSimulation`).
    private func runReceipts() throws {
        let simulation = ReceiptFleetSimulation(desktops: desktops, seed: seed)
        var results: [ReceiptFleetResult] = []
        if !json { print("scenario              window  mean/s   peak/s  peak/mean  after outage  posts  refused") }
        for outage in [nil, ReceiptFleetSimulation.outage] {
            let started = ContinuousClock.now
            let result = simulation.run(outage: outage)
            results.append(result)
            if !json {
                print(
                    [
                        result.scenario.padding(toLength: 20, withPad: " ", startingAt: 0),
                        String(format: "%6ds", result.windowSeconds), String(format: "%7.1f", result.meanPerSecond),
                        String(format: "%8.1f", result.peakPerSecond), String(format: "%9.2f", result.peakRatio),
                        String(format: "%13.2f", result.afterOutagePeakRatio), String(result.posts).leftPadded(7),
                        String(result.refused).leftPadded(8), "  (\(ContinuousClock.now - started))",
                    ].joined(separator: " "))
            }
        }
        try finish(results, ratio: \.peakRatio) { "receipts, \($0.scenario)," }
    }

    /// Prints `results` as JSON when asked, and fails when the worst `ratio` is above
    /// `--maximum-ratio`, naming the run as `name` says.
    private func finish<Result: Encodable>(
        _ results: [Result], ratio: (Result) -> Double, name: (Result) -> String
    ) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(results), as: UTF8.self))
        }
        if let maximumRatio, let worst = results.max(by: { ratio($0) < ratio($1) }), ratio(worst) > maximumRatio {
            FileHandle.standardError.write(
                Data(
                    ("fleet: \(name(worst)) peaks at \(String(format: "%.2f", ratio(worst))) × the mean, "
                        + "above \(maximumRatio)\n").utf8))
            throw ExitCode.failure
        }
    }

    static let header =
        "scenario                   period  window  mean/s   peak/s  peak/mean  last period  50 % have it  99 % have it"

    static func row(_ result: FleetResult, took: Duration) -> String {
        let minutes = { (seconds: Double?) in seconds.map { String(format: "%.0f min", $0 / 60) } ?? "-" }
        return [
            result.scenario.padding(toLength: 26, withPad: " ", startingAt: 0),
            String(format: "%5ds", result.periodSeconds), String(format: "%6ds", result.windowSeconds),
            String(format: "%7.1f", result.meanPerSecond), String(format: "%8.1f", result.peakPerSecond),
            String(format: "%9.2f", result.peakRatio), String(format: "%11.2f", result.latePeakRatio),
            minutes(result.halfHaveChangeSeconds).leftPadded(13),
            minutes(result.nearlyAllHaveChangeSeconds).leftPadded(13),
            "  (\(took))",
        ].joined(separator: " ")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
