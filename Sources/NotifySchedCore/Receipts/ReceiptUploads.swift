/// When each source's receipts go (docs/receipts.md "When it is sent"): once a UTC day, at a
/// random moment of the day drawn for each source, with the first check of the source that
/// starts after it, so that an upload never wakes the machine on its own; a body a collector
/// refused goes again with the first check after its retry time.
///
/// Pure: the core holds it (`DaemonCore+Receipts.swift`). The moments and the retries' spread
/// are drawn from a generator of its own, seeded by the core's seed, so that a fleet's uploads
/// spread over the day and no other random choice of the core depends on them.
public struct ReceiptUploads: Sendable {
    /// One source with receipts on.
    struct Source: Sendable {
        /// How far into each UTC day its upload may start.
        var moment: TimeSpan
        /// The UTC day its last upload started on.
        var lastStarted: ReceiptDay?
        /// When a body a collector refused may go again; nil when none waits for a retry.
        var retryAt: Instant?
        /// Whether an upload is under way.
        var posting = false
    }

    /// The sources with receipts on, by index.
    private var sources: [Int: Source] = [:]
    /// Draws the moments and the retries' spread.
    private var generator: SplitMix64

    /// How far into each UTC day source `index`'s upload may start; nil when its receipts are off.
    public func moment(of index: Int) -> TimeSpan? { sources[index]?.moment }

    /// Whether an upload is under way.
    public var isPosting: Bool { sources.values.contains { $0.posting } }

    /// The uploads of the sources whose receipts are on (`on`, by index), each at a moment of
    /// the day drawn at random from `seed`.
    public init(on: [Bool], seed: UInt64) {
        generator = SplitMix64(seed: seed)
        for (index, isOn) in on.enumerated() where isOn {
            let moment = TimeSpan(microseconds: Int64.random(in: 0..<TimeSpan.days(1).microseconds, using: &generator))
            sources[index] = Source(moment: moment)
        }
    }

    /// What the state database remembers of source `index`'s uploads: when the last one started,
    /// and when a refused body may go again.
    public mutating func remember(_ index: Int, lastStarted: Instant?, retryAt: Instant?) {
        sources[index]?.lastStarted = lastStarted.map(ReceiptDay.init)
        sources[index]?.retryAt = retryAt
    }

    /// Whether source `index`, whose check starts at `now`, uploads with it: none is under way,
    /// and a refused body's retry time came, or else today's moment came and no upload started
    /// today. The upload is then under way.
    public mutating func start(_ index: Int, at now: Instant) -> Bool {
        guard var source = sources[index], !source.posting else { return false }
        let today = ReceiptDay(now)
        if let retryAt = source.retryAt {
            guard now >= retryAt else { return false }
        } else {
            guard source.lastStarted.map({ $0 < today }) ?? true, now >= today.start + source.moment else {
                return false
            }
        }
        source.posting = true
        source.lastStarted = today
        source.retryAt = nil
        sources[index] = source
        return true
    }

    /// Source `index`'s upload ended with every body taken.
    public mutating func taken(_ index: Int) {
        sources[index]?.posting = false
        sources[index]?.retryAt = nil
    }

    /// Source `index`'s upload at `now` ended with a body refused, with `retryAfter`: the
    /// bodies waiting go again after it, spread (`ReceiptRetry`).
    ///
    /// - Returns: When they go again.
    @discardableResult
    public mutating func refused(_ index: Int, retryAfter: RetryAfter?, at now: Instant) -> Instant {
        let retryAt = ReceiptRetry.next(retryAfter: retryAfter, at: now, using: &generator)
        sources[index]?.posting = false
        sources[index]?.retryAt = retryAt
        return retryAt
    }
}

/// How posting one body went (`DaemonEvent.receiptsPosted`).
public struct ReceiptPost: Sendable, Equatable {
    /// What the collector said.
    public enum Outcome: Sendable, Equatable {
        /// It answered 2xx: the body leaves the queue.
        case taken
        /// It answered otherwise, or could not be reached: the error's message, and its
        /// `Retry-After`.
        case refused(String, retryAfter: RetryAfter?)
    }

    public var batch: ReceiptBatch
    public var outcome: Outcome

    public init(_ batch: ReceiptBatch, _ outcome: Outcome) {
        self.batch = batch
        self.outcome = outcome
    }
}
