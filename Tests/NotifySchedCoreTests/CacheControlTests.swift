import NotifySchedCore
import Testing

@Suite struct CacheControlTests {
    @Test(arguments: [
        ("max-age=3600", TimeSpan?.some(.hours(1))),
        ("public, max-age=600", .minutes(10)),
        ("MAX-AGE=\"900\", must-revalidate", .minutes(15)),
        ("s-maxage=60, max-age=1800", .minutes(30)),
        ("max-age=3600, max-age=60", .hours(1)),
        ("max-age=300", .minutes(5)),
        ("max-age=31536000", .days(7)),
        ("max-age=99999999999999999999", .days(7)),
        ("max-age=0000000000600", .minutes(10)),
        ("=, max-age=600, =x, ,", .minutes(10)),
    ])
    func maxAgeIsTheCheckPeriodUpToAWeek(header: String, period: TimeSpan?) {
        #expect(CacheControl.period(fromHeader: header) == period, "\(header)")
    }

    /// `max-age=0` and `no-cache` are how dynamic servers ask caches to revalidate, not a wish
    /// to be polled every few seconds by every desktop; the default period stands then.
    @Test(arguments: [
        "", "max-age=0", "max-age=299", "no-cache", "no-store, max-age=3600", "max-age=3600, no-cache", "max-age=",
        "max-age=-5", "max-age=1h", "private", "s-maxage=3600", "=", "==", ",",
    ])
    func whatAsksForNoPeriodOrTooShortAOneLeavesTheDefault(header: String) {
        #expect(CacheControl.period(fromHeader: header) == nil, "\(header)")
    }
}
