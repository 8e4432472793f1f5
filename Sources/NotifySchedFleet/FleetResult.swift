import NotifySchedCore

/// What one run of a `FleetScenario` measured at the portal.
public struct FleetResult: Sendable, Equatable, Codable {
    public var scenario: String
    public var desktops: Int
    /// The fetch period, in seconds.
    public var periodSeconds: Int64
    /// The window requests are counted in, in seconds: one where a second holds a few hundred
    /// requests on average (1 s for 10^6 desktops and a 1 h period, 10 s for a 12 h one), so
    /// that peaks are the policy's and not counting noise.
    public var windowSeconds: Int64
    /// The mean request rate the period implies: desktops / period.
    public var meanPerSecond: Double
    /// The busiest window over the whole run, in requests per second.
    public var peakPerSecond: Double
    /// `peakPerSecond / meanPerSecond`.
    public var peakRatio: Double
    /// The busiest window of the run's last period, over the mean: what is left of a burst
    /// echoing every period.
    public var latePeakRatio: Double
    /// From the event (the change's publication) until half of the desktops have the change.
    public var halfHaveChangeSeconds: Double?
    /// Until 99 % have it; nil when fewer did by the end of the run.
    public var nearlyAllHaveChangeSeconds: Double?
    /// How many desktops had the change by the end of the run.
    public var haveChange: Int
    /// How many checks the run simulated.
    public var checks: Int
}
