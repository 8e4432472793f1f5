import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Session events: iNotify checks, iSmartNews display cycles and the event-driven entries of
// native and ZBiM feeds. What they choose to show is stored with the state they change and
// waits among the waiting popups (`Daemon+Waiting.swift`) until it is shown.
extension Daemon {
    /// A session event (`session:start`, `session:resume`, `session:unlock`): iNotify sources
    /// are checked, iSmartNews sources run a display cycle of it (counting a run when
    /// `countsAsRun`), and entries of other sources whose `events` name it take a step.
    ///
    /// A source whose feed has not arrived yet (a portal URL on its first start) takes the
    /// session start when its feed arrives: iNotify checks after downloading, too.
    func sessionEvent(_ name: String, countsAsRun: Bool, at now: Instant) {
        for index in sources.indices {
            if schedule(of: index) == nil, name == "session:start" {
                sourcesAwaitingSessionStart.insert(index)
            }
            sessionEvent(name, countsAsRun: countsAsRun, source: index, at: now)
        }
        deliverWaiting(at: now)
        armTimer()
    }

    /// The session start for a source whose first feed just arrived, if it waited for one.
    func sessionStartIfAwaited(source index: Int, at now: Instant) {
        guard schedule(of: index) != nil, sourcesAwaitingSessionStart.remove(index) != nil else { return }
        sessionEvent("session:start", countsAsRun: true, source: index, at: now)
        deliverWaiting(at: now)
    }

    private func sessionEvent(_ name: String, countsAsRun: Bool, source index: Int, at now: Instant) {
        let source = sources[index]
        guard let schedule = schedule(of: index) else { return }
        switch schedule.dialect {
        case .iNotify: checkINotify(source, schedule, at: now)
        case .iSmartNews: runNewsCycle(event: name, countsAsRun: countsAsRun, source, schedule, at: now)
        case .native, .zbim: fireEventEntries(event: name, source, schedule, at: now)
        }
    }

    /// An event posted with `notify-sched event NAME`: every iSmartNews source runs a cycle of
    /// it, and entries of native and ZBiM sources whose `events` name it take a step.
    ///
    /// - Returns: What it showed, in words, for the caller to print.
    func postEvent(_ name: String, at now: Instant) -> String {
        var chosen: [String] = []
        for (index, source) in sources.enumerated() {
            guard let schedule = schedule(of: index) else { continue }
            switch schedule.dialect {
            case .iSmartNews:
                chosen += runNewsCycle(event: name, countsAsRun: false, source, schedule, at: now)
            case .native, .zbim: chosen += fireEventEntries(event: name, source, schedule, at: now)
            case .iNotify: break
            }
        }
        let shownNow = deliverWaiting(at: now)
        armTimer()
        let shown = chosen.filter(shownNow.contains).count
        let later = chosen.count - shown
        let result = "\(name): \(shown) shown" + (later > 0 ? ", \(later) to follow" : "")
        report("notify-sched: event \(result)")
        return result
    }

    /// Checks an iNotify source as iNotify does at launch (seed semantics §1.3–§1.4): when the
    /// check is due, it picks one message, and only while no popup of the source is on screen
    /// or waiting (§5.29: one at a time). `force` skips the periods and the first-start rule,
    /// as iNotify's manual check does.
    func checkINotify(_ source: FollowedSource, _ schedule: Schedule, at now: Instant, force: Bool = false) {
        let settings = source.settings.iNotify
        do {
            var state = try store.sourceState(source.location)
            let handling = try store.handlingState(source.location)
            let decision =
                force
                ? .check
                : INotifyCheck.decision(
                    at: now, settings: settings, hasRunBefore: state.hasRun, lastChecked: state.lastChecked,
                    lastReminded: handling.lastReminded)
            var chosen: [ScheduleEntry] = []
            var forgettingSeen = false
            switch decision {
            case .firstLaunch:
                report("notify-sched: \(source.location): first start, not checking (show-on-first-launch is off)")
            case .throttled(let until):
                report("notify-sched: \(source.location): next check from \(until.rfc3339)")
            case .check where hasPopupOnScreenOrWaiting(source.location):
                report("notify-sched: \(source.location): its last message is on screen or waiting; none more")
                state.lastChecked = now
            case .check:
                let selection = INotifyCheck.select(
                    from: schedule.entries, viewed: handling.viewed, ignored: handling.ignored, settings: settings,
                    canOpen: notifier.canOpen)
                if selection.detected.isEmpty { report("notify-sched: \(source.location): no new notifications") }
                if let key = selection.key, let entry = schedule.entries.first(where: { $0.id == key }) {
                    chosen = [entry]
                }
                forgettingSeen = selection.resetsSeenLists
                state.lastChecked = now
            }
            state.hasRun = true
            let popups = waiting.popups(for: chosen, of: source.location, at: now)
            try store.setSourceState(
                state, for: source.location, waiting: popups.map(\.popup), forgettingSeen: forgettingSeen)
            waiting.add(popups)
        } catch {
            report("notify-sched: \(source.location): \(error)")
        }
    }

    /// Runs one iSmartNews display cycle of `event`: its messages wait to be shown, a queue's
    /// until the queue's timeout after the message before it.
    ///
    /// - Returns: The occurrence ids of the popups it chose.
    @discardableResult
    func runNewsCycle(
        event: String, countsAsRun: Bool, _ source: FollowedSource, _ schedule: Schedule, at now: Instant
    ) -> [String] {
        do {
            var state = try store.newsState(source.location)
            if countsAsRun { state.runCounter += 1 }
            let cycle = NewsCycle(
                event: event, schedule: schedule, state: state,
                shown: try store.handlingState(source.location).shownNews, now: now)
            var popups: [PopupQueue.Item] = []
            var wait = TimeSpan.zero
            for item in cycle.items {
                guard let entry = schedule.entries.first(where: { $0.id == item.entryID }) else { continue }
                wait = wait + item.delay
                popups += waiting.popups(for: [entry], of: source.location, at: now + wait)
            }
            try store.setNewsState(cycle.state, for: source.location, waiting: popups.map(\.popup))
            waiting.add(popups)
            return popups.map(\.popup.occurrenceID)
        } catch {
            report("notify-sched: \(source.location): \(error)")
            return []
        }
    }

    /// Lets the entries of a native or ZBiM source whose `events` patterns are on for `event`
    /// wait to be shown, and stores how far each pattern went.
    ///
    /// - Returns: The occurrence ids of the popups it chose.
    @discardableResult
    func fireEventEntries(event: String, _ source: FollowedSource, _ schedule: Schedule, at now: Instant) -> [String] {
        do {
            var state = try store.newsState(source.location)
            let firing = EventFiring(event: event, schedule: schedule, progress: state.eventProgress, now: now)
            guard firing.progress != state.eventProgress else { return [] }
            state.eventProgress = firing.progress
            let popups = waiting.popups(for: firing.entries, of: source.location, at: now)
            try store.setNewsState(state, for: source.location, waiting: popups.map(\.popup))
            waiting.add(popups)
            return popups.map(\.popup.occurrenceID)
        } catch {
            report("notify-sched: \(source.location): \(error)")
            return []
        }
    }
}
