/// One display cycle of an iSmartNews source: what an occurrence of an event shows, in order.
///
/// The rules are iSmartNews's (seed semantics §2.4–§2.8), computed as a pure function of the
/// schedule, the stored state, the event and the time:
/// - the occurrence carries the posted name and the iSmartNews names it stands for
///   (`SeedEventNames`); every event object whose name it carries consumes one step of its
///   pattern, whether or not anything ends up shown;
/// - if none of them is active, nothing is shown, classic messages included; if none exists and
///   the occurrence is an `app:activate`, classic messages alone are shown;
/// - classic messages already shown, outside their `start`…`end` window, held back by
///   `counter` or by `FirstShowInterval` are left out; the rest go no-queue first (in feed
///   order), then by queue name; each queue shows only its next message in rotation, after its
///   timeout;
/// - at most one meta item is shown, among those in their window and `dates`, past their
///   `FirstShowInterval` and `minShowInterval`, not put away by `oncePerVersion` or
///   `oncePerInstall`, and, with `showOnlyIfUpgrade`, only after an upgrade: `what_is_new`,
///   else `review`, when eligible; else sorted by priority and uuid and taken round-robin per
///   event name, or at random when the active events have several names; what the state keeps
///   of meta items the feed no longer has is forgotten;
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

    /// Plans the cycle that an occurrence of `event` starts.
    ///
    /// - Parameters:
    ///   - event: The posted event name (any case).
    ///   - schedule: An iSmartNews schedule (other dialects give an empty cycle).
    ///   - state: The source's stored state; `upgraded` says which launch event a session start
    ///     stands for.
    ///   - handling: What the user answered: classic messages marked shown, meta items' closings.
    ///   - now: The current time.
    ///   - zone: The user's zone, for the wall-clock rules (weekly and monthly `dates`,
    ///     calendar days and hours).
    ///   - seed: Seeds the random pick among meta items.
    /// - Complexity: O(*n* log *n*) in the number of entries.
    public init(
        event: String, schedule: Schedule, state: NewsState, handling: SourceHandlingState, now: Instant,
        zone: ZoneRules = .utc, seed: UInt64 = 0
    ) {
        self.state = state
        self.items = []
        guard let settings = schedule.news else { return }
        self.state.forgetMetaItems(notIn: schedule)
        let posted = SeedEventNames.names(of: event, upgraded: state.upgraded)
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
        let activates = posted.contains(SeedEventNames.activate)
        guard activeGlobal || !activeLocal.isEmpty || (matching.isEmpty && activates) else { return }

        // The gate drops the rest of the cycle once it is reached: a queue or meta item not
        // reached does not turn (seed semantics §2.6, the 1.x code).
        let gate = settings.gate ?? Int.max
        let clock = Clock(now: now, zone: zone)
        var items: [Item] = []
        if matching.isEmpty || activeGlobal {
            items = classicMessages(
                in: schedule, shown: handling.shownNews, clock: clock, queues: settings.queues, gate: gate)
        }
        if items.count < gate {
            var random = SplitMix64(seed: seed)
            if let meta = metaItem(
                in: schedule, activeGlobal: activeGlobal, activeLocal: activeLocal, names: activeNames,
                closings: handling.metaClosings, clock: clock, random: &random)
            {
                items.append(meta)
            }
        }
        self.items = items
    }

    /// The time and the zone the wall-clock rules read it in.
    private struct Clock {
        var now: Instant
        var zone: ZoneRules
    }

    /// Consumes one step of `object`'s pattern; whether that step is on.
    private mutating func advance(_ object: EventObject) -> Bool {
        state.eventProgress.step(object.key, of: object.rule)
    }

    /// Eligible classic messages in display order, each queue reduced to its next message, at
    /// most `gate` of them.
    private mutating func classicMessages(
        in schedule: Schedule, shown: Set<String>, clock: Clock, queues: [NewsQueue], gate: Int
    ) -> [Item] {
        let eligible = schedule.entries.compactMap { entry -> (id: String, queue: String?)? in
            guard let rules = entry.news, case .message = rules.kind, !shown.contains(rules.contentHash),
                rules.isInWindow(at: clock.now), passesCounter(rules.counter),
                passesFirstShow(rules.firstShowDays, clock: clock)
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

    /// `FirstShowInterval`: shown only once that many calendar days passed since the first start.
    private func passesFirstShow(_ days: Int?, clock: Clock) -> Bool {
        guard let days, let first = state.firstStart else { return true }
        let elapsed = clock.zone.civil(at: clock.now).daysSinceEpoch - clock.zone.civil(at: first).daysSinceEpoch
        return elapsed >= days
    }

    /// The one meta item this occurrence shows, if any, after its random wait (`minDelay`…
    /// `maxDelay`); its showing is counted.
    private mutating func metaItem(
        in schedule: Schedule, activeGlobal: Bool, activeLocal: Set<String>, names: Set<String>,
        closings: [String: [MetaClosing: MetaClosingRecord]], clock: Clock, random: inout SplitMix64
    ) -> Item? {
        var ranges: [String: ShowRange] = [:]
        let eligible = schedule.entries.filter { entry in
            guard let rules = entry.news, case .meta(let item) = rules.kind, rules.isInWindow(at: clock.now),
                passesFirstShow(rules.firstShowDays, clock: clock)
            else { return false }
            switch entry.trigger {
            case .events(.local): guard activeLocal.contains(entry.id) else { return false }
            default: guard activeGlobal else { return false }
            }
            guard allows(item, uuid: entry.id, closings: closings[entry.id] ?? [:], clock: clock) else { return false }
            if item.ranges.isEmpty { return true }
            guard let range = openRange(of: item, uuid: entry.id, clock: clock) else { return false }
            ranges[entry.id] = range
            return true
        }.sorted(by: NewsCycle.metaOrder)
        guard !eligible.isEmpty else { return nil }
        let chosen: ScheduleEntry
        if let special = [MetaItem.whatIsNewUUID, MetaItem.reviewUUID].lazy.compactMap({ uuid in
            eligible.first { $0.id == uuid }
        }).first {
            // An eligible `what_is_new`, else `review`, is the only candidate (iSmartNews's
            // `onlySingleUuid`): no rotation passes it by.
            chosen = special
        } else if names.count > 1 {
            // iSmartNews picks at random when the active events have several names.
            chosen = eligible[Int(random.next() % UInt64(eligible.count))]
        } else {
            // Round-robin per event name: the item after the one shown last for this event.
            let name = names.sorted().joined(separator: "|")
            let lastIndex = state.lastMetaShown[name].flatMap { last in eligible.firstIndex { $0.id == last } }
            chosen = eligible[lastIndex.map { ($0 + 1) % eligible.count } ?? 0]
            state.lastMetaShown[name] = chosen.id
        }
        state.metaShownAt[chosen.id] = clock.now
        if let range = ranges[chosen.id] {
            let key = NewsState.rangeKey(uuid: chosen.id, range: range)
            let period = range.period(of: clock.now, zone: clock.zone)
            let count = state.rangeShows[key]?.count(in: period) ?? 0
            state.rangeShows[key] = RangeShows(period: period, count: count + 1)
        }
        var delay = TimeSpan.zero
        if case .meta(let item)? = chosen.news?.kind, let wait = item.showDelay {
            delay = .seconds(Int64(wait.lowerBound) + Int64(random.next() % UInt64(wait.count)))
        }
        return Item(entryID: chosen.id, delay: delay)
    }

    /// The rules of a meta item that depend on what happened before: an upgrade, how it was
    /// closed (in this application version, or ever), when it last showed.
    private func allows(
        _ item: MetaItem, uuid: String, closings: [MetaClosing: MetaClosingRecord], clock: Clock
    ) -> Bool {
        if item.showOnlyIfUpgrade, !state.upgraded { return false }
        if let rule = item.oncePerInstall, closings.keys.contains(where: rule.counts) { return false }
        if let rule = item.oncePerVersion,
            closings.contains(where: { rule.counts($0.key) && $0.value.applicationVersion == state.applicationVersion })
        {
            return false
        }
        if let interval = item.minShowInterval, let last = state.metaShownAt[uuid],
            !interval.allows(lastShown: last, now: clock.now, zone: clock.zone)
        {
            return false
        }
        return true
    }

    /// The first of the item's `dates` ranges that holds now and is under its limit for this
    /// week or month; nil when none is.
    private func openRange(of item: MetaItem, uuid: String, clock: Clock) -> ShowRange? {
        item.ranges.first { range in
            guard range.contains(clock.now, zone: clock.zone) else { return false }
            guard let limit = range.shownLimit else { return true }
            let shows = state.rangeShows[NewsState.rangeKey(uuid: uuid, range: range)]
            return shows?.count(in: range.period(of: clock.now, zone: clock.zone)) ?? 0 < limit
        }
    }

    /// Higher priority first, then uuid (case-insensitive).
    static func metaOrder(_ lhs: ScheduleEntry, _ rhs: ScheduleEntry) -> Bool {
        func priority(_ entry: ScheduleEntry) -> Int {
            if case .meta(let item)? = entry.news?.kind { return item.priority }
            return 0
        }
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
