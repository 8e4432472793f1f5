/// C's `struct tm` as glibc's `mktime` and systemd's calendar search use it: fields that may be
/// out of range until normalized, a zero-based month and a DST flag of -1, 0 or 1.
struct BrokenDownTime: Hashable, Sendable {
    /// The full year (C's `tm_year + 1900`).
    var year: Int
    /// 0…11 once normalized.
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// -1 (unknown), 0 (standard time) or 1 (DST).
    var isDST: Int
    /// 0 = Sunday; meaningful only after normalization.
    var weekday: Int = 0

    /// The broken-down local time of `seconds` at `offset` (what `localtime_r` gives).
    init(seconds: Int64, offset: ZoneOffset) {
        let civil = CivilDateTime(Instant(secondsSinceEpoch: seconds), offset: offset.seconds)
        year = civil.year
        month = civil.month - 1
        day = civil.day
        hour = civil.hour
        minute = civil.minute
        second = civil.second
        isDST = offset.isDST ? 1 : 0
        weekday = civil.weekday
    }

    /// The fields read as if they were UTC, in seconds since the epoch, with every field allowed
    /// out of range (months roll into years, days into months, and so on).
    var linearSeconds: Int64 {
        let yearCarry = Int64(month).floorDivided(by: 12)
        let days =
            CivilDateTime.daysSinceEpoch(
                year: Int64(year) + yearCarry, month: Int64(month).floorModulo(12) + 1, day: 1) + Int64(day) - 1
        return days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
    }
}
