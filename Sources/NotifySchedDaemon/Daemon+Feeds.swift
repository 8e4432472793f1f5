import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Following the feeds: loading each source at start and finding its entries.
extension Daemon {
    /// Reads every source at start: a file now, a portal URL from its last good copy in the
    /// cache, so that start-up waits for no network. A URL without a usable copy (its first
    /// start, or a copy that expired) is checked at once, on the worker like every check, and
    /// follows the session start when its feed arrives. Each other source's first check is
    /// planned (`SourceHealth.firstCheck`): at once, as stored before the restart, or spread
    /// at random.
    func loadSources() {
        let now = WallClock.now()
        sources = configuration.sources.map { configured in
            var source = FollowedSource(
                location: configured.feed, settings: configured.settings, health: storedHealth(of: configured.feed))
            if let text = configured.publicKey {
                do {
                    source.publicKey = try FeedPublicKey(base64: text)
                } catch {
                    report("notify-sched: source \(configured.name): \(error); not following it")
                    source.refusal = "its public key is unusable: \(error)"
                    return source
                }
            }
            let loaded: LoadedPortalFeed
            if source.isURL {
                loaded = loader.loadCached(source.location, publicKey: source.publicKey, parser: parser, now: now)
                guard loaded.parsed?.schedule != nil else {
                    report("notify-sched: \(source.location): no usable copy in the cache; fetching it")
                    source.health.nextCheck = source.health.firstCheck(
                        now: now, hasCopy: false, policy: source.policy, using: &polling.generator)
                    return source
                }
            } else {
                loaded = loader.load(source.location, publicKey: source.publicKey, parser: parser, now: now)
            }
            for warning in loaded.warnings { report("notify-sched: warning: \(warning)") }
            if let failure = loaded.failure, loaded.parsed == nil { report("notify-sched: \(failure)") }
            for problem in loaded.parsed?.diagnostics ?? [] where problem.severity == .error {
                report("notify-sched: \(source.location): \(problem.error)")
            }
            source.schedule = loaded.parsed?.schedule
            if source.isURL {
                source.health.nextCheck = source.health.firstCheck(
                    now: now, hasCopy: true, policy: source.policy, using: &polling.generator)
            } else {
                recordCheck(loaded, of: &source, at: now)
            }
            return source
        }
        for source in sources { saveHealth(source.health) }
        references = sources.indices.flatMap { sourceIndex in
            (sources[sourceIndex].schedule?.entries.indices ?? 0..<0).map {
                EntryReference(source: sourceIndex, entry: $0)
            }
        }
        handles = Array(repeating: nil, count: references.count)
        vacantElements = []
        // Parsing a big feed peaks well above what the schedule keeps; give the freed pages back.
        FreedMemory.release()
        let count = references.count
        report(
            "notify-sched: following \(sources.count) feed\(sources.count == 1 ? "" : "s"), \(count) entr\(count == 1 ? "y" : "ies")"
        )
    }

    func entry(_ reference: EntryReference) -> ScheduleEntry? {
        guard let entries = sources[reference.source].schedule?.entries, entries.indices.contains(reference.entry)
        else { return nil }
        return entries[reference.entry]
    }
}
