import ArgumentParser
import NotifySchedCore

/// `notify-sched validate FEED…`: parse and check feeds without scheduling anything.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check feeds and list every problem.",
        discussion:
            "Prints one line per problem (file, line or key path, cause) to standard error and exits 1 if any is an error; warnings alone exit 0."
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
                let count = schedule.entries.count
                Output.standardOutput.write(
                    "\(path): ok: \(schedule.dialect.rawValue) feed (\(schedule.format.rawValue)), \(count) \(count == 1 ? "entry" : "entries")"
                )
            }
        }
        if failed { throw CommandError(.failure, []) }
    }
}
