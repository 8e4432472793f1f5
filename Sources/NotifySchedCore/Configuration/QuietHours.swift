/// A daily span of wall-clock time in which popups wait (`22:00-07:00`).
///
/// A span may cross midnight. Its ends are read in the user's current zone each day, so
/// quiet hours follow the user when the zone changes, and a DST change moves them with the
/// clock on the wall.
public struct QuietHours: Hashable, Sendable, CustomStringConvertible {
    /// Minutes after midnight at which quiet hours start (inclusive).
    public var start: Int
    /// Minutes after midnight at which they end (exclusive).
    public var end: Int

    /// Quiet hours from `start` to `end`, each in minutes after midnight (0…1439).
    public init?(start: Int, end: Int) {
        guard (0..<1440).contains(start), (0..<1440).contains(end), start != end else { return nil }
        self.start = start
        self.end = end
    }

    /// Parses `HH:MM-HH:MM`; nil when malformed or empty.
    public init?(parsing text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let start = QuietHours.minutes(parts[0]), let end = QuietHours.minutes(parts[1]) else {
            return nil
        }
        self.init(start: start, end: end)
    }

    private static func minutes(_ text: Substring) -> Int? {
        let fields = String(text).trimmingSpaces.split(separator: ":", omittingEmptySubsequences: false)
        guard fields.count == 2, fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(fields[0]), let minute = Int(fields[1]), hour < 24, minute < 60
        else { return nil }
        return hour * 60 + minute
    }

    /// Whether the wall-clock time `local` is inside quiet hours.
    public func contains(_ local: CivilDateTime) -> Bool {
        let minute = local.hour * 60 + local.minute
        return start < end ? (start..<end).contains(minute) : (minute >= start || minute < end)
    }

    /// When quiet hours that hold `instant` end, in `zone`; nil when `instant` is not inside them.
    ///
    /// A popup that falls due inside quiet hours waits until this instant.
    public func end(containing instant: Instant, in zone: ZoneRules) -> Instant? {
        let local = zone.civil(at: instant)
        guard contains(local) else { return nil }
        var day = CivilDateTime(year: local.year, month: local.month, day: local.day, hour: end / 60, minute: end % 60)
        if local.hour * 60 + local.minute >= end { day = day.addingDays(1) }
        return zone.instant(forFloating: day)
    }

    /// When the quiet hours that hold a popup of `entry` due at `instant` end, in `zone`: nil
    /// when `instant` is not inside them, or the entry is critical (quiet hours hold no
    /// critical popup).
    public func end(holding entry: ScheduleEntry, at instant: Instant, in zone: ZoneRules) -> Instant? {
        entry.content.urgency == .critical ? nil : end(containing: instant, in: zone)
    }

    public var description: String {
        func clock(_ minutes: Int) -> String {
            CivilDateTime.padded(minutes / 60, 2) + ":" + CivilDateTime.padded(minutes % 60, 2)
        }
        return clock(start) + "-" + clock(end)
    }
}
