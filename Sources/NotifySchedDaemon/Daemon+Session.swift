import NotifySchedCore
import NotifySchedDesktop
import NotifySchedPlatform

// The session around the daemon: resume from suspend, unlocking and the system's time zone.
extension Daemon {
    /// Starts watching the session: each change is handled on the loop.
    func watchSession() {
        session.onStatus = { [unowned self] status in self.log.info("\(status)") }
        session.onResume = { [unowned self] in self.resumed(at: self.clock()) }
        session.onUnlock = { [unowned self] in
            self.log.info("the screen was unlocked")
            self.sessionEvent("session:unlock", countsAsRun: false, at: self.clock())
        }
        session.onZoneChange = { [unowned self] name in self.zoneChanged(to: name, at: self.clock()) }
        session.start()
    }

    /// After a resume from suspend: one reconcile, then the session-resume event (iNotify
    /// checks, iSmartNews cycles that count a run, as an app returning to the foreground does).
    func resumed(at now: Instant) {
        log.notice("resumed from suspend; planning again")
        perform(.resumed, at: now)
        sessionEvent("session:resume", countsAsRun: true, at: now)
    }

    /// The system's zone changed to `name` (nil: read `/etc/localtime` again); the core
    /// decides whether the user's zone follows it.
    func zoneChanged(to name: String?, at now: Instant) {
        let zone =
            name.flatMap { zones.zone(named: $0) } ?? SystemTimeZone.current(environment: [:], database: zones)
        perform(.zoneChanged(zone), at: now)
    }
}
