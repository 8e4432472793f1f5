/// glibc's `mktime` (glibc 2.36 `__mktime_internal`), which systemd's calendar search calls
/// again and again; its answers for times in DST gaps and overlaps depend on state it keeps.
///
/// glibc starts each call from a guess at the UTC offset, the one the previous call found
/// (a process-wide static), then probes `localtime` until the wall-clock fields match. In a
/// fall-back overlap the first match wins, so the guess decides between the two instants; in a
/// spring-forward gap the probes oscillate and the rule below picks a side. A requested DST
/// flag that disagrees with the match sends it looking, a week at a time, for a time with the
/// requested flag and reuses that offset. Keeping the guess in this value makes the calls
/// reproducible: a fresh value is a freshly started process.
struct GlibcMktime: Hashable, Sendable {
    /// glibc's `localtime_offset`: UTC minus local time (seconds) found by the last call.
    var offsetGuess: Int64 = 0

    /// `mktime(tm)` in `zone`: normalizes `tm` and returns its instant in seconds, or nil (with
    /// `tm` untouched) where glibc returns -1.
    mutating func makeTime(_ tm: inout BrokenDownTime, in zone: ZoneRules) -> Int64? {
        let requestedSecond = tm.second
        var request = tm
        // Seconds outside 0…59 are probed at the nearest edge and added back at the end, as
        // glibc does to cope with leap seconds.
        request.second = min(max(request.second, 0), 59)
        let wanted = request.linearSeconds
        let isDST = tm.isDST
        let startGuess = wanted + offsetGuess
        var t = startGuess
        var t1 = startGuess
        var t2 = startGuess
        var previousWasDST = false
        var probesLeft = 6
        var found: BrokenDownTime
        var oscillating = false
        while true {
            found = localTime(t, zone)
            let difference = wanted - found.linearSeconds
            if difference == 0 { break }
            let foundDST = found.isDST != 0
            if t == t1 && t != t2 && (isDST < 0 ? (!previousWasDST || foundDST) : (isDST != 0) != foundDST) {
                oscillating = true
                break
            }
            probesLeft -= 1
            if probesLeft == 0 { return nil }
            t1 = t2
            t2 = t
            t += difference
            previousWasDST = foundDST
        }
        if !oscillating && isDST >= 0 && (isDST != 0) != (found.isDST != 0) {
            guard let match = searchForRequestedDST(isDST: isDST, near: t, wanted: wanted, zone: zone) else {
                return nil
            }
            t = match
            found = localTime(t, zone)
        }
        offsetGuess = t - wanted
        if requestedSecond != found.second {
            let leapAdjustment: Int64 = request.second == 0 && found.second == 60 ? 1 : 0
            t += leapAdjustment - Int64(request.second) + Int64(requestedSecond)
            found = localTime(t, zone)
        }
        tm = found
        return t
    }

    /// glibc's probe for a neighbouring time with the requested DST flag: strides of 601 200 s
    /// (the shortest DST period in the tz database) either way, up to half of 536 454 000 s.
    private func searchForRequestedDST(isDST: Int, near t: Int64, wanted: Int64, zone: ZoneRules) -> Int64? {
        let stride: Int64 = 601_200
        let bound: Int64 = 536_454_000 / 2 + stride
        var delta = stride
        while delta < bound {
            for direction: Int64 in [-1, 1] {
                let probe = t + delta * direction
                let probed = localTime(probe, zone)
                if (probed.isDST != 0) == (isDST != 0) {
                    return probe + (wanted - probed.linearSeconds)
                }
            }
            delta += stride
        }
        return nil
    }

    private func localTime(_ seconds: Int64, _ zone: ZoneRules) -> BrokenDownTime {
        BrokenDownTime(seconds: seconds, offset: zone.offset(at: Instant(secondsSinceEpoch: seconds)))
    }

    /// `timegm(tm)`: normalizes `tm` as UTC and returns its instant; needs no state.
    static func makeUniversalTime(_ tm: inout BrokenDownTime) -> Int64 {
        let seconds = tm.linearSeconds
        tm = BrokenDownTime(seconds: seconds, offset: .utc)
        return seconds
    }
}
