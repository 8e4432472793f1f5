/// The daemon's sources as polling sees them: each one's settings, health and refusal; the
/// checks under way and the `notify-sched sync` calls waiting for them (`SourceChecks`); and the
/// generator the backoff's jitter and the first checks' spread are drawn from.
///
/// Part of `DaemonCore`, which decides with it (`DaemonCore+Polling.swift`): pure, the time
/// and each source's polling policy come in as arguments.
public struct SourcePolling: Sendable {
    /// One configured source.
    public struct Source: Sendable, Equatable {
        /// Its settings: how often it is checked, and its iNotify settings.
        public var settings: SourceSettings
        /// Why it is not checked at all (its configured key is unusable); nil when it is.
        public var refusal: String?
        /// When it was checked, how that went, and when it is checked next.
        public var health: SourceHealth
        /// Whether its feed must be signed (a `public-key` is configured): only a signed feed
        /// may name where receipts go (`FeedReceipts`).
        public var isSigned: Bool

        /// The path or URL: the source's identity.
        public var location: String { health.location }

        /// Whether it is checked at all: not refused.
        public var isChecked: Bool { refusal == nil }

        /// The source of `health` (the stored one, or a fresh `SourceHealth(location:)`),
        /// with `settings`; `refusal` says why it is not checked.
        public init(
            health: SourceHealth, settings: SourceSettings = SourceSettings(), refusal: String? = nil,
            isSigned: Bool = false
        ) {
            self.isSigned = isSigned
            self.settings = settings
            self.refusal = refusal
            self.health = health
        }
    }

    /// The sources, by their index among the configured sources.
    public private(set) var sources: [Source]
    private var checks = SourceChecks<SourceCheckReport>()
    /// Sources whose feed changed while their check ran: checked again once it finishes.
    private var changedDuringCheck: Set<Int> = []
    /// The daemon's token of each waiting `sync` call, by the id `checks` gave it.
    private var syncTokens: [Int: Int] = [:]
    private var generator: SplitMix64

    /// Polling for `sources`, drawing its randomness from a generator seeded with `seed`.
    public init(sources: [Source], seed: UInt64) {
        self.sources = sources
        generator = SplitMix64(seed: seed)
    }

    /// The earliest planned check of a source that is checked (a refused one keeps the
    /// check its stored health planned, which never comes).
    ///
    /// - Complexity: O(n) in the sources.
    public var nextCheck: Instant? {
        sources.lazy.filter(\.isChecked).compactMap(\.health.nextCheck).min()
    }

    /// Whether a check runs.
    ///
    /// - Complexity: O(1).
    public var isChecking: Bool { !checks.running.isEmpty }

    /// Plans the first check of `source` after the daemon started at `now`
    /// (`SourceHealth.firstCheck`).
    ///
    /// - Complexity: O(1).
    mutating func planFirstCheck(of source: Int, hasCopy: Bool, policy: PollingPolicy, at now: Instant) {
        sources[source].health.nextCheck = sources[source].health.firstCheck(
            now: now, hasCopy: hasCopy, policy: policy, using: &generator)
    }

    /// Records in `source`'s health a check that succeeded at `now` and plans the next one.
    ///
    /// - Complexity: O(1).
    mutating func recordSuccess(
        of source: Int, etag: String?, lastModified: String?, feedVersion: Int64?, copyTakenAt: Instant,
        policy: PollingPolicy, at now: Instant
    ) {
        sources[source].health.recordSuccess(at: now, policy: policy, using: &generator)
        sources[source].health.etag = etag
        sources[source].health.lastModified = lastModified
        sources[source].health.feedVersion = feedVersion
        sources[source].health.copyTakenAt = copyTakenAt
    }

    /// Records the check period `source`'s portal asked for in the answer to a check that
    /// succeeded (nil: it asked for none), before the success is recorded with the policy it makes.
    ///
    /// - Complexity: O(1).
    mutating func setPortalPeriod(of source: Int, _ period: TimeSpan?) {
        sources[source].health.portalPeriod = period
    }

    /// Records in `source`'s health a check that failed at `now` and plans the retry.
    ///
    /// - Complexity: O(1).
    mutating func recordFailure(
        of source: Int, _ failure: CheckFailure, retryAfter: RetryAfter?, policy: PollingPolicy, at now: Instant
    ) {
        sources[source].health.recordFailure(
            failure, retryAfter: retryAfter, at: now, policy: policy, using: &generator)
    }

    /// A `sync` call, `token`, asks for every source to be checked now; a refused source is
    /// reported failed without a check.
    ///
    /// - Complexity: O(n) in the sources.
    mutating func requestSync(token: Int) {
        var known: [Int: SourceCheckReport] = [:]
        for (index, source) in sources.enumerated() {
            if let refusal = source.refusal { known[index] = .failed(source.location, refusal) }
        }
        let id = checks.requestSync(of: sources.indices.filter { sources[$0].isChecked }, known: known)
        syncTokens[id] = token
    }

    /// `source`'s feed changed (its file was edited): its check is due at `now`, or, when one
    /// runs, right after it, which may have read the file before the change.
    ///
    /// - Complexity: O(1).
    mutating func checkSoon(_ source: Int, at now: Instant) {
        guard sources.indices.contains(source), sources[source].isChecked else { return }
        if checks.running.contains(source) {
            changedDuringCheck.insert(source)
        } else {
            sources[source].health.nextCheck = now
        }
    }

    /// Whether a check may start at `now`: one is due, or a `sync` waits for one.
    ///
    /// - Complexity: O(n) in the sources.
    func hasChecksToStart(at now: Instant) -> Bool {
        checks.hasSyncsWaiting || nextCheck.map { $0 <= now } ?? false
    }

    /// The machine resumed, or the wall clock stepped, at `now`: each check that fell due
    /// meanwhile is planned anew with its policy (in `policies`, by source), as at a start
    /// (`SourceHealth.resumed`).
    ///
    /// - Complexity: O(n) in the sources.
    mutating func resumed(policies: [PollingPolicy], at now: Instant) {
        for index in sources.indices where sources[index].isChecked {
            sources[index].health.resumed(at: now, policy: policies[index], using: &generator)
        }
    }

    /// Brings forward each check planned further ahead than its policy (in `policies`, by
    /// source) allows: planned on a wall clock since stepped back.
    ///
    /// - Complexity: O(n) in the sources.
    mutating func bringChecksForward(policies: [PollingPolicy], at now: Instant) {
        for index in sources.indices {
            let latest = sources[index].health.latestCheck(now: now, policy: policies[index])
            if let next = sources[index].health.nextCheck, next > latest { sources[index].health.nextCheck = latest }
        }
    }

    /// Chooses the checks to start at `now`: those due and those a `sync` waits for, as many as
    /// may run at once (`SourceChecks`).
    ///
    /// - Returns: The sources to check now, and the `sync` calls answered, by token.
    ///
    /// - Complexity: O(n log n) in the sources (`SourceChecks.start(due:)`).
    mutating func startDueChecks(at now: Instant) -> (
        check: [Int], answered: [(token: Int, reports: [SourceCheckReport])]
    ) {
        let due = sources.indices.filter { index in
            sources[index].isChecked && sources[index].health.nextCheck.map { $0 <= now } ?? false
        }
        let (chosen, answered) = checks.start(due: due)
        for index in chosen { sources[index].health.nextCheck = nil }
        return (chosen, tokens(of: answered))
    }

    /// The check of `source` finished with `report` at `now`; when its feed changed meanwhile,
    /// the next check is due at once.
    ///
    /// - Returns: The `sync` calls it answers, by token; nil when no check of `source` ran
    ///   (a file read at start).
    ///
    /// - Complexity: O(s) in the waiting `sync` calls.
    mutating func finished(_ source: Int, _ report: SourceCheckReport, at now: Instant) -> [(
        token: Int, reports: [SourceCheckReport]
    )]? {
        guard checks.running.contains(source) else { return nil }
        if changedDuringCheck.remove(source) != nil { sources[source].health.nextCheck = now }
        return tokens(of: checks.finished(source, report))
    }

    private mutating func tokens(of answered: [(sync: Int, reports: [SourceCheckReport])]) -> [(
        token: Int, reports: [SourceCheckReport]
    )] {
        answered.compactMap { sync, reports in syncTokens.removeValue(forKey: sync).map { ($0, reports) } }
    }
}
