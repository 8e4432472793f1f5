import ArgumentParser
import NotifySchedCore

/// `notify-sched validate FEED…`: parse and check feeds without scheduling anything.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check feeds and list every problem.",
        discussion:
            "Prints one line per problem (file, line or key path, cause) to standard error and exits 1 if any is an error; warnings alone exit 0. For a valid feed, prints each calendar expression as systemd-analyze calendar normalizes it, with the entries that use it."
    )

    @Argument(
        help: ArgumentHelp(
            "Feed files or http(s):// URLs to check (JSON, XML or binary plist). A URL is fetched now; a failed "
                + "fetch is an error here (no fallback to the cached copy).",
            valueName: "feed"))
    var feeds: [String]

    @OptionGroup var options: FeedOptions

    func validate() throws {
        guard !feeds.isEmpty else { throw ValidationError("name at least one feed to validate") }
    }

    func run() throws {
        let context = try options.context(for: feeds)
        defer { context.close() }
        var failed = false
        for path in feeds {
            let feed = context.load(path, allowCacheFallback: false)
            for line in feed.problemLines { Output.standardError.write(line) }
            if feed.hasErrors {
                failed = true
            } else if let schedule = feed.schedule {
                for line in Self.report(schedule, path: path) { Output.standardOutput.write(line) }
            }
        }
        if failed { throw CommandError(.failure, []) }
    }

    /// What a valid feed at `path` holds, a line each: its dialect, format and number of entries,
    /// the collector it asks receipts for, then its calendar expressions (`calendarLines(of:)`).
    static func report(_ schedule: Schedule, path: String) -> [String] {
        let count = schedule.entries.count
        let summary =
            "\(path): ok: \(schedule.dialect.rawValue) feed (\(schedule.format.rawValue)), "
            + "\(count) \(count == 1 ? "entry" : "entries")"
        let receipts = schedule.receipts.map {
            "\(path): asks for receipts to \($0.endpoint), for: \(TerminalText.escaped($0.purpose)) "
                + "(only from a signed feed, to users who say receipts = counts)"
        }
        return [summary] + (receipts.map { [$0] } ?? []) + calendarLines(of: schedule).map { "\(path): \($0)" }
    }

    /// One line per distinct calendar expression of `schedule`, in feed order, as
    /// `systemd-analyze calendar` normalizes it, with the entries that use it: `calendar
    /// *-*-* *:04,30:* (entries a, b and 3 more)`.
    static func calendarLines(of schedule: Schedule) -> [String] {
        var order: [String] = []
        var users: [String: [String]] = [:]
        for entry in schedule.entries {
            guard case .calendar(let expression, let zone, _, _) = entry.trigger else { continue }
            let text = expression.normalized + (zone.map { " in \($0.identifier)" } ?? "")
            if users[text] == nil { order.append(text) }
            users[text, default: []].append(entry.id)
        }
        return order.map { text in
            let ids = users[text] ?? []
            let named = ids.prefix(3).joined(separator: ", ")
            let rest = ids.count > 3 ? " and \(ids.count - 3) more" : ""
            return "calendar \(text) (\(ids.count == 1 ? "entry" : "entries") \(named)\(rest))"
        }
    }
}
