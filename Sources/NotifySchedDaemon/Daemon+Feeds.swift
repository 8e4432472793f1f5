import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

// Following the feeds: loading each source and finding its entries.
extension Daemon {
    /// Reads every source once: files, and portal URLs through the fetcher and its last-good
    /// cache (a failed fetch falls back to the cached copy). Polling on each source's period is
    /// not done yet: a URL source is fetched at start.
    func loadSources() {
        let now = WallClock.now()
        sources = configuration.sources.map { source in
            var key: FeedPublicKey?
            if let text = source.publicKey {
                do {
                    key = try FeedPublicKey(base64: text)
                } catch {
                    report("notify-sched: source \(source.name): \(error); not following it")
                    return FollowedSource(location: source.feed, settings: source.settings, schedule: nil)
                }
            }
            let loaded = loader.load(source.feed, publicKey: key, parser: parser, now: now)
            for warning in loaded.warnings { report("notify-sched: warning: \(warning)") }
            if let failure = loaded.failure, loaded.parsed == nil { report("notify-sched: \(failure)") }
            for problem in loaded.parsed?.diagnostics ?? [] where problem.severity == .error {
                report("notify-sched: \(source.feed): \(problem.error)")
            }
            return FollowedSource(location: source.feed, settings: source.settings, schedule: loaded.parsed?.schedule)
        }
        references = sources.indices.flatMap { sourceIndex in
            (sources[sourceIndex].schedule?.entries.indices ?? 0..<0).map {
                EntryReference(source: sourceIndex, entry: $0)
            }
        }
        // Parsing a big feed peaks well above what the schedule keeps; give the freed pages back.
        FreedMemory.release()
        let count = references.count
        report(
            "notify-sched: following \(sources.count) feed\(sources.count == 1 ? "" : "s"), \(count) entr\(count == 1 ? "y" : "ies")"
        )
    }

    func entry(_ reference: EntryReference) -> ScheduleEntry? {
        sources[reference.source].schedule?.entries[reference.entry]
    }
}
