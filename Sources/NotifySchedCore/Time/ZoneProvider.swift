/// Looks up time-zone rules by IANA name (`Europe/Berlin`).
///
/// The core stays free of I/O: the platform module reads the tz database and hands the core
/// a provider; tests can hand it a dictionary.
public protocol ZoneProvider: Sendable {
    /// The rules of the zone called `name`, or nil when there is no such zone.
    ///
    /// - Parameter name: An IANA zone name such as `America/New_York`.
    /// - Returns: The zone's rules, or nil when the name is unknown or its data is unusable.
    func zone(named name: String) -> ZoneRules?
}
