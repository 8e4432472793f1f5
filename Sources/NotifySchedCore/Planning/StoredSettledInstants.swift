/// What the state database says the entries of one source are settled through
/// (`OccurrencePlan`), for the planner to take when it loads the source's schedule: the instant
/// each recurring entry was first followed from, and the latest occurrence the ledger recorded
/// of each entry. An entry is settled through the later of the two.
///
/// A followed entry comes with its position in the schedule it was followed in. When the feed
/// did not move it since (a restart on an unchanged feed, the common case), the entry at that
/// position has that id, and taking its instant costs a comparison of the id's bytes: a restart
/// on 10^6 followed entries hashed every id twice, to build a dictionary and to look each entry
/// up, and that took some 0.7 s of the loop's CPU, most of its start. Entries found elsewhere,
/// and the ledger's records, are looked up by id as before.
///
/// Ids compare as Swift strings do (canonical equivalence), as the dictionary by id did.
public struct StoredSettledInstants: Sendable, ExpressibleByDictionaryLiteral {
    /// A followed entry with the position it had: its id is `idBytes[idStart..<idEnd]`.
    private struct Placed {
        var position: Int
        var since: Instant
        var idStart: Int
        var idEnd: Int
    }

    /// What is known of an entry looked up by id.
    private struct ByID {
        /// The earliest instant it was followed from.
        var followedSince: Instant?
        /// The latest occurrence the ledger recorded.
        var recorded: Instant?

        var settledThrough: Instant? {
            guard let followedSince else { return recorded }
            return recorded.map { max($0, followedSince) } ?? followedSince
        }

        mutating func follow(since: Instant) {
            followedSince = followedSince.map { min($0, since) } ?? since
        }

        mutating func record(_ occurrence: Instant) {
            recorded = recorded.map { max($0, occurrence) } ?? occurrence
        }
    }

    private var placed: [Placed] = []
    /// The UTF-8 bytes of the placed entries' ids, one after the other.
    private var idBytes: [UInt8] = []
    private var byID: [String: ByID] = [:]

    /// Nothing settled.
    public init() {}

    /// Each entry `id` settled through its instant.
    public init(_ instants: [String: Instant]) {
        byID = instants.mapValues { ByID(recorded: $0) }
    }

    /// Each entry `id` settled through its instant.
    public init(dictionaryLiteral elements: (String, Instant)...) {
        self.init(Dictionary(elements) { max($0, $1) })
    }

    /// Adds that `entries` were followed from `since`, in the form the state database keeps
    /// them (`FollowedEntry.encoded(_:)`). An entry followed more than once is followed from
    /// the earliest instant.
    public mutating func addFollowed(encoded: [UInt8], since: Instant) {
        let base = idBytes.count
        idBytes += encoded
        FollowedEntry.forEachEncoded(in: encoded) { position, id in
            guard let position else {
                byID[String(decoding: encoded[id], as: UTF8.self), default: ByID()].follow(since: since)
                return
            }
            placed.append(
                Placed(position: position, since: since, idStart: base + id.lowerBound, idEnd: base + id.upperBound))
        }
    }

    /// Adds that `entries` were followed from `since`.
    public mutating func addFollowed(_ entries: [FollowedEntry], since: Instant) {
        addFollowed(encoded: FollowedEntry.encoded(entries), since: since)
    }

    /// Adds that the ledger recorded the occurrence of entry `id` due at `occurrence`; the
    /// latest one counts.
    public mutating func addRecorded(id: String, occurrence: Instant) {
        byID[id, default: ByID()].record(occurrence)
    }

    /// The instant each of `entries` (a schedule's, in order) is settled through, by position;
    /// nil for an entry with nothing settled.
    ///
    /// - Complexity: O(*n* + *p*) for *n* entries and *p* placed ids, when every placed id is
    ///   where it was and the ledger recorded nothing; otherwise one lookup by id per entry more.
    public func settledThrough(_ entries: [ScheduleEntry]) -> [Instant?] {
        var instants = [Instant?](repeating: nil, count: entries.count)
        var elsewhere = byID
        for placed in placed {
            let id = idBytes[placed.idStart..<placed.idEnd]
            if placed.position < entries.count, Self.id(entries[placed.position].id, is: id) {
                instants[placed.position] = instants[placed.position].map { min($0, placed.since) } ?? placed.since
            } else {
                elsewhere[String(decoding: id, as: UTF8.self), default: ByID()].follow(since: placed.since)
            }
        }
        guard !elsewhere.isEmpty else { return instants }
        for (position, entry) in entries.enumerated() {
            guard var known = elsewhere[entry.id] else { continue }
            if let since = instants[position] { known.follow(since: since) }
            instants[position] = known.settledThrough
        }
        return instants
    }

    /// Every entry's settled instant, by id.
    public var instantsByID: [String: Instant] {
        var all = byID
        for placed in placed {
            let id = String(decoding: idBytes[placed.idStart..<placed.idEnd], as: UTF8.self)
            all[id, default: ByID()].follow(since: placed.since)
        }
        return all.compactMapValues(\.settledThrough)
    }

    /// Whether `id` is the id whose UTF-8 form is `bytes`: byte for byte, or else as strings
    /// compare (an id spelled with other but equivalent scalars).
    private static func id(_ id: String, is bytes: ArraySlice<UInt8>) -> Bool {
        if id.utf8.elementsEqual(bytes) { return true }
        return id == String(decoding: bytes, as: UTF8.self)
    }
}

extension StoredSettledInstants: Equatable {
    /// Whether the two settle every entry through the same instant (`instantsByID`), however
    /// each came to store it (by position or by id).
    public static func == (lhs: StoredSettledInstants, rhs: StoredSettledInstants) -> Bool {
        lhs.instantsByID == rhs.instantsByID
    }
}
