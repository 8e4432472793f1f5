/// A body sealed for upload and not yet taken by its collector: sent byte for byte on every
/// attempt, so that the collector can drop a second copy by its ids.
public struct ReceiptBatch: Sendable, Equatable {
    /// The body's `notify_sched.batch.id`.
    public var batchID: String
    /// The feed whose receipts it holds.
    public var source: String
    /// The URL it is posted to, as it was when it was sealed.
    public var endpoint: String
    /// The OTLP/HTTP JSON body.
    public var body: String
    /// How many tallies it holds, and the sum of their counts.
    public var receipts: Int
    public var total: Int
    public var sealedAt: Instant
    /// How many uploads of it failed, when the next may start, and why the last one failed.
    public var attempts: Int
    public var nextAttempt: Instant
    public var lastError: String?

    public init(
        batchID: String, source: String, endpoint: String, body: String, receipts: Int, total: Int, sealedAt: Instant,
        attempts: Int = 0, nextAttempt: Instant? = nil, lastError: String? = nil
    ) {
        self.batchID = batchID
        self.source = source
        self.endpoint = endpoint
        self.body = body
        self.receipts = receipts
        self.total = total
        self.sealedAt = sealedAt
        self.attempts = attempts
        self.nextAttempt = nextAttempt ?? sealedAt
        self.lastError = lastError
    }
}

/// What the queue holds of one source's receipts, for `notify-sched status` and `receipts`.
public struct ReceiptQueueState: Sendable, Equatable {
    /// Tallies counted and not sealed into a body yet.
    public var openReceipts = 0
    /// Bodies sealed and not taken by the collector yet.
    public var batches = 0
    /// What the bounds dropped since the last body.
    public var dropped = ReceiptDrops()
    /// When a collector last took a body, and why the last upload failed, if it did.
    public var lastSent: Instant?
    public var lastError: String?
    /// When the daemon last started an upload, and where it went.
    public var lastAttempt: Instant?
    public var endpoint: String?
    /// When the first body a collector refused may go again; nil when none waits for a retry.
    public var nextAttempt: Instant?

    public init() {}
}

extension ReceiptQueueState {
    /// A source's receipts in a line (`notify-sched status` and `receipts`): `receipts off`, or
    /// where they go (`destination`, with the purpose its signed feed gives), what waits and
    /// when they last went.
    public static func summary(
        mode: ReceiptSettings.Mode, destination: (endpoint: String, purpose: String?)?, _ state: ReceiptQueueState?
    ) -> String {
        guard mode == .counts else { return "receipts off" }
        guard let destination else {
            return "receipts off: `receipts = counts` needs a `receipts-endpoint`, or a signed feed that names one"
        }
        let state = state ?? ReceiptQueueState()
        let purpose = destination.purpose.map { ", which the feed names for: \(TerminalText.escaped($0))" } ?? ""
        var parts = [
            "receipts on, to \(destination.endpoint)\(purpose)",
            "\(state.openReceipts) counted, \(state.batches) bod\(state.batches == 1 ? "y" : "ies") waiting",
            "last sent " + (state.lastSent?.rfc3339 ?? "never"),
        ]
        if state.dropped.receipts > 0 {
            parts.append("\(state.dropped.receipts) dropped by the queue's bounds")
        }
        if let error = state.lastError { parts.append("last upload failed: \(error)") }
        return parts.joined(separator: "; ")
    }
}
