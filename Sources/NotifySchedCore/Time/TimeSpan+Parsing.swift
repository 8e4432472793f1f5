extension TimeSpan {
    /// Parses a span the way systemd.time(7) writes them: `90`, `90s`, `15min`, `1h 30min`,
    /// `2d`, `1w`, `500ms`. A bare number is seconds. Months and years are not accepted: their
    /// length depends on the calendar.
    ///
    /// - Returns: nil when `text` is empty, negative or malformed.
    public static func parse(_ text: String) -> TimeSpan? {
        let bytes = Array(text.utf8)
        var index = 0
        var total: Int64 = 0
        var sawComponent = false
        func skipSpaces() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        }
        skipSpaces()
        while index < bytes.count {
            var value: Int64 = 0
            let digitsStart = index
            while index < bytes.count, bytes[index].isASCIIDigit {
                let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = product + Int64(bytes[index] - 48)
                index += 1
            }
            guard index > digitsStart else { return nil }
            skipSpaces()
            let unitStart = index
            while index < bytes.count, (97...122).contains(bytes[index] | 0x20) { index += 1 }
            let unit = String(decoding: bytes[unitStart..<index], as: UTF8.self).lowercased()
            guard let scale = unitMicroseconds[unit] else { return nil }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: scale)
            guard !overflow, total <= Int64.max - scaled else { return nil }
            total += scaled
            sawComponent = true
            skipSpaces()
        }
        return sawComponent ? TimeSpan(microseconds: total) : nil
    }

    private static let unitMicroseconds: [String: Int64] = [
        "": 1_000_000,
        "us": 1, "usec": 1,
        "ms": 1000, "msec": 1000,
        "s": 1_000_000, "sec": 1_000_000, "second": 1_000_000, "seconds": 1_000_000,
        "m": 60_000_000, "min": 60_000_000, "minute": 60_000_000, "minutes": 60_000_000,
        "h": 3_600_000_000, "hr": 3_600_000_000, "hour": 3_600_000_000, "hours": 3_600_000_000,
        "d": 86_400_000_000, "day": 86_400_000_000, "days": 86_400_000_000,
        "w": 604_800_000_000, "week": 604_800_000_000, "weeks": 604_800_000_000,
    ]
}
