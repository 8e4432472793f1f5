/// Which delivered occurrence an id a person typed names: `handle` takes an occurrence id (as
/// `test`, `list` and the popup's `x-notify-sched-id` hint give it) or an entry id, which names
/// the entry's latest delivered occurrence.
public enum OccurrenceLookup: Sendable, Equatable {
    /// A delivered occurrence the id names: the occurrence id itself, or the latest one of the
    /// entry it names.
    case found(occurrenceID: String)
    /// An entry id that several sources deliver: the latest occurrence of each, latest first.
    case ambiguous([Candidate])
    /// Neither an occurrence id nor the id of an entry notify-sched delivered.
    case notFound

    /// A delivered occurrence the id may name (`StateStore.occurrences(named:)`).
    public struct Candidate: Sendable, Equatable {
        public var occurrenceID: String
        /// The source's location, as configured.
        public var source: String
        /// The id of its entry in that source's feed.
        public var entryID: String
        /// When it was due.
        public var occurrence: Instant

        public init(occurrenceID: String, source: String, entryID: String, occurrence: Instant) {
            self.occurrenceID = occurrenceID
            self.source = source
            self.entryID = entryID
            self.occurrence = occurrence
        }
    }

    /// What `id` names among `candidates`, the delivered occurrences whose occurrence id or
    /// entry id is `id`. An occurrence id wins over an entry id.
    public init(_ id: String, candidates: [Candidate]) {
        if candidates.contains(where: { $0.occurrenceID == id }) {
            self = .found(occurrenceID: id)
            return
        }
        var latest: [String: Candidate] = [:]
        for candidate in candidates where candidate.entryID == id {
            if let known = latest[candidate.source], known.occurrence >= candidate.occurrence { continue }
            latest[candidate.source] = candidate
        }
        let sorted = latest.values.sorted { ($0.occurrence, $0.source) > ($1.occurrence, $1.source) }
        switch sorted.count {
        case 0: self = .notFound
        case 1: self = .found(occurrenceID: sorted[0].occurrenceID)
        default: self = .ambiguous(sorted)
        }
    }

    /// Why `id` names no single occurrence, in words a person can act on, in `catalog`'s
    /// language; nil when it names one.
    public func problem(with id: String, catalog: MessageCatalog, command: String = "notify-sched") -> String? {
        switch self {
        case .found:
            return nil
        case .notFound:
            return catalog.translated(
                "notify-sched: {id}: not a notification notify-sched delivered; nothing was done", ["id": id])
                + "\n"
                + catalog.translated(
                    "`{command} list` shows each entry's last occurrence id; `{command} handle` takes it, "
                        + "or the entry's id", ["command": command])
        case .ambiguous(let candidates):
            let choices = candidates.map { "\($0.occurrenceID) (\($0.source), \($0.occurrence.rfc3339))" }
            return catalog.translated(
                "notify-sched: {id}: an entry of {count} sources; nothing was done. "
                    + "Give the occurrence id of the one you mean: {choices}",
                ["id": id, "count": "\(candidates.count)", "choices": choices.joined(separator: ", ")])
        }
    }
}
