import ArgumentParser
import NotifySchedCore
import NotifySchedDaemon
import NotifySchedNetwork
import NotifySchedPlatform

/// `notify-sched sync --feed URL…`: fetch every portal feed now and say what changed.
///
/// Until the daemon exists this works on the sources named with `--feed`, against the cached
/// copies: each feed is fetched (conditional GET), checked and, when good, cached, and its
/// entries are compared by id with the previous cached copy.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Fetch every portal feed now and print what changed.",
        discussion: """
            For each source: `URL: not modified`, or `URL: N added, N changed, N withdrawn` followed by one line \
            per entry (`+ id  title`, `~ id  title`, `- id  title`), or `URL: failed: cause` (the last good copy \
            stays). Exit status 1 if any source failed.
            """
    )

    @Option(
        name: .customLong("feed"),
        help: ArgumentHelp("A portal feed URL to fetch (repeatable).", valueName: "url"))
    var feeds: [String] = []

    @OptionGroup var options: FeedOptions

    func validate() throws {
        guard !feeds.isEmpty else { throw ValidationError("name the feeds to sync with --feed URL") }
        for feed in feeds where !PortalFeedLoader.isURL(feed) {
            throw ValidationError("--feed \"\(feed)\" is not an http:// or https:// URL")
        }
    }

    func run() throws {
        let context = try options.context(for: feeds)
        defer { context.close() }
        let now = Instant(secondsSinceEpoch: WallClock.now().secondsSinceEpoch)
        var failed = false
        for url in feeds {
            let feed = context.load(url, allowCacheFallback: false)
            for line in feed.portal.warnings { Output.standardError.write("warning: \(line)") }
            guard let parsed = feed.portal.parsed, let schedule = parsed.schedule, !parsed.hasErrors else {
                failed = true
                let cause = feed.portal.failure ?? feed.problemLines.joined(separator: "; ")
                Output.standardOutput.write("\(url): failed: \(cause)")
                continue
            }
            if feed.portal.origin == .notModified {
                Output.standardOutput.write("\(url): not modified")
                continue
            }
            let before = feed.portal.previous.flatMap {
                context.parser.parse($0.bytes, source: url).schedule
            }
            let changes = Self.changes(from: before, to: schedule, now: now, userZone: context.userZone)
            let counts = ["added", "changed", "withdrawn"].map { kind in
                "\(changes.filter { $0.kind == kind }.count) \(kind)"
            }
            Output.standardOutput.write("\(url): \(counts.joined(separator: ", "))")
            for change in changes { Output.standardOutput.write(change.line) }
        }
        if failed { throw CommandError(.failure, []) }
    }

    /// One entry that was added, changed or withdrawn.
    struct Change: Equatable {
        var kind: String
        var id: String
        var title: String

        var line: String {
            let mark = ["added": "+", "changed": "~", "withdrawn": "-"][kind] ?? "?"
            return "\(mark) \(id)  \(title)"
        }
    }

    /// The entries of `after` that are new or differ from `before` (title, body, action, trigger,
    /// next occurrences), and those of `before` that are gone, in feed order.
    static func changes(from before: Schedule?, to after: Schedule, now: Instant, userZone: ZoneRules) -> [Change] {
        func rows(_ schedule: Schedule?) -> [(String, ScheduleListing.Row)] {
            guard let schedule else { return [] }
            return schedule.entries.map { entry in
                let row = ScheduleListing(
                    schedules: [
                        Schedule(
                            source: "", dialect: schedule.dialect, format: schedule.format, entries: [entry],
                            news: schedule.news)
                    ],
                    now: now, upcoming: 3, userZone: userZone
                ).rows[0]
                return (entry.id, row)
            }
        }
        let old = rows(before)
        let new = rows(after)
        let oldByID = Dictionary(old, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(new.map(\.0))
        var changes: [Change] = []
        for (id, row) in new {
            if let previous = oldByID[id] {
                if previous != row { changes.append(Change(kind: "changed", id: id, title: row.title)) }
            } else {
                changes.append(Change(kind: "added", id: id, title: row.title))
            }
        }
        for (id, row) in old where !newIDs.contains(id) {
            changes.append(Change(kind: "withdrawn", id: id, title: row.title))
        }
        return changes
    }
}
