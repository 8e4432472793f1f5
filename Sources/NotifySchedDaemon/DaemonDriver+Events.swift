import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Session events, posted events and iNotify's manual check: what each chooses for a source is
// the core's decision (`SourceEventPlan`, through `DaemonEvent.sourceEvent`); the daemon reads
// what the state database remembers of each source, stores each choice with the state it
// changes, in one transaction, and the chosen popups wait in the core until they are shown.
extension DaemonDriver {
    /// A session event (`session:start`, `session:resume`, `session:unlock`) for every source.
    ///
    /// A source whose feed has not arrived yet (a portal URL on its first start) takes the
    /// session start when its feed arrives: iNotify checks after downloading, too.
    func sessionEvent(_ name: String, countsAsRun: Bool, at now: Instant) {
        sourceEvent(.session(name, countsAsRun: countsAsRun), sources: Array(sources.indices), at: now)
        finishEvent(at: now)
    }

    /// An event posted with `notify-sched event NAME`: every iSmartNews source runs a cycle of
    /// it, and entries of native and ZBiM sources whose `events` name it take a step.
    ///
    /// - Returns: What it showed, in words, for the caller to print.
    func postEvent(_ name: String, at now: Instant) -> String {
        let (chosen, shownNow) = sourceEvent(.posted(name), sources: Array(sources.indices), at: now)
        finishEvent(at: now)
        let shown = chosen.filter(Set(shownNow).contains).count
        let later = chosen.count - shown
        let result = "\(name): \(shown) shown" + (later > 0 ? ", \(later) to follow" : "")
        log.info("event \(result)")
        return result
    }

    /// Hands the core `event` for the sources at `indices`, with what the state database
    /// remembers of each, and carries out what it decides.
    ///
    /// - Returns: The occurrence ids of the popups chosen, and of the popups shown.
    @discardableResult
    func sourceEvent(_ event: SourceEvent, sources indices: [Int], at now: Instant) -> (
        chosen: [String], shown: [String]
    ) {
        let contexts = indices.compactMap(context(of:))
        let schemes = contexts.reduce(into: Set<String>()) { schemes, context in
            guard let schedule = schedule(of: context.source) else { return }
            schemes.formUnion(SourceEventPlan.schemesAskedAbout(in: schedule))
        }
        let urlHandlers = notifier.urlHandlers(among: schemes)
        let effects = decide(.sourceEvent(event, sources: contexts, urlHandlers: urlHandlers), at: now)
        let chosen = effects.flatMap { effect -> [String] in
            guard case .storeChoice(_, let plan) = effect else { return [] }
            return plan.popups.map(\.popup.occurrenceID)
        }
        return (chosen, carryOut(effects, at: now))
    }

    /// Stores a source event's choice for source `index` with the state it leaves, in one
    /// transaction, then hands the chosen popups to the core.
    ///
    /// - Returns: The occurrence ids of the popups shown then.
    func storeChoice(_ plan: SourceEventPlan, source index: Int, at now: Instant) -> [String] {
        let location = sources[index].location
        for note in plan.notes { log.info("\(location): \(note)") }
        let chosen = plan.popups.map(\.popup)
        do {
            if let check = plan.check {
                try store.setSourceState(check, for: location, waiting: chosen, forgettingSeen: plan.forgettingSeen)
            } else if let news = plan.news {
                try store.setNewsState(news, for: location, waiting: chosen)
            }
        } catch {
            log.error("\(location): \(error)")
            return []
        }
        return carryOut(decide(.popupsChosen(plan.popups), at: now), at: now)
    }

    /// Source `index` as a source event finds it; nil, logged, when the state database cannot say.
    private func context(of index: Int) -> SourceContext? {
        let location = sources[index].location
        do {
            return SourceContext(
                source: index, memory: try store.memory(of: location),
                settings: core.polling.sources[index].settings.iNotify)
        } catch {
            log.error("\(location): \(error)")
            return nil
        }
    }
}
