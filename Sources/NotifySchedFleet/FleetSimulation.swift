import NotifySchedCore

/// Plays a `FleetScenario` for a fleet of desktops in virtual time, each desktop's polling
/// decided by the daemon's own `SourceHealth` and `PollingPolicy`, and counts the requests the
/// portal sees and when each desktop has the change published at the scenario's event.
///
/// Pure and seeded: the same scenario, size and seed give the same result. A run of 10^6
/// desktops takes a second or two with a release build (`notify-sched-bench fleet`).
public struct FleetSimulation: Sendable {
    /// How many desktops follow the portal.
    public var desktops: Int
    /// Their fetch period.
    public var period: TimeSpan
    public var seed: UInt64

    /// The scenarios' event: 09:00 UTC on a Monday.
    public static let eventTime = Instant(secondsSinceEpoch: 1_795_424_400)
    /// The requests a counting window holds on average at least (1 s at 10^6 desktops and a 1 h
    /// period, 10 s at a 12 h one): fewer, and a window's count is mostly noise.
    public static let requestsPerWindow = 231.0

    public init(desktops: Int, period: TimeSpan, seed: UInt64 = 17) {
        self.desktops = max(1, desktops)
        self.period = period
        self.seed = seed
    }

    /// How long after the event a run goes on: six hours, or four periods when that is longer,
    /// so that what a burst leaves behind shows in the run's last period.
    public var span: TimeSpan { max(.hours(6), period * 4) }

    /// The counting window, in seconds (`requestsPerWindow`).
    public var windowSeconds: Int64 {
        let seconds = Self.requestsPerWindow * Double(period.microseconds) / 1e6 / Double(desktops)
        return max(1, Int64(seconds.rounded(.up)))
    }

    /// Runs `scenario` and measures it.
    public func run(_ scenario: FleetScenario) -> FleetResult {
        var run = FleetRun(simulation: self, scenario: scenario)
        run.play()
        return run.result()
    }
}

/// One run of a scenario: the desktops' health, the checks planned by second, and what the
/// portal saw.
private struct FleetRun {
    let simulation: FleetSimulation
    let scenario: FleetScenario
    let policy: PollingPolicy
    let event = FleetSimulation.eventTime
    /// Where the run starts: early enough for steady desktops to be running at random phases.
    let begin: Instant
    let end: Instant
    /// Requests are counted from here: a little before the event, to see a login wave whole.
    let countFrom: Instant
    var generator: SplitMix64
    var health: [SourceHealth]
    /// When each desktop's network comes back after a resume; nil: it never went.
    var networkBack: [Instant]?
    /// Desktops to check, by second from `begin`.
    var planned: [[Int32]]
    /// Requests at the portal, by second from `countFrom`.
    var requests: [Int32]
    /// When each desktop had the change, as seconds after the event.
    var changeTimes: [Double] = []
    var hasChange: [Bool]
    var checks = 0

    init(simulation: FleetSimulation, scenario: FleetScenario) {
        self.simulation = simulation
        self.scenario = scenario
        policy = PollingPolicy(checkPeriod: simulation.period)
        begin = event - simulation.period * 2 - .minutes(10)
        end = event + simulation.span
        countFrom = event - .minutes(10)
        generator = SplitMix64(seed: simulation.seed)
        health = Array(repeating: SourceHealth(location: ""), count: simulation.desktops)
        hasChange = Array(repeating: false, count: simulation.desktops)
        planned = Array(repeating: [], count: Int((end - begin).microseconds / 1_000_000) + 1)
        requests = Array(repeating: 0, count: Int((end - countFrom).microseconds / 1_000_000) + 1)
        changeTimes.reserveCapacity(simulation.desktops)
    }

    mutating func play() {
        for desktop in health.indices { start(desktop) }
        var second = 0
        while second < planned.count {
            var index = 0
            // A check may plan the next one in the same second: the bucket grows as it is read.
            while index < planned[second].count {
                check(Int(planned[second][index]))
                index += 1
            }
            planned[second] = []
            second += 1
        }
    }

    private mutating func start(_ desktop: Int) {
        let period = simulation.period
        switch scenario.start {
        case .steady:
            startSteadily(desktop)
        case .loginWave(let share, let window):
            guard Double.random(in: 0..<1, using: &generator) < share else {
                startSteadily(desktop)
                break
            }
            let login = event - TimeSpan(microseconds: window.microseconds / 2) + random(upTo: window)
            // Its copy was checked last before the desktop went off: the next check is overdue.
            health[desktop] = cachedHealth(checkedAt: login - .hours(12) - random(upTo: .hours(12)))
            health[desktop].nextCheck = health[desktop].firstCheck(
                now: login, hasCopy: true, policy: policy, using: &generator)
        case .resume(let networkDelay):
            // Suspended overnight: the check planned one period after the last fell due meanwhile.
            health[desktop] = cachedHealth(checkedAt: event - period - random(upTo: period))
            if let networkDelay {
                if networkBack == nil { networkBack = Array(repeating: event, count: health.count) }
                let delay = networkDelay.lowerBound + random(upTo: networkDelay.upperBound - networkDelay.lowerBound)
                networkBack?[desktop] = event + delay
            }
            health[desktop].resumed(at: event, policy: policy, using: &generator)
            // Nothing was checked while it slept.
            return plan(desktop, notBefore: event)
        }
        plan(desktop, notBefore: begin)
    }

    /// A desktop whose daemon started at random in the two periods before the event.
    private mutating func startSteadily(_ desktop: Int) {
        let started = event - simulation.period * 2 + random(upTo: simulation.period * 2)
        health[desktop] = cachedHealth(checkedAt: started - .days(1))
        health[desktop].nextCheck = nil
        health[desktop].nextCheck = health[desktop].firstCheck(
            now: started, hasCopy: true, policy: policy, using: &generator)
    }

    /// The health of a desktop with a cached copy, last checked successfully at `checkedAt`.
    private mutating func cachedHealth(checkedAt: Instant) -> SourceHealth {
        var health = SourceHealth(location: "", copyTakenAt: checkedAt)
        health.recordSuccess(at: checkedAt, policy: policy, using: &generator)
        return health
    }

    private mutating func check(_ desktop: Int) {
        guard let now = health[desktop].nextCheck else { return }
        checks += 1
        if let networkBack, now < networkBack[desktop] {
            health[desktop].recordFailure(
                CheckFailure(code: "network.unreachable", message: "network unreachable"), at: now, policy: policy,
                using: &generator)
            return plan(desktop, notBefore: now)
        }
        if now >= countFrom { requests[Int((now - countFrom).microseconds / 1_000_000)] += 1 }
        switch trouble(at: now) {
        case .none:
            health[desktop].recordSuccess(at: now, policy: policy, using: &generator)
            if now >= event, !hasChange[desktop] {
                hasChange[desktop] = true
                changeTimes.append(Double((now - event).microseconds) / 1e6)
            }
        case .outage?:
            health[desktop].recordFailure(
                CheckFailure(code: "network.timeout", message: "no answer"), at: now, policy: policy, using: &generator)
        case .unavailable(_, let retryAfter)?:
            health[desktop].recordFailure(
                CheckFailure(code: "network.http-status", message: "503"), retryAfter: .delay(retryAfter), at: now,
                policy: policy, using: &generator)
        }
        plan(desktop, notBefore: now)
    }

    private func trouble(at now: Instant) -> FleetScenario.Trouble? {
        guard let trouble = scenario.trouble else { return nil }
        let offset = now - event
        switch trouble {
        case .outage(let span), .unavailable(let span, _): return span.contains(offset) ? trouble : nil
        }
    }

    /// Files the desktop's next check under its second, if it falls within the run.
    private mutating func plan(_ desktop: Int, notBefore earliest: Instant) {
        guard var next = health[desktop].nextCheck else { return }
        if next < earliest {
            next = earliest
            health[desktop].nextCheck = next
        }
        guard next < end else { return }
        planned[Int((next - begin).microseconds / 1_000_000)].append(Int32(desktop))
    }

    private mutating func random(upTo limit: TimeSpan) -> TimeSpan {
        guard limit.microseconds > 0 else { return .zero }
        return TimeSpan(microseconds: Int64.random(in: 0..<limit.microseconds, using: &generator))
    }

    func result() -> FleetResult {
        let window = simulation.windowSeconds
        let mean = Double(simulation.desktops) / (Double(simulation.period.microseconds) / 1e6)
        let peak = { (from: Int, to: Int) -> Double in
            var best: Int64 = 0
            var start = from
            while start + Int(window) <= to {
                var sum: Int64 = 0
                for second in start..<start + Int(window) { sum += Int64(requests[second]) }
                best = max(best, sum)
                start += Int(window)
            }
            return Double(best) / Double(window)
        }
        let whole = peak(0, requests.count - 1)
        let lastPeriod = Int(simulation.period.microseconds / 1_000_000)
        let late = peak(max(0, requests.count - 1 - lastPeriod), requests.count - 1)
        let sorted = changeTimes.sorted()
        let quantile = { (share: Double) -> Double? in
            let rank = Int((share * Double(simulation.desktops)).rounded(.up)) - 1
            return rank < sorted.count ? sorted[max(0, rank)] : nil
        }
        return FleetResult(
            scenario: scenario.name, desktops: simulation.desktops,
            periodSeconds: simulation.period.microseconds / 1_000_000, windowSeconds: window,
            meanPerSecond: mean, peakPerSecond: whole, peakRatio: whole / mean, latePeakRatio: late / mean,
            halfHaveChangeSeconds: quantile(0.5), nearlyAllHaveChangeSeconds: quantile(0.99),
            haveChange: changeTimes.count, checks: checks)
    }
}
