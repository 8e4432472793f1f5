// Receipts: which occurrences' outcomes count (docs/receipts.md). The ledger line of each
// carries its tag (`LedgerRecord.receipts`), and the store counts with the line it writes.
extension DaemonCore {
    /// Whether the outcomes of an occurrence of `location` recorded now count in its source's
    /// receipts, and under which feed version: nil when the source's receipts are off, or it is
    /// not a configured source (a test popup).
    public func receiptTag(for location: String) -> ReceiptTag? {
        guard let source = polling.sources.first(where: { $0.location == location }), source.settings.receipts.isOn
        else { return nil }
        return ReceiptTag(feedVersion: planner.schedule(at: location)?.version)
    }
}
