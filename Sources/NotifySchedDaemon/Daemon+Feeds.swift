import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Following the feeds: loading each source at start and finding its entries.
extension Daemon {
    /// Moves the state kept under another spelling of a source's location (a path as typed, by
    /// an earlier version) to its canonical location, the one sources are followed by.
    func moveStateToCanonicalLocations() {
        do {
            for (from, to) in try store.moveSources(toCanonical: SourceLocation.canonical) {
                report("notify-sched: the state of \(from) is kept under \(to) from now on")
            }
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// Reads every source at start: a file now, a portal URL from its last good copy in the
    /// cache, so that start-up waits for no network. A URL without a usable copy (its first
    /// start, or a copy that expired) is checked at once, on the worker like every check, and
    /// follows the session start when its feed arrives. Each other source's first check is
    /// planned (`SourceHealth.firstCheck`): at once, as stored before the restart, or spread
    /// at random.
    ///
    /// A cached copy is set aside while the start reads it and plans its entries, and restored
    /// once that went through: a copy that crashed a start is not read by the next one.
    func loadSources() {
        let now = WallClock.now()
        var schedules: [Int: Schedule] = [:]
        var startingFrom: [String] = []
        sources = configuration.sources.enumerated().map { index, configured in
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
                if loader.cache.isSetAside(source.location) {
                    report(
                        "notify-sched: \(source.location): the last start ended while it read the cached copy of this "
                            + "feed (a crash?); the copy is set aside until a fresh one arrives; fetching it")
                    source.health.nextCheck = source.health.firstCheck(
                        now: now, hasCopy: false, policy: configured.settings.pollingPolicy(for: nil),
                        using: &polling.generator)
                    return source
                }
                do {
                    try loader.cache.setAside(source.location)
                    startingFrom.append(source.location)
                } catch {
                    // NetworkError describes itself by its message, naming the file.
                    report("notify-sched: \(error)")
                }
                loaded = loader.loadCached(source.location, publicKey: source.publicKey, parser: parser, now: now)
                guard loaded.parsed?.schedule != nil else {
                    report("notify-sched: \(source.location): no usable copy in the cache; fetching it")
                    source.health.nextCheck = source.health.firstCheck(
                        now: now, hasCopy: false, policy: configured.settings.pollingPolicy(for: nil),
                        using: &polling.generator)
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
            schedules[index] = loaded.parsed?.schedule
            let policy = configured.settings.pollingPolicy(for: loaded.parsed?.schedule?.dialect)
            if source.isURL {
                source.health.nextCheck = source.health.firstCheck(
                    now: now, hasCopy: true, policy: policy, using: &polling.generator)
            } else {
                recordCheck(loaded, of: &source, policy: policy, feedVersion: loaded.parsed?.schedule?.version, at: now)
            }
            return source
        }
        for source in sources { saveHealth(source.health) }
        for (index, schedule) in schedules.sorted(by: { $0.key < $1.key }) {
            reconcile(source: index, with: schedule, at: now)
        }
        for url in startingFrom { loader.cache.restore(url) }
        // Parsing a big feed peaks well above what the schedule keeps; give the freed pages back.
        FreedMemory.release()
        let count = schedules.values.reduce(0) { $0 + $1.entries.count }
        report(
            "notify-sched: following \(sources.count) feed\(sources.count == 1 ? "" : "s"), \(count) entr\(count == 1 ? "y" : "ies")"
        )
    }

    /// How often source `index` is checked, for its settings and the dialect of its feed.
    func policy(of index: Int) -> PollingPolicy {
        sources[index].settings.pollingPolicy(for: schedule(of: index)?.dialect)
    }
}
