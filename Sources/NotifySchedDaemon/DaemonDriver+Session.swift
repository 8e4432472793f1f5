import NotifySchedCore
import NotifySchedPlatform

// The session around the daemon: resume from suspend, unlocking and the system's time zone,
// each an event the host hands over (`Daemon` from its `SessionWatcher`).
extension DaemonDriver {
    /// After a resume from suspend: one reconcile, then the session-resume event (iNotify
    /// checks, iSmartNews cycles that count a run, as an app returning to the foreground does).
    public func resumed() {
        let now = clock()
        log.notice("resumed from suspend; planning again")
        perform(.resumed, at: now)
        sessionEvent("session:resume", countsAsRun: true, at: now)
    }

    /// The screen was unlocked: the session-unlock event.
    public func unlocked() {
        log.info("the screen was unlocked")
        sessionEvent("session:unlock", countsAsRun: false, at: clock())
    }

    /// The system's zone changed to `name` (nil: read `/etc/localtime` again); the core
    /// decides whether the user's zone follows it.
    public func zoneChanged(to name: String?) {
        let now = clock()
        let zone =
            name.flatMap { zones.zone(named: $0) }
            ?? SystemTimeZone.current(environment: [:], database: zones, localtimePath: localtimePath)
        perform(.zoneChanged(zone), at: now)
    }
}
