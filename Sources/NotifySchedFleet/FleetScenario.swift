import NotifySchedCore

/// One situation a portal's fleet of desktops goes through, as `FleetSimulation` plays it: how
/// the desktops start, what the portal answers when, and whether they resume from suspend.
///
/// Times are offsets from the scenario's event (`FleetSimulation.eventTime`): a login wave's
/// middle, an outage's start, the resume. A change to the feed is published at the event.
public struct FleetScenario: Sendable, Hashable {
    /// How the desktops come to be running.
    public enum Start: Sendable, Hashable {
        /// Daemons started at random over the two periods before the event, long enough for
        /// their checks to fall at random phases, as on desktops started over a week.
        case steady
        /// A share of the desktops log in within `window` around the event, each with a
        /// cached copy whose planned check fell due while it was off; the rest run steadily.
        case loginWave(share: Double, window: TimeSpan)
        /// Every desktop was suspended overnight and resumes at the event; with a
        /// `networkDelay`, each one's network comes back at random within it after the resume.
        case resume(networkDelay: ClosedRange<TimeSpan>?)
    }

    /// What the portal answers during `span` (offsets from the event); outside it, the feed.
    public enum Trouble: Sendable, Hashable {
        /// No answer at all: connections refused or timing out.
        case outage(span: Range<TimeSpan>)
        /// `503 Service Unavailable` with `Retry-After: seconds`.
        case unavailable(span: Range<TimeSpan>, retryAfter: TimeSpan)
    }

    /// The name the simulator's table and `--json` use.
    public var name: String
    public var start: Start
    public var trouble: Trouble?

    public init(name: String, start: Start, trouble: Trouble? = nil) {
        self.name = name
        self.start = start
        self.trouble = trouble
    }

    /// The scenarios of issue 17, in the order the table lists them.
    public static let all: [FleetScenario] = [
        FleetScenario(name: "steady", start: .steady),
        FleetScenario(name: "login wave", start: .loginWave(share: 0.8, window: .minutes(10))),
        FleetScenario(name: "outage 30 min", start: .steady, trouble: .outage(span: .zero..<TimeSpan.minutes(30))),
        FleetScenario(
            name: "503 Retry-After 120",
            start: .steady, trouble: .unavailable(span: .zero..<TimeSpan.minutes(10), retryAfter: .seconds(120))),
        FleetScenario(name: "mass resume", start: .resume(networkDelay: nil)),
        FleetScenario(
            name: "mass resume, Wi-Fi 2-8 s", start: .resume(networkDelay: .seconds(2)...TimeSpan.seconds(8))),
    ]
}
