import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Session events: iNotify checks, iSmartNews display cycles and the event-driven entries of
// native and ZBiM feeds.
extension Daemon {
    /// A session event (`session:start`, `session:resume`, `session:unlock`): iNotify sources
    /// are checked, iSmartNews sources run a display cycle of it (counting a run when
    /// `countsAsRun`), and entries of other sources whose `events` name it take a step.
    func sessionEvent(_ name: String, countsAsRun: Bool, at now: Instant) {
        for source in sources {
            guard let schedule = source.schedule else { continue }
            switch schedule.dialect {
            case .iNotify: checkINotify(source, schedule, at: now)
            case .iSmartNews: _ = runNewsCycle(event: name, countsAsRun: countsAsRun, source, schedule, at: now)
            case .native, .zbim: _ = fireEventEntries(event: name, source, schedule, at: now)
            }
        }
    }

    /// An event posted with `notify-sched event NAME`: every iSmartNews source runs a cycle of
    /// it, and entries of native and ZBiM sources whose `events` name it take a step.
    ///
    /// - Returns: What it showed, in words, for the caller to print.
    func postEvent(_ name: String, at now: Instant) -> String {
        var shown = 0
        var later = 0
        for source in sources {
            guard let schedule = source.schedule else { continue }
            switch schedule.dialect {
            case .iSmartNews:
                let cycle = runNewsCycle(event: name, countsAsRun: false, source, schedule, at: now)
                shown += cycle.shown
                later += cycle.later
            case .native, .zbim: shown += fireEventEntries(event: name, source, schedule, at: now)
            case .iNotify: break
            }
        }
        let result = "\(name): \(shown) shown" + (later > 0 ? ", \(later) to follow" : "")
        report("notify-sched: event \(result)")
        return result
    }

    func checkINotify(_ source: FollowedSource, _ schedule: Schedule, at now: Instant) {
        let settings = source.settings.iNotify
        do {
            var state = try store.sourceState(source.location)
            let handling = try store.handlingState(source.location)
            switch INotifyCheck.decision(
                at: now, settings: settings, hasRunBefore: state.hasRun, lastChecked: state.lastChecked,
                lastReminded: handling.lastReminded)
            {
            case .firstLaunch:
                report("notify-sched: \(source.location): first start, not checking (show-on-first-launch is off)")
            case .throttled(let until):
                report("notify-sched: \(source.location): next check from \(until.rfc3339)")
            case .check:
                let selection = INotifyCheck.select(
                    from: schedule.entries, viewed: handling.viewed, ignored: handling.ignored, settings: settings,
                    canOpen: notifier.canOpen)
                if selection.detected.isEmpty { report("notify-sched: \(source.location): no new notifications") }
                if let key = selection.key, let entry = schedule.entries.first(where: { $0.id == key }) {
                    _ = deliver(entry, of: source.location, occurrence: now, at: now)
                }
                state.lastChecked = now
            }
            state.hasRun = true
            try store.setSourceState(state, for: source.location)
        } catch {
            report("notify-sched: \(source.location): \(error)")
        }
    }

    /// Runs one iSmartNews display cycle of `event`: shows its messages, a queue's after the
    /// queue's timeout (counted from the message before it).
    ///
    /// - Returns: How many popups it showed now and how many follow later.
    func runNewsCycle(
        event: String, countsAsRun: Bool, _ source: FollowedSource, _ schedule: Schedule, at now: Instant
    ) -> (shown: Int, later: Int) {
        var shown = 0
        var later = 0
        do {
            var state = try store.newsState(source.location)
            if countsAsRun { state.runCounter += 1 }
            let cycle = NewsCycle(
                event: event, schedule: schedule, state: state,
                shown: try store.handlingState(source.location).shownNews, now: now)
            var wait = TimeSpan.zero
            for item in cycle.items {
                guard let entry = schedule.entries.first(where: { $0.id == item.entryID }) else { continue }
                wait = wait + item.delay
                if wait > .zero {
                    later += 1
                    notifier.after(wait) { [unowned self] in
                        let due = WallClock.now()
                        _ = deliver(entry, of: source.location, occurrence: due, at: due)
                    }
                } else if deliver(entry, of: source.location, occurrence: now, at: now) {
                    shown += 1
                }
            }
            try store.setNewsState(cycle.state, for: source.location)
        } catch {
            report("notify-sched: \(source.location): \(error)")
        }
        return (shown, later)
    }

    /// Shows the entries of a native or ZBiM source whose `events` patterns are on for `event`,
    /// and stores how far each pattern went; returns how many popups it showed.
    func fireEventEntries(event: String, _ source: FollowedSource, _ schedule: Schedule, at now: Instant) -> Int {
        var shown = 0
        do {
            var state = try store.newsState(source.location)
            let firing = EventFiring(event: event, schedule: schedule, progress: state.eventProgress, now: now)
            guard firing.progress != state.eventProgress else { return 0 }
            for entry in firing.entries where deliver(entry, of: source.location, occurrence: now, at: now) {
                shown += 1
            }
            state.eventProgress = firing.progress
            try store.setNewsState(state, for: source.location)
        } catch {
            report("notify-sched: \(source.location): \(error)")
        }
        return shown
    }
}
