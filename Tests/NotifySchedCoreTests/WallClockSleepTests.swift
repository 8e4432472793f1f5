import NotifySchedCore
import NotifySchedPlatform
import Testing

/// `WallClock.sleep(until:)`, which holds a popup's call until its due time: it ends at the
/// instant, never before, and at once for an instant that has passed.
struct WallClockSleepTests {
    @Test func sleepingUntilAnInstantEndsAtItAndNeverBefore() {
        for milliseconds in [1, 3, 20] as [Int64] {
            let instant = WallClock.now() + .milliseconds(milliseconds)
            WallClock.sleep(until: instant)
            let woke = WallClock.now()
            #expect(woke >= instant, "woke \((instant - woke).microseconds) µs early")
            #expect(woke - instant < .seconds(1))
        }
    }

    @Test func sleepingUntilAPassedInstantReturnsAtOnce() {
        let asked = WallClock.now()
        WallClock.sleep(until: asked - .hours(1))
        #expect(WallClock.now() - asked < .milliseconds(500))
    }
}
