extension Configuration {
    /// `tags = sports, high income`: each tag once, in order (also `preview --tags`).
    public static func tags(_ value: String) -> [String] {
        var tags: [String] = []
        for tag in value.split(separator: ",").map({ String($0).trimmingSpaces })
        where !tag.isEmpty && !tags.contains(tag) {
            tags.append(tag)
        }
        return tags
    }

    /// Reads a configuration file: `key = value` lines, `#` or `;` comments, and
    /// `[source NAME]` sections for feeds. Keys before the first section set the defaults.
    ///
    /// ```ini
    /// application-version = 2.1
    /// quiet-hours = 22:00-07:00
    ///
    /// [source news]
    /// feed = https://portal.example.org/news.plist
    /// show-oldest-first = true
    /// ```
    ///
    /// - Returns: The configuration, and every problem with its line. A line with an error is
    ///   left out; a source without `feed` is left out.
    public static func parse(_ text: String) -> (configuration: Configuration, diagnostics: [Diagnostic]) {
        var parser = ConfigurationParser()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            parser.read(String(line), number: index + 1)
        }
        return parser.finish()
    }
}

/// Line-by-line state of `Configuration.parse`.
private struct ConfigurationParser {
    private var configuration = Configuration()
    private var diagnostics: [Diagnostic] = []
    private var section: SourceConfiguration?
    private var sectionLine = 0
    /// A section with a bad or repeated header: its keys are read, so they are not mistaken
    /// for global ones, and then dropped.
    private var discardsSection = false
    private var sectionNames: Set<String> = []

    mutating func read(_ raw: String, number: Int) {
        let line = raw.trimmingSpaces
        guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix(";") else { return }
        if line.hasPrefix("[") {
            openSection(line, number: number)
            return
        }
        guard let equals = line.firstIndex(of: "=") else {
            error(.syntax, "expected `key = value` or `[source NAME]`, not \"\(line)\"", line: number)
            return
        }
        let key = String(line[..<equals]).trimmingSpaces.lowercased()
        let value = String(line[line.index(after: equals)...]).trimmingSpaces
        if section != nil {
            setSourceKey(key, value, number: number)
        } else {
            setGlobalKey(key, value, number: number)
        }
    }

    mutating func finish() -> (configuration: Configuration, diagnostics: [Diagnostic]) {
        closeSection()
        return (configuration, diagnostics)
    }

    private mutating func openSection(_ line: String, number: Int) {
        closeSection()
        let inner = line.dropFirst().dropLast().split(separator: " ", maxSplits: 1).map { String($0).trimmingSpaces }
        let name = inner.count == 2 ? inner[1] : ""
        section = SourceConfiguration(name: name, feed: "", settings: configuration.sourceDefaults)
        sectionLine = number
        discardsSection = true
        if !line.hasSuffix("]") {
            error(.syntax, "a section header ends with `]`", line: number)
        } else if inner.count != 2 || inner[0] != "source" || name.isEmpty {
            error(.syntax, "the only section is `[source NAME]`, not \(line)", line: number)
        } else if !sectionNames.insert(name).inserted {
            error(.duplicateID, "source \"\(name)\" is configured twice", line: number)
        } else {
            discardsSection = false
        }
    }

    private mutating func closeSection() {
        guard let source = section else { return }
        section = nil
        if discardsSection { return }
        if source.feed.isEmpty {
            error(.missingKey, "source \"\(source.name)\" has no `feed`", line: sectionLine)
        } else {
            configuration.sources.append(source)
        }
    }

    private mutating func setGlobalKey(_ key: String, _ value: String, number: Int) {
        switch key {
        case "allow-scheme":
            for scheme in value.split(separator: ",").map({ String($0).trimmingSpaces.lowercased() }) {
                if URLPolicy.forbiddenSchemes.contains(scheme) {
                    error(.disallowedURL, "the URL scheme \"\(scheme):\" can never be allowed", line: number)
                } else if !scheme.isEmpty {
                    configuration.extraSchemes.append(scheme)
                }
            }
        case "quiet-hours":
            guard let hours = QuietHours(parsing: value) else {
                error(.invalidValue, "`quiet-hours` must be HH:MM-HH:MM, not \"\(value)\"", line: number)
                return
            }
            configuration.quietHours = hours
        case "snooze":
            setSnoozeChoices(value, number: number)
        case "max-popups":
            if let bound = popupBound(value, number: number) { configuration.maxPopups = bound }
        case "tags":
            configuration.tags = Configuration.tags(value)
        default:
            var defaults = configuration.sourceDefaults
            if set(key, value, on: &defaults, number: number) {
                configuration.sourceDefaults = defaults
            } else {
                warning("unknown key `\(key)` is ignored", line: number)
            }
        }
    }

    /// `snooze = 10min, 1h, tomorrow`, or `none`.
    private mutating func setSnoozeChoices(_ value: String, number: Int) {
        guard value.lowercased() != "none" else {
            configuration.snoozeChoices = []
            return
        }
        var choices: [Snooze] = []
        for text in value.split(separator: ",").map({ String($0).trimmingSpaces }) {
            guard let choice = Snooze(parsing: text) else {
                error(
                    .invalidValue,
                    "`snooze` takes durations from 1s to 366d or `tomorrow`, separated by commas, or `none`; "
                        + "not \"\(text)\"", line: number)
                return
            }
            if !choices.contains(choice) { choices.append(choice) }
        }
        guard choices.count <= Snooze.mostChoices else {
            error(
                .invalidValue, "`snooze` offers at most \(Snooze.mostChoices) choices, not \(choices.count)",
                line: number)
            return
        }
        configuration.snoozeChoices = choices
    }

    private mutating func setSourceKey(_ key: String, _ value: String, number: Int) {
        guard var source = section else { return }
        defer { section = source }
        switch key {
        case "feed":
            source.feed = value
        case "dialect":
            if value.lowercased() == "auto" {
                source.dialect = nil
            } else if let dialect = FeedDialect(rawValue: value.lowercased()) {
                source.dialect = dialect
            } else {
                error(
                    .invalidValue,
                    "`dialect` must be auto, native, zbim, inotify, ismartnews or icalendar, not \"\(value)\"",
                    line: number)
            }
        case "public-key":
            source.publicKey = value
        case "max-popups":
            if let bound = popupBound(value, number: number) { source.maxPopups = bound }
        case "tags":
            source.tags = Configuration.tags(value)
        default:
            if !set(key, value, on: &source.settings, number: number) {
                warning("unknown key `\(key)` in source \"\(source.name)\" is ignored", line: number)
            }
        }
    }

    /// Sets a key that both the global section and a source may carry; false when `key` is not one.
    private mutating func set(_ key: String, _ value: String, on settings: inout SourceSettings, number: Int) -> Bool {
        switch key {
        case "application-version":
            settings.iNotify.applicationVersion = value
        case "check-period":
            if let span = span(key, value, number: number) { settings.iNotify.checkPeriod = span }
        case "remind-period":
            if let span = span(key, value, number: number) { settings.iNotify.remindPeriod = span }
        case "fetch-period":
            if let span = span(key, value, number: number) { settings.fetchPeriod = span }
        case "alarms":
            if let policy = AlarmPolicy(parsing: value) {
                settings.alarms = policy
            } else {
                error(
                    .invalidValue,
                    "`alarms` is `embedded`, `none`, or offsets from an event's start such as `-15min, -1d`; "
                        + "not \"\(value)\"", line: number)
            }
        case "receipts":
            if let mode = ReceiptSettings.Mode(rawValue: value.lowercased()) {
                settings.receipts.mode = mode
            } else {
                error(.invalidValue, "`receipts` is `none` or `counts`, not \"\(value)\"", line: number)
            }
        case "receipts-endpoint":
            if let endpoint = ReceiptSettings.endpoint(parsing: value) {
                settings.receipts.endpoint = endpoint
            } else {
                error(
                    .invalidValue,
                    "`receipts-endpoint` must be an http(s):// URL such as https://collector.example.org/v1/logs, "
                        + "not \"\(value)\"", line: number)
            }
        case "show-oldest-first":
            if let flag = flag(key, value, number: number) { settings.iNotify.showOldestFirst = flag }
        case "show-on-first-launch":
            if let flag = flag(key, value, number: number) { settings.iNotify.showOnFirstLaunch = flag }
        case "debug":
            if let flag = flag(key, value, number: number) { settings.iNotify.debug = flag }
        case "check-at-launch":
            if let flag = flag(key, value, number: number) { settings.iNotify.checkAtLaunch = flag }
        case "hidden-keys":
            settings.iNotify.hiddenKeys = Set(
                value.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty })
        // A button label; empty means the translated default.
        case "ok-label":
            settings.iNotify.labels.ok = value.isEmpty ? nil : value
        case "ignore-label":
            settings.iNotify.labels.ignore = value.isEmpty ? nil : value
        case "remind-label":
            settings.iNotify.labels.remindMeLater = value.isEmpty ? nil : value
        case "action-label":
            settings.iNotify.labels.moreInfo = value.isEmpty ? nil : value
        default:
            return false
        }
        return true
    }

    private mutating func span(_ key: String, _ value: String, number: Int) -> TimeSpan? {
        if let span = TimeSpan.parse(value), span > .zero { return span }
        error(
            .invalidValue, "`\(key)` must be a positive duration such as 12h, 30min or 1d, not \"\(value)\"",
            line: number)
        return nil
    }

    /// `max-popups = N/SPAN`.
    private mutating func popupBound(_ value: String, number: Int) -> PopupBound? {
        if let bound = PopupBound(parsing: value) { return bound }
        error(
            .invalidValue,
            "`max-popups` must be a count and a period up to 90d, such as 4/1h or 20/1d, not \"\(value)\"",
            line: number)
        return nil
    }

    private mutating func flag(_ key: String, _ value: String, number: Int) -> Bool? {
        switch value.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default:
            error(.invalidValue, "`\(key)` must be true or false, not \"\(value)\"", line: number)
            return nil
        }
    }

    private mutating func error(_ code: CoreError.Code, _ message: String, line: Int) {
        diagnostics.append(Diagnostic(.error, CoreError(code, message, at: FeedLocation(line: line))))
    }

    private mutating func warning(_ message: String, line: Int) {
        diagnostics.append(Diagnostic(.warning, CoreError(.unknownKey, message, at: FeedLocation(line: line))))
    }
}
