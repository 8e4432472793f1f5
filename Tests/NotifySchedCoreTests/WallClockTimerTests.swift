import Glibc
import NotifySchedCore
import NotifySchedPlatform
import Testing

/// The daemon's real `timerfd`: it fires at its instant, never before, and reports a step of the
/// wall clock as a clock change. One test steps the wall clock, which wakes every armed timer of
/// the process, so the tests run one at a time.
@Suite(.serialized) struct WallClockTimerTests {
    /// Waits at most `milliseconds` for the timer's descriptor to become readable.
    private func readable(_ timer: WallClockTimer, within milliseconds: Int32) -> Bool {
        var watched = pollfd(fd: timer.fileDescriptor, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, milliseconds) == 1
    }

    @Test func itFiresAtItsInstantAndNeverBefore() throws {
        let timer = try WallClockTimer()
        let due = WallClock.now() + .milliseconds(50)
        timer.arm(at: due)
        #expect(readable(timer, within: 2000))
        #expect(WallClock.now() >= due)
        #expect(timer.acknowledge() == .expired)
        #expect(timer.acknowledge() == .none)
    }

    /// A disarmed timer still reports clock changes (by design: the daemon must notice a step
    /// even with nothing scheduled), and something outside the tests may step the clock.
    @Test func aDisarmedTimerNeverExpires() throws {
        let timer = try WallClockTimer()
        timer.arm(at: nil)
        if readable(timer, within: 100) {
            #expect(timer.acknowledge() == .clockChanged, "a disarmed timer woke for something else than a clock step")
        }
    }

    /// Sets the wall clock to what it reads: a step of a few microseconds back, which the
    /// kernel reports like any other. False where the tests may not set the clock.
    private static func stepTheClock() -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return clock_settime(CLOCK_REALTIME, &now) == 0
    }

    /// Runs where the tests may set the clock (as root here), and is skipped elsewhere.
    @Test(.enabled(if: stepTheClock(), "setting the wall clock is not allowed here"))
    func settingTheWallClockWakesTheTimerAsAClockChange() throws {
        let timer = try WallClockTimer()
        timer.arm(at: WallClock.now() + .hours(1))
        #expect(Self.stepTheClock())
        #expect(readable(timer, within: 2000), "a clock step must wake the timer at once")
        #expect(timer.acknowledge() == .clockChanged)
    }
}
