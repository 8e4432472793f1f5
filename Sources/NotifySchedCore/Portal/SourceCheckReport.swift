/// What checking one source came to, as `notify-sched sync` prints it: not modified, the
/// entries added (`+`), changed (`~`) and withdrawn (`-`), or why it failed.
///
/// The daemon makes one per source for its `Sync` call; `sync` without a daemon makes the same
/// from the cached copies.
public struct SourceCheckReport: Sendable, Equatable {
    /// The path or URL.
    public var location: String
    /// Whether the check failed (the last good feed stays in force).
    public var failed: Bool
    /// The lines to print: `LOCATION: not modified`, `LOCATION: N added, N changed, N withdrawn`
    /// and one line per entry, or `LOCATION: failed: cause`.
    public var lines: [String]

    public init(location: String, failed: Bool, lines: [String]) {
        self.location = location
        self.failed = failed
        self.lines = lines
    }

    /// The portal answered 304 Not Modified.
    public static func notModified(_ location: String) -> SourceCheckReport {
        SourceCheckReport(location: location, failed: false, lines: ["\(location): not modified"])
    }

    /// The check failed for `cause`.
    public static func failed(_ location: String, _ cause: String) -> SourceCheckReport {
        SourceCheckReport(location: location, failed: true, lines: ["\(location): failed: \(cause)"])
    }

    /// The feed was read and compared with the one before: counts, then the added and changed
    /// entries in the new feed's order, then the withdrawn ones in the old feed's order, then
    /// the iSmartNews feed-wide settings (global events, gate, queues) when they changed, which
    /// change what the next cycles show without changing an entry.
    public static func changed(
        _ location: String, _ changes: ScheduleChanges, from old: Schedule?, to new: Schedule
    ) -> SourceCheckReport {
        let oldEntries = old?.entries ?? []
        let current =
            (changes.added.map { ($0, "+") } + changes.changed.map { ($0.new, "~") }).sorted { $0.0 < $1.0 }
        var lines =
            current.map { position, mark in
                "\(mark) \(new.entries[position].id)  \(new.entries[position].content.title)"
            }
            + changes.withdrawn.map { "- \(oldEntries[$0].id)  \(oldEntries[$0].content.title)" }
        var counts = changes.counts
        if let old, let settings = new.news, let change = settingsChange(from: old.news, to: settings) {
            counts += ", feed settings changed"
            lines.append("~ feed settings: \(change)")
        }
        return SourceCheckReport(location: location, failed: false, lines: ["\(location): \(counts)"] + lines)
    }

    /// What changed in an iSmartNews feed's settings, in words; nil when nothing did.
    private static func settingsChange(from old: NewsSettings?, to new: NewsSettings) -> String? {
        var parts: [String] = []
        if old?.globalEvents != new.globalEvents {
            parts.append(
                "global events "
                    + new.globalEvents.map { "\($0.name) \($0.patternText)" }.joined(separator: ", ")
                    + " (a changed pattern starts again)")
        }
        if old?.gate != new.gate { parts.append("gate \(new.gate.map(String.init) ?? "none")") }
        if old?.queues != new.queues { parts.append("queues " + new.queues.map(\.name).joined(separator: ", ")) }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
