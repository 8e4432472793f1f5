/// How a source's schedule changed from one load of its feed to the next: the entries added,
/// changed and withdrawn, matched by id (DESIGN §5: a changed entry replaces its popup in
/// place, a withdrawn one is closed and its pending occurrences cancelled).
///
/// An entry is *changed* when anything the schedule acts on differs: its content, trigger,
/// lateness window, expiry, version range, category or iSmartNews rules. Its place in the feed
/// is not part of it, so moving an entry or editing its neighbours changes nothing. When a feed
/// repeats an id, the first entry with it is matched and the later ones count as added (and, in
/// the old feed, as withdrawn).
///
///     let changes = ScheduleChanges(from: old.entries, to: new.entries)
///     for position in changes.withdrawn { cancel(old.entries[position]) }
///
/// - Complexity: O(*n* + *m*) for *n* old and *m* new entries: one dictionary of the old ids,
///   and per matched entry a comparison of the entries' digests (`hasSameMeaning(as:)`).
public struct ScheduleChanges: Sendable, Equatable {
    /// An entry present in both schedules, by its positions in the old and the new entries.
    public struct Match: Sendable, Equatable {
        public var old: Int
        public var new: Int

        public init(old: Int, new: Int) {
            self.old = old
            self.new = new
        }
    }

    /// Positions in the new entries of ids the old schedule did not have, in feed order.
    public var added: [Int]
    /// Entries whose id stayed and whose meaning changed, in the new feed's order.
    public var changed: [Match]
    /// Entries that stayed as they were, in the new feed's order.
    public var unchanged: [Match]
    /// Positions in the old entries of ids the new schedule no longer has, in feed order.
    public var withdrawn: [Int]

    /// Compares two lists of entries by id and content.
    ///
    /// - Parameters:
    ///   - old: The entries in force so far (empty for a source loaded for the first time).
    ///   - new: The entries of the feed just loaded.
    public init(from old: [ScheduleEntry], to new: [ScheduleEntry]) {
        var oldPositions: [String: Int] = [:]
        oldPositions.reserveCapacity(old.count)
        for position in old.indices where oldPositions[old[position].id] == nil {
            oldPositions[old[position].id] = position
        }
        var matched = [Bool](repeating: false, count: old.count)
        added = []
        changed = []
        unchanged = []
        for position in new.indices {
            guard let oldPosition = oldPositions[new[position].id], !matched[oldPosition] else {
                added.append(position)
                continue
            }
            matched[oldPosition] = true
            let match = Match(old: oldPosition, new: position)
            if new[position].hasSameMeaning(as: old[oldPosition]) {
                unchanged.append(match)
            } else {
                changed.append(match)
            }
        }
        withdrawn = matched.indices.filter { !matched[$0] }
    }

    /// Whether nothing was added, changed or withdrawn.
    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && withdrawn.isEmpty }

    /// The counts, as `sync` and the log say them: `N added, N changed, N withdrawn`.
    public var counts: String {
        "\(added.count) added, \(changed.count) changed, \(withdrawn.count) withdrawn"
    }
}

extension ScheduleEntry {
    /// Whether `other` asks for the same notifications: its id and its digest of every other
    /// field are equal.
    ///
    /// - Complexity: O(1): the fields were summed up when the entries were made.
    public func hasSameMeaning(as other: ScheduleEntry) -> Bool {
        digest == other.digest && id == other.id
    }
}
