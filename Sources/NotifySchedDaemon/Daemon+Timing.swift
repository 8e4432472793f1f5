import NotifySchedCore
import NotifySchedPlatform

// The one wall-clock timer: armed at the core's next wake-up, it wakes the daemon on time or
// when the wall clock steps.
extension Daemon {
    func timerWoke() {
        let now = WallClock.now()
        timerWakeUps += 1
        let clockChanged = timer.acknowledge() == .clockChanged
        if clockChanged { log.notice("the clock changed; planning again") }
        perform(.timerWoke(clockChanged: clockChanged), at: now)
    }
}
