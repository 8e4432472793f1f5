/// The impressions the caps count, held by what counts them: each entry, each group, each
/// source and all popups together (the last two without critical ones, which the user's
/// bound neither bounds nor counts). The daemon's core holds it; the state database keeps it
/// across restarts, written with each delivery.
///
/// - Complexity: adding, removing and counting within a window are O(log n) searches (plus an
///   array insertion) in the impressions of the key; most keys have a handful.
public struct ImpressionLog: Sendable {
    private struct EntryKey: Hashable {
        var source: String
        var entryID: String
    }

    private struct GroupKey: Hashable {
        var source: String
        var group: String
    }

    private var entries: [EntryKey: [Impression]] = [:]
    private var groups: [GroupKey: SortedInstants] = [:]
    private var sources: [String: SortedInstants] = [:]
    private var everything = SortedInstants()

    /// A log of `impressions`, in any order.
    public init(_ impressions: [Impression] = []) {
        for impression in impressions { add(impression) }
    }

    /// How many impressions it holds.
    public var count: Int { entries.values.reduce(0) { $0 + $1.count } }

    /// Whether the occurrence with `occurrenceID` of `entryID` in `source` was counted already.
    public func contains(occurrenceID: String, entryID: String, source: String) -> Bool {
        entries[EntryKey(source: source, entryID: entryID)]?.contains { $0.occurrenceID == occurrenceID } ?? false
    }

    /// Counts `impression`, unless its occurrence is counted already.
    public mutating func add(_ impression: Impression) {
        let key = EntryKey(source: impression.source, entryID: impression.entryID)
        guard !contains(occurrenceID: impression.occurrenceID, entryID: key.entryID, source: key.source) else {
            return
        }
        let shownAt = impression.shownAt
        // In place: a copy taken out and put back would copy the whole list at every popup.
        entries[key, default: []].insertSorted(impression, at: shownAt)
        for group in Set(impression.groups) {
            groups[GroupKey(source: impression.source, group: group), default: SortedInstants()].insert(shownAt)
        }
        guard !impression.critical else { return }
        sources[impression.source, default: SortedInstants()].insert(shownAt)
        everything.insert(shownAt)
    }

    /// Forgets the impression of the occurrence: its popup was not shown after all.
    public mutating func remove(occurrenceID: String, entryID: String, source: String) {
        let key = EntryKey(source: source, entryID: entryID)
        guard let index = entries[key]?.firstIndex(where: { $0.occurrenceID == occurrenceID }),
            let impression = entries[key]?.remove(at: index)
        else { return }
        if entries[key]?.isEmpty == true { entries[key] = nil }
        for group in Set(impression.groups) {
            groups[GroupKey(source: source, group: group)]?.remove(impression.shownAt)
        }
        guard !impression.critical else { return }
        sources[source]?.remove(impression.shownAt)
        everything.remove(impression.shownAt)
    }

    /// Forgets the impressions from before `cutoff` that no cap can count any more: those
    /// beyond every window (`FrequencyCap.longestPeriod`) except each entry's and each group's
    /// latest `FrequencyCap.lifetimeLimit`, which lifetime caps count.
    public mutating func prune(before cutoff: Instant) {
        let keep = FrequencyCap.lifetimeLimit
        for (key, list) in entries {
            let old = list.partitioningIndex { $0.shownAt >= cutoff }
            let dropped = min(old, list.count - keep)
            guard dropped > 0 else { continue }
            entries[key] = Array(list.dropFirst(dropped))
        }
        for key in groups.keys { groups[key]?.prune(before: cutoff, keepingLatest: keep) }
        for key in sources.keys { sources[key]?.prune(before: cutoff, keepingLatest: 0) }
        everything.prune(before: cutoff, keepingLatest: 0)
    }

    /// The instants the entry's impressions were shown at, oldest first.
    func shown(entryID: String, source: String) -> [Instant] {
        entries[EntryKey(source: source, entryID: entryID)]?.map(\.shownAt) ?? []
    }

    /// The instants the impressions of the group's members were shown at, oldest first.
    func shown(group: String, source: String) -> [Instant] {
        groups[GroupKey(source: source, group: group)]?.instants ?? []
    }

    /// How many popups of `source` that are not critical were shown after `start`.
    func shownAfter(_ start: Instant, source: String) -> Int { sources[source]?.count(after: start) ?? 0 }

    /// How many popups that are not critical were shown after `start`.
    func shownAfter(_ start: Instant) -> Int { everything.count(after: start) }
}

/// Instants in ascending order, repeats kept.
private struct SortedInstants: Sendable {
    private(set) var instants: [Instant] = []

    mutating func insert(_ instant: Instant) {
        instants.insert(instant, at: instants.partitioningIndex { $0 > instant })
    }

    mutating func remove(_ instant: Instant) {
        let index = instants.partitioningIndex { $0 >= instant }
        if index < instants.count, instants[index] == instant { instants.remove(at: index) }
    }

    func count(after start: Instant) -> Int {
        instants.count - instants.partitioningIndex { $0 > start }
    }

    mutating func prune(before cutoff: Instant, keepingLatest keep: Int) {
        let dropped = min(instants.partitioningIndex { $0 >= cutoff }, instants.count - keep)
        if dropped > 0 { instants.removeFirst(dropped) }
    }
}

extension Array where Element == Impression {
    /// Inserts `impression`, shown at `shownAt`, after those shown at or before it.
    fileprivate mutating func insertSorted(_ impression: Impression, at shownAt: Instant) {
        insert(impression, at: partitioningIndex { $0.shownAt > shownAt })
    }
}
