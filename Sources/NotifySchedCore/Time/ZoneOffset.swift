/// The local-time rule in force at one instant: the UTC offset, whether it is daylight-saving
/// time, and the abbreviation people read on clocks (`CEST`, `+0530`).
public struct ZoneOffset: Hashable, Sendable, CustomStringConvertible {
    /// Seconds east of UTC (`7200` for CEST, `-18000` for EST).
    public var seconds: Int
    /// Whether the zone observes daylight-saving time at that instant.
    public var isDST: Bool
    /// The abbreviation, as the tz database spells it.
    public var abbreviation: String

    /// Creates an offset.
    ///
    /// - Parameters:
    ///   - seconds: Seconds east of UTC.
    ///   - isDST: Whether this is daylight-saving time.
    ///   - abbreviation: The abbreviation (`CET`).
    public init(seconds: Int, isDST: Bool, abbreviation: String) {
        self.seconds = seconds
        self.isDST = isDST
        self.abbreviation = abbreviation
    }

    /// Coordinated Universal Time.
    public static let utc = ZoneOffset(seconds: 0, isDST: false, abbreviation: "UTC")

    public var description: String {
        let magnitude = abs(seconds)
        var text = Self.hoursAndMinutes(seconds)
        if magnitude % 60 != 0 {
            text += ":\(CivilDateTime.padded(magnitude % 60, 2))"
        }
        return "\(abbreviation) (\(text)\(isDST ? ", DST" : ""))"
    }

    /// `offsetSeconds` east of UTC as RFC 3339 writes an offset, to the minute: `+01:00`, `-03:30`.
    public static func hoursAndMinutes(_ offsetSeconds: Int) -> String {
        let magnitude = abs(offsetSeconds)
        return (offsetSeconds < 0 ? "-" : "+") + CivilDateTime.padded(magnitude / 3600, 2) + ":"
            + CivilDateTime.padded(magnitude / 60 % 60, 2)
    }
}
