import NotifySchedCore
import NotifySchedPlatform

// The one timer: armed at the core's `timerDeadline`, a little ahead of its next wake-up, it
// wakes the daemon to make that wake-up's popups ready before their due time; it also wakes
// it when the wall clock steps.
extension DaemonDriver {
    func armTimer() {
        timer.arm(at: core.timerDeadline)
    }

    /// The timer fired, or the wall clock stepped (`.clockChanged`).
    public func timerWoke(_ event: WallClockTimer.Event) {
        let now = clock()
        if event == .clockChanged {
            log.notice("the clock changed; planning again")
            timerWakeUps += 1
            return perform(.timerWoke(clockChanged: true), at: now)
        }
        // Fired early for a wake-up that moved later meanwhile: armed again.
        guard let wakeUp = core.timerEventInstant(firedAt: now) else { return armTimer() }
        timerWakeUps += 1
        let onTime = { self.perform(.timerWoke(clockChanged: false), at: wakeUp) }
        // Ahead of the clock, the loop goes back to waiting at once: at `wakeUp` only the calls'
        // threads wake.
        wakeUp > now ? notifier.holdingCalls(until: wakeUp, onTime) : onTime()
    }
}
