/// One line of the firing ledger: what became of one occurrence of one entry.
///
/// The daemon writes a record after the notification server accepted the popup (so a crash in
/// between can show it once more, never lose it) and updates its outcome as the user acts.
public struct LedgerRecord: Sendable, Equatable {
    /// The occurrence's id: what the popup's hint carries and `notify-sched handle` takes.
    public var occurrenceID: String
    /// The feed the entry came from.
    public var source: String
    /// The entry's id within its source.
    public var entryID: String
    /// The instant the occurrence was due.
    public var occurrence: Instant
    /// The notification server's id for the popup, while it may still be on screen.
    public var popupID: UInt32?
    public var outcome: LedgerOutcome
    /// When the record was last written.
    public var recordedAt: Instant
    /// Why the occurrence was not shown, for an outcome of `suppressed`.
    public var suppression: Suppression?
    /// Whether its outcomes count in its source's receipts, and under which feed version; nil
    /// when receipts were off for its source when it was recorded.
    public var receipts: ReceiptTag?

    public init(
        occurrenceID: String, source: String, entryID: String, occurrence: Instant, popupID: UInt32? = nil,
        outcome: LedgerOutcome, recordedAt: Instant, suppression: Suppression? = nil, receipts: ReceiptTag? = nil
    ) {
        self.receipts = receipts
        self.occurrenceID = occurrenceID
        self.source = source
        self.entryID = entryID
        self.occurrence = occurrence
        self.popupID = popupID
        self.outcome = outcome
        self.recordedAt = recordedAt
        self.suppression = suppression
    }

    /// The record of an occurrence of `entryID` in `source` due at `occurrence` that a cap
    /// held back at `now`.
    public static func suppressed(
        _ entryID: String, of source: String, occurrence: Instant, because suppression: Suppression, at now: Instant,
        receipts: ReceiptTag? = nil
    ) -> LedgerRecord {
        LedgerRecord(
            occurrenceID: occurrenceID(source: source, entryID: entryID, occurrence: occurrence), source: source,
            entryID: entryID, occurrence: occurrence, outcome: .suppressed, recordedAt: now, suppression: suppression,
            receipts: receipts)
    }

    /// The id of the occurrence of `entryID` in `source` due at `occurrence`: 16 hex digits,
    /// the same on every run, so a popup re-issued after a crash or a restart keeps its id.
    public static func occurrenceID(source: String, entryID: String, occurrence: Instant) -> String {
        var hasher = FNV1a()
        hasher.add(source)
        hasher.add(entryID)
        hasher.add(UInt64(bitPattern: occurrence.microseconds))
        return hasher.hexDigest
    }
}

/// What became of an occurrence.
public enum LedgerOutcome: String, Sendable, CaseIterable {
    /// The server accepted the popup; the user has not acted yet.
    case delivered
    /// Too late to show (beyond `maxLateness`). Occurrences folded into a catch-up get no record
    /// of their own: the catch-up's record, a later occurrence, stands for them.
    case missed
    /// The user took the action (or acknowledged with OK).
    case acted
    /// The user chose "Remind Me Later".
    case reminded
    /// The user chose "Ignore" or Cancel.
    case ignored
    /// The popup was closed without a choice (expired, dismissed, or closed by notify-sched).
    case closed
    /// Due, and held back by a cap (`LedgerRecord.suppression` says which): skipped, not
    /// deferred. Like a missed occurrence, it settles its entry through it.
    case suppressed
}

extension LedgerOutcome {
    /// The outcome that handling `outcome` gives its occurrence, by what the answer meant, not
    /// by the state it changed (Cancel on an iSmartNews message marks it shown, yet the user
    /// declined; OK on an `always` message marks nothing, yet the user acted): acted for the
    /// action or OK, ignored for Ignore or Cancel, reminded for "Remind Me Later", closed when
    /// the popup went away with no choice; nil when handling failed (the occurrence stays as
    /// it was).
    public init?(_ outcome: HandlingOutcome) {
        guard outcome.failure == nil else { return nil }
        switch outcome.choice {
        case .open?, .ok?: self = .acted
        case .ignore?, .cancel?: self = .ignored
        case .remindLater?: self = .reminded
        case nil: self = .closed
        }
    }
}
