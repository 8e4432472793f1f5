import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Session events: iNotify checks and iSmartNews display cycles.
extension Daemon {
    /// A session event (`session:start`, `session:resume`, `session:unlock`): iNotify sources
    /// are checked, iSmartNews sources run a display cycle of it (counting a run when
    /// `countsAsRun`).
    func sessionEvent(_ name: String, countsAsRun: Bool, at now: Instant) {
        for source in sources {
            guard let schedule = source.schedule else { continue }
            switch schedule.dialect {
            case .iNotify: checkINotify(source, schedule, at: now)
            case .iSmartNews: _ = runNewsCycle(event: name, countsAsRun: countsAsRun, source, schedule, at: now)
            case .native, .zbim: break
            }
        }
    }

    /// An event posted with `notify-sched event NAME`: every iSmartNews source runs a cycle of it.
    ///
    /// - Returns: What it showed, in words, for the caller to print.
    func postEvent(_ name: String, at now: Instant) -> String {
        var shown = 0
        for source in sources {
            guard let schedule = source.schedule, schedule.dialect == .iSmartNews else { continue }
            shown += runNewsCycle(event: name, countsAsRun: false, source, schedule, at: now)
        }
        report("notify-sched: event \(name): \(shown) shown")
        return "\(name): \(shown) shown"
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

    /// Runs one iSmartNews display cycle of `event`; returns how many popups it showed.
    func runNewsCycle(
        event: String, countsAsRun: Bool, _ source: FollowedSource, _ schedule: Schedule, at now: Instant
    ) -> Int {
        var shown = 0
        do {
            var state = try store.newsState(source.location)
            if countsAsRun { state.runCounter += 1 }
            let cycle = NewsCycle(
                event: event, schedule: schedule, state: state,
                shown: try store.handlingState(source.location).shownNews, now: now)
            for item in cycle.items {
                if let entry = schedule.entries.first(where: { $0.id == item.entryID }),
                    deliver(entry, of: source.location, occurrence: now, at: now)
                {
                    shown += 1
                }
            }
            try store.setNewsState(cycle.state, for: source.location)
        } catch {
            report("notify-sched: \(source.location): \(error)")
        }
        return shown
    }
}
