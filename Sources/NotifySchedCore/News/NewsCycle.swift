/// One display cycle of an iSmartNews source: what an occurrence of an event shows, in order.
///
/// The rules are iSmartNews's (seed semantics §2.4–§2.8), computed as a pure function of the
/// schedule, the stored state, the event and the time:
/// - every event object whose name matches the posted event consumes one step of its pattern,
///   whether or not anything ends up shown;
/// - if none of them is active, nothing is shown, classic messages included; if none exists and
///   the event is the session start (`app:activate`), classic messages alone are shown;
/// - classic messages already shown, outside their `start`…`end` window, or held back by
///   `counter` are left out; the rest go no-queue first (in feed order), then by queue name;
///   each queue shows only its next message in rotation, after its timeout;
/// - at most one meta item is shown: eligible items sorted `what_is_new`, `review`, then by
///   priority and uuid, taken round-robin per event name;
/// - at most `gate` items are shown per cycle, and what the gate cuts off (a queue, the meta
///   item) does not turn.
public struct NewsCycle: Sendable, Equatable {
    /// A message to show, with how long to wait before showing it.
    public struct Item: Sendable, Equatable {
        /// The entry's id in the schedule.
        public var entryID: String
        /// Wait this long after the previous item is done with (a queue's timeout; zero for the
        /// first item of the cycle).
        public var delay: TimeSpan

        public init(entryID: String, delay: TimeSpan = .zero) {
            self.entryID = entryID
            self.delay = delay
        }
    }

    /// What to show, in order.
    public var items: [Item]
    /// The state after the cycle: patterns advanced, queues rotated.
    public var state: NewsState

    /// The event names that stand for the session starting.
    public static let sessionStartNames: Set<String> = ["session:start", "app:activate"]

    /// Plans the cycle that an occurrence of `event` starts.
    ///
    /// - Parameters:
    ///   - event: The posted event name (any case); `session:start` and `app:activate` are one event.
    ///   - schedule: An iSmartNews schedule (other dialects give an empty cycle).
    ///   - state: The source's stored state.
    ///   - shown: Content hashes of classic messages already marked shown.
    ///   - now: The current time.
    /// - Complexity: O(*n* log *n*) in the number of entries.
    public init(event: String, schedule: Schedule, state: NewsState, shown: Set<String>, now: Instant) {
        self.state = state
        self.items = []
        guard let settings = schedule.news else { return }
        let posted = NewsCycle.names(matching: event)
        let objects = EventObject.all(in: schedule, settings: settings)
        // Events the feed no longer has are forgotten (seed semantics §2.7: deleted when the feed
        // is loaded; the first cycle after it is the first to read them here).
        let current = Set(objects.map(\.key))
        self.state.eventProgress = state.eventProgress.filter { current.contains($0.key) }
        let matching = objects.filter { posted.contains($0.rule.name) }
        var activeGlobal = false
        var activeLocal: Set<String> = []
        var activeNames: Set<String> = []
        for object in matching {
            let active = advance(object)
            guard active else { continue }
            activeNames.insert(object.rule.name)
            if let owner = object.owner { activeLocal.insert(owner) } else { activeGlobal = true }
        }
        let startsSession = !posted.isDisjoint(with: NewsCycle.sessionStartNames)
        guard activeGlobal || !activeLocal.isEmpty || (matching.isEmpty && startsSession) else { return }

        // The gate drops the rest of the cycle once it is reached: a queue or meta item not
        // reached does not turn (seed semantics §2.6, the 1.x code).
        let gate = settings.gate ?? Int.max
        var items: [Item] = []
        if matching.isEmpty || activeGlobal {
            items = classicMessages(in: schedule, shown: shown, now: now, queues: settings.queues, gate: gate)
        }
        if items.count < gate,
            let meta = metaItem(
                in: schedule, activeGlobal: activeGlobal, activeLocal: activeLocal, names: activeNames, now: now)
        {
            items.append(Item(entryID: meta))
        }
        self.items = items
    }

    /// The names an event object may carry to match a posted `event`.
    static func names(matching event: String) -> Set<String> {
        let name = event.lowercased()
        return NewsCycle.sessionStartNames.contains(name) ? NewsCycle.sessionStartNames : [name]
    }

    /// Consumes one step of `object`'s pattern; whether that step is on.
    private mutating func advance(_ object: EventObject) -> Bool {
        state.eventProgress.step(object.key, of: object.rule)
    }

    /// Eligible classic messages in display order, each queue reduced to its next message, at
    /// most `gate` of them.
    private mutating func classicMessages(
        in schedule: Schedule, shown: Set<String>, now: Instant, queues: [NewsQueue], gate: Int
    ) -> [Item] {
        let eligible = schedule.entries.compactMap { entry -> (id: String, queue: String?)? in
            guard let rules = entry.news, case .message = rules.kind, !shown.contains(rules.contentHash),
                rules.isInWindow(at: now), passesCounter(rules.counter)
            else { return nil }
            return (entry.id, rules.queue?.lowercased())
        }
        let unqueued = eligible.filter { $0.queue == nil }.map { Item(entryID: $0.id) }
        let queueNames = Array(Set(eligible.compactMap(\.queue))).sorted()
        var items = Array(unqueued.prefix(gate))
        for name in queueNames where items.count < gate {
            let members = eligible.filter { $0.queue == name }
            var index = state.queueIndexes[name] ?? 0
            if index >= members.count { index = 0 }
            state.queueIndexes[name] = index + 1
            let timeout = queues.first { $0.name.lowercased() == name }?.timeout ?? .zero
            items.append(Item(entryID: members[index].id, delay: items.isEmpty ? .zero : timeout))
        }
        return items
    }

    /// iSmartNews's rule: with a run counter and a `counter`, show from the `counter`-th run on.
    private func passesCounter(_ counter: Int?) -> Bool {
        guard let counter, counter > 0, state.runCounter != 0 else { return true }
        return state.runCounter >= counter
    }

    /// The one meta item this occurrence shows, if any.
    private mutating func metaItem(
        in schedule: Schedule, activeGlobal: Bool, activeLocal: Set<String>, names: Set<String>, now: Instant
    ) -> String? {
        let eligible = schedule.entries.filter { entry in
            guard let rules = entry.news, case .meta = rules.kind, rules.isInWindow(at: now) else { return false }
            switch entry.trigger {
            case .events(.local): return activeLocal.contains(entry.id)
            default: return activeGlobal
            }
        }.sorted(by: NewsCycle.metaOrder)
        guard !eligible.isEmpty else { return nil }
        // Round-robin per event name: the item after the one shown last for this event.
        let name = names.sorted().joined(separator: "|")
        let lastIndex = state.lastMetaShown[name].flatMap { last in eligible.firstIndex { $0.id == last } }
        let chosen = eligible[lastIndex.map { ($0 + 1) % eligible.count } ?? 0]
        state.lastMetaShown[name] = chosen.id
        return chosen.id
    }

    /// `what_is_new` first, then `review`, then higher priority, then uuid (case-insensitive).
    static func metaOrder(_ lhs: ScheduleEntry, _ rhs: ScheduleEntry) -> Bool {
        func rank(_ entry: ScheduleEntry) -> Int {
            switch entry.id.lowercased() {
            case "what_is_new": 0
            case "review": 1
            default: 2
            }
        }
        func priority(_ entry: ScheduleEntry) -> Int {
            if case .meta(let item)? = entry.news?.kind { return item.priority }
            return 0
        }
        if rank(lhs) != rank(rhs) { return rank(lhs) < rank(rhs) }
        if priority(lhs) != priority(rhs) { return priority(lhs) > priority(rhs) }
        return lhs.id.lowercased() < rhs.id.lowercased()
    }
}

/// An event a source listens to: a global event of the feed, or one attached to a meta item.
struct EventObject {
    /// The meta item the event is attached to; nil for a global event.
    var owner: String?
    var rule: EventRule

    /// Which of the feed's global events of the same name it is, from 1.
    var rank = 1

    /// Where its progress is stored: no two event objects share progress, global or attached.
    /// The first global event of a name keeps the key it always had.
    var key: String {
        owner.map { "meta:\($0):\(rule.name)" } ?? (rank == 1 ? "global:\(rule.name)" : "global:\(rule.name)#\(rank)")
    }

    static func all(in schedule: Schedule, settings: NewsSettings) -> [EventObject] {
        var ranks: [String: Int] = [:]
        var objects = settings.globalEvents.map { rule in
            ranks[rule.name, default: 0] += 1
            return EventObject(owner: nil, rule: rule, rank: ranks[rule.name]!)
        }
        for entry in schedule.entries {
            if case .events(.local(let rules)) = entry.trigger {
                objects += rules.map { EventObject(owner: entry.id, rule: $0) }
            }
        }
        return objects
    }
}
