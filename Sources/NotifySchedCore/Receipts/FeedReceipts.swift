/// A portal feed's `receipts` object: the collector its operator asks the users to send
/// receipts to, and why. Only a signed feed's counts (the source has a `public-key`), and only
/// once the user accepted with `receipts = counts` (docs/receipts.md).
public struct FeedReceipts: Sendable, Equatable {
    /// The OTLP/HTTP logs URL.
    public var endpoint: String
    /// What the operator says the counts are for, as the user reads it in `status`.
    public var purpose: String

    /// The most characters a `purpose` has: a sentence, which `status` shows on one line.
    public static let longestPurpose = 300

    public init(endpoint: String, purpose: String) {
        self.endpoint = endpoint
        self.purpose = purpose
    }
}
