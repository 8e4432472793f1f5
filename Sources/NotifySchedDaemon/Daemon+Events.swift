import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Session events, posted events and iNotify's manual check: what each chooses for a source is
// the core's decision (`SourceEventPlan`); the daemon stores it with the state it changes, in
// one transaction, and the chosen popups wait among the waiting popups (`Daemon+Waiting.swift`)
// until they are shown.
extension Daemon {
    /// A session event (`session:start`, `session:resume`, `session:unlock`) for every source.
    ///
    /// A source whose feed has not arrived yet (a portal URL on its first start) takes the
    /// session start when its feed arrives: iNotify checks after downloading, too.
    func sessionEvent(_ name: String, countsAsRun: Bool, at now: Instant) {
        if name == "session:start" {
            perform(.sessionStarted(withoutFeed: sources.indices.filter { schedule(of: $0) == nil }), at: now)
        }
        let chosen = sources.indices.flatMap { choose(.session(name, countsAsRun: countsAsRun), source: $0, at: now) }
        perform(.popupsChosen(chosen), at: now)
    }

    /// The session start for a source whose first feed just arrived (`DaemonEffect.takeSessionStart`).
    ///
    /// - Returns: The occurrence ids of the popups shown.
    func sessionStart(source index: Int, at now: Instant) -> [String] {
        let chosen = choose(.session("session:start", countsAsRun: true), source: index, at: now)
        return carryOut(core.handle(.popupsChosen(chosen), at: now), at: now)
    }

    /// An event posted with `notify-sched event NAME`: every iSmartNews source runs a cycle of
    /// it, and entries of native and ZBiM sources whose `events` name it take a step.
    ///
    /// - Returns: What it showed, in words, for the caller to print.
    func postEvent(_ name: String, at now: Instant) -> String {
        let chosen = sources.indices.flatMap { choose(.posted(name), source: $0, at: now) }
        let shownNow = Set(carryOut(core.handle(.popupsChosen(chosen), at: now), at: now))
        armTimer()
        let shown = chosen.filter { shownNow.contains($0.popup.occurrenceID) }.count
        let later = chosen.count - shown
        let result = "\(name): \(shown) shown" + (later > 0 ? ", \(later) to follow" : "")
        report("notify-sched: event \(result)")
        return result
    }

    /// Checks every iNotify source at once, as iNotify's manual check does (seed semantics
    /// §5.16), and shows what they chose.
    func checkINotifySourcesNow(at now: Instant) {
        let chosen = sources.indices.flatMap { choose(.manualCheck, source: $0, at: now) }
        perform(.popupsChosen(chosen), at: now)
    }

    /// What `event` chooses for source `index` (`SourceEventPlan`), stored with the state it
    /// leaves: the popups then wait their turn in the core.
    ///
    /// - Returns: The popups it chose.
    private func choose(_ event: SourceEvent, source index: Int, at now: Instant) -> [PopupQueue.Item] {
        let source = sources[index]
        guard let schedule = schedule(of: index) else { return [] }
        do {
            let memory = SourceMemory(
                check: try store.sourceState(source.location), news: try store.newsState(source.location),
                handling: try store.handlingState(source.location))
            let plan = SourceEventPlan(
                event, schedule: schedule, memory: memory, settings: source.settings.iNotify,
                location: source.location, waiting: core.waiting,
                onScreen: handler.onScreen.values.contains { $0.source == source.location },
                canOpen: notifier.canOpen, now: now)
            for note in plan.notes { report("notify-sched: \(source.location): \(note)") }
            let chosen = plan.popups.map(\.popup)
            if let check = plan.check {
                try store.setSourceState(
                    check, for: source.location, waiting: chosen, forgettingSeen: plan.forgettingSeen)
            } else if let news = plan.news {
                try store.setNewsState(news, for: source.location, waiting: chosen)
            }
            return plan.popups
        } catch {
            report("notify-sched: \(source.location): \(error)")
            return []
        }
    }
}
