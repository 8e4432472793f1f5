import NotifySchedCore
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Following the feeds: the state moved to each source's canonical location, and each source
// opened at start.
extension DaemonDriver {
    /// Moves the state kept under another spelling of a source's location (a path as typed, by
    /// an earlier version) to its canonical location, the one sources are followed by.
    static func moveStateToCanonicalLocations(in store: StateStore, log: DaemonLog) {
        do {
            // Test popups' source is a name, which no path stands for.
            let canonical = { $0 == DeliveredOccurrence.testSource ? $0 : SourceLocation.canonical($0) }
            for (from, to) in try store.moveSources(toCanonical: canonical) {
                log.notice("the state of \(from) is kept under \(to) from now on")
            }
        } catch {
            log.error(error.message)
        }
    }

    /// The stored health of `location`, or a fresh one when it cannot be read.
    static func storedHealth(of location: String, in store: StateStore, log: DaemonLog) -> SourceHealth {
        do {
            return try store.sourceHealth(location)
        } catch {
            log.error(error.message)
            return SourceHealth(location: location)
        }
    }

    /// Opens every source at start (`DaemonEvent.sourceOpened`): a file is read now, a portal
    /// URL from its last good copy in the cache, so that start-up waits for no network. A URL
    /// without a usable copy (its first start, or a copy that expired) is checked at once, on a
    /// worker like every check, and takes the session start when its feed arrives.
    ///
    /// A cached copy is set aside while the start reads it and plans its entries, and restored
    /// once that went through: a copy that crashed a start is not read by the next one.
    func loadSources(at now: Instant) {
        var startingFrom: [String] = []
        let checked = sources.indices.filter { core.polling.sources[$0].isChecked }
        let toRead = checked.filter { !sources[$0].isURL || setAsideCachedCopy(of: $0, startingFrom: &startingFrom) }
        let loads = readAtStart(toRead, at: now)
        for index in checked {
            // Read in the order of `toRead`, a part of `checked` in its order.
            let loaded = toRead.contains(index) ? loads.take() : nil
            let opening: SourceOpening
            if sources[index].isURL {
                opening = loaded.map { openCached(index, $0) } ?? .nothingCached
            } else {
                opening = openFile(index, loaded!, at: now)
            }
            perform(.sourceOpened(source: index, opening), at: now)
        }
        for url in startingFrom { loader.cache.restore(url) }
        let count = sources.indices.reduce(0) { $0 + (schedule(of: $1)?.entries.count ?? 0) }
        log.info(
            "following \(sources.count) feed\(sources.count == 1 ? "" : "s"), \(count) entr\(count == 1 ? "y" : "ies")"
        )
    }

    /// Sets source `index`'s cached copy (a portal URL) aside before the start reads it, adding
    /// it to `startingFrom`.
    ///
    /// - Returns: Whether to read it: false when the last start ended while it read this one.
    private func setAsideCachedCopy(of index: Int, startingFrom: inout [String]) -> Bool {
        let source = sources[index]
        guard !loader.cache.isSetAside(source.location) else {
            log.warning(
                "\(source.location): the last start ended while it read the cached copy of this "
                    + "feed (a crash?); the copy is set aside until a fresh one arrives; fetching it")
            return false
        }
        do {
            try loader.cache.setAside(source.location)
            startingFrom.append(source.location)
        } catch {
            // NetworkError describes itself by its message, naming the file.
            log.error("\(error)")
        }
        return true
    }

    /// Sources `indices` read and parsed side by side, a file from its file and a portal URL
    /// from its cached copy, each load taken in order as soon as it is done: at start, the parse
    /// of big feeds is most of the time to the armed timer, each source's is independent of the
    /// others', and one source is planned while the next ones are parsed.
    private func readAtStart(_ indices: [Int], at now: Instant) -> InOrderWork<LoadedPortalFeed> {
        let reads = indices.map { (source: sources[$0], parser: parser(of: $0)) }
        let loader = self.loader
        return InOrderWork(count: reads.count) { position in
            let (source, parser) = reads[position]
            return source.isURL
                ? loader.loadCached(source.location, publicKey: source.publicKey, parser: parser, now: now)
                : loader.load(source.location, publicKey: source.publicKey, parser: parser, now: now)
        }
    }

    /// Source `index`'s cached copy (a portal URL) as `loaded` read it; nothing when it has none
    /// usable.
    private func openCached(_ index: Int, _ loaded: LoadedPortalFeed) -> SourceOpening {
        let source = sources[index]
        guard let schedule = logged(loaded, cached: true).parsed?.schedule else {
            log.info("\(source.location): no usable copy in the cache; fetching it")
            return .nothingCached
        }
        guard let load = feedLoad(of: index, schedule) else {
            // The check at once puts the portal's answer in force, 304 or not.
            log.warning("\(source.location): its cached copy cannot go in force; fetching it")
            return .nothingCached
        }
        return .cachedCopy(load)
    }

    /// Source `index`'s file as `loaded` read it: with errors, its usable entries, which
    /// nothing else stands in for at start.
    private func openFile(_ index: Int, _ loaded: LoadedPortalFeed, at now: Instant) -> SourceOpening {
        logged(loaded)
        if let reason = loaded.unusableReason, let schedule = loaded.parsed?.schedule,
            let load = feedLoad(of: index, schedule)
        {
            return .readWithErrors(load, failure: reason)
        }
        return .read(outcome(of: loaded, source: index, at: now))
    }

    /// `loaded`, a source read at start (a URL from its cached copy), with its warnings and
    /// errors logged; a file's failure is the core's to log, with the next check.
    @discardableResult
    private func logged(_ loaded: LoadedPortalFeed, cached: Bool = false) -> LoadedPortalFeed {
        for warning in loaded.warnings { log.warning("warning: \(warning)") }
        if cached, let failure = loaded.failure, loaded.parsed == nil { log.warning("\(failure)") }
        for problem in loaded.parsed?.diagnostics ?? [] where problem.severity == .error {
            log.warning("\(loaded.location): \(problem.error)")
        }
        return loaded
    }
}
