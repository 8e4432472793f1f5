/// One line of `notify-sched history`: an occurrence from the ledger, with the popup's title
/// and when it was shown (nil for an occurrence that was missed).
public struct HistoryRecord: Sendable, Equatable {
    public var record: LedgerRecord
    /// The popup's title as it was shown; nil when it never was.
    public var title: String?
    /// When the server took the popup; nil when it never did.
    public var shownAt: Instant?

    public init(_ record: LedgerRecord, title: String?, shownAt: Instant?) {
        self.record = record
        self.title = title
        self.shownAt = shownAt
    }

    /// When it happened: when it was shown, or, missed, when it was due.
    public var time: Instant { shownAt ?? record.occurrence }

    /// When the person answered it (or the popup went away): the outcome's time, for an answer.
    public var answeredAt: Instant? {
        switch record.outcome {
        case .acted, .ignored, .reminded, .closed: record.recordedAt
        case .delivered, .missed, .suppressed: nil
        }
    }
}
