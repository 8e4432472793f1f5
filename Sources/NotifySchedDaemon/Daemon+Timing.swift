import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform

// The one wall-clock timer: armed a little ahead of the core's next wake-up, it wakes the
// daemon to make that wake-up's popups ready before their due time; it also wakes it when the
// wall clock steps.
extension Daemon {
    /// How long before a wake-up the timer fires. The core decides the wake-up at its instant
    /// and the popups are laid out at once; their calls then wait on their threads and go out
    /// at the instant (`DesktopNotifier.holdingCalls(until:_:)`). Deciding and laying out take
    /// about a quarter of a millisecond, which would otherwise come between the due time and the
    /// popup.
    static let sendingLead = TimeSpan.milliseconds(2)

    /// The instant an event that comes at `now` is handed to the core at: the timer's last event
    /// was handled at its wake-up, up to `sendingLead` ahead of the clock, and the core's time
    /// steps back only with the clock, so an event meanwhile counts from that wake-up.
    func coreTime(of now: Instant) -> Instant {
        guard let held = heldTimerEvent, now < held, held - now <= Self.sendingLead else { return now }
        return held
    }

    /// Arms the timer `sendingLead` ahead of the core's next wake-up.
    func armTimer() {
        timer.arm(at: core.nextWakeUp.map { $0 - Self.sendingLead })
    }

    func timerWoke() {
        let now = clock()
        let event = timer.acknowledge()
        if event == .clockChanged {
            log.notice("the clock changed; planning again")
        } else if let wakeUp = core.nextWakeUp, now < wakeUp {
            // Woken `sendingLead` ahead; nothing to do when it was re-armed later meanwhile.
            guard wakeUp - now <= Self.sendingLead else { return armTimer() }
            timerWakeUps += 1
            heldTimerEvent = wakeUp
            // The loop goes back to waiting at once: at `wakeUp` only the calls' threads wake.
            return notifier.holdingCalls(until: wakeUp) { perform(.timerWoke(clockChanged: false), at: wakeUp) }
        }
        timerWakeUps += 1
        perform(.timerWoke(clockChanged: event == .clockChanged), at: now)
    }
}
