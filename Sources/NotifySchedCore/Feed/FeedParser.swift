/// Turns feed bytes into a `Schedule`, listing every problem on the way.
///
/// The order follows `reference/safety-facts.md`: size cap, format sniffing, bounded reading
/// into a `FeedValue` tree, then the dialect's typed mapping with a key path in every message.
/// Entries with errors are left out of the schedule; the rest stay usable.
///
/// ```swift
/// let parser = FeedParser(zones: TimeZoneDatabase.system)
/// let result = parser.parse(bytes, source: "demo.json")
/// for problem in result.diagnostics { print(problem) }
/// ```
public struct FeedParser: Sendable {
    /// Where `timeZone` names and zones in calendar expressions are looked up.
    public var zones: any ZoneProvider
    /// Which action URLs are accepted.
    public var urlPolicy: URLPolicy
    /// The user's language, for iSmartNews's localized keys.
    public var language: LanguagePreference
    /// The user's zone, whose abbreviations (`CET`, `EDT`) a calendar expression may end with,
    /// as systemd allows; nil accepts only `UTC` and IANA names there.
    public var userZone: ZoneRules?
    /// Size, depth and node limits for reading the document.
    public var limits: FeedReadLimits
    /// The dialect the feed must be in (a source's configured `dialect`); nil recognises it by
    /// its shape. A feed of another shape is an error naming both; a portal feed configured as
    /// `native` or `zbim` reads every entry in that form.
    public var dialect: FeedDialect?
    /// Which alarms of a calendar (`.ics`) feed become entries.
    public var alarmPolicy: AlarmPolicy
    /// How a portal feed's entries may be mapped side by side (`WorkerThreads`); the default
    /// maps them one after another.
    public var parallelWork: any ParallelWork

    public init(
        zones: any ZoneProvider, urlPolicy: URLPolicy = URLPolicy(), language: LanguagePreference = .none,
        userZone: ZoneRules? = nil, limits: FeedReadLimits = FeedReadLimits(), dialect: FeedDialect? = nil,
        alarmPolicy: AlarmPolicy = .embedded, parallelWork: any ParallelWork = SerialWork()
    ) {
        self.alarmPolicy = alarmPolicy
        self.zones = zones
        self.userZone = userZone
        self.urlPolicy = urlPolicy
        self.language = language
        self.limits = limits
        self.dialect = dialect
        self.parallelWork = parallelWork
    }

    /// Parses one feed.
    ///
    /// - Parameters:
    ///   - bytes: The feed exactly as fetched or read.
    ///   - source: The path or URL the feed came from; it names the schedule's source.
    /// - Returns: The schedule (nil when the document itself could not be read) and every
    ///   error and warning found.
    public func parse(_ bytes: consuming [UInt8], source: String) -> FeedParseResult {
        let settings = FeedMapping.Settings(zones: zones, urlPolicy: urlPolicy, language: language, userZone: userZone)
        let dialect = self.dialect
        if (try? FeedFormat.detect(in: bytes)) == .iCalendar {
            return parseCalendar(bytes, source: source, settings: settings)
        }
        // A portal feed's entries are mapped in batches as they are read (in a plist, once the
        // tree is read), on `parallelWork`'s threads. Should the document turn out to be no
        // portal feed, or unreadable, the batches are dropped.
        var batcher = EntryBatcher(dialect: dialect, documentBytes: bytes.count)
        var read: Result<FeedDocument, CoreError>?
        let batches = parallelWork.values(
            of: { handOver in
                // The reader keeps the closure only while it reads.
                read = withoutActuallyEscaping(handOver) { handOver in
                    Result { () throws(CoreError) in
                        try FeedDocument.read(bytes, limits: limits) { node in batcher.add(node).map(handOver) }
                    }
                }
                if case .success(let document)? = read, case .dictionary(let root) = document.root.value,
                    case .array(let elements)? = root["notifications"]?.value
                {
                    for element in elements { batcher.add(element).map(handOver) }
                }
                batcher.rest().map(handOver)
            },
            { batch in PortalFeedMapper.map(batch, settings: settings, dialect: dialect) })
        // The bytes are not needed past this point; with a big feed they are worth freeing
        // before the schedule is built.
        _ = consume bytes
        let document: FeedDocument
        switch read {
        case .success(let read)?: document = read
        case .failure(let error)?: return FeedParseResult(schedule: nil, diagnostics: [Diagnostic(.error, error)])
        case nil: preconditionFailure("ParallelWork runs the producer once")
        }
        let mapping = FeedMapping(settings)
        let schedule: Schedule?
        let shape: FeedDialect? =
            switch document.root.value {
            case .dictionary(let root) where root["notifications"] != nil: .native
            case .dictionary: .iNotify
            case .array: .iSmartNews
            default: nil
            }
        if let dialect, let shape, dialect != shape, !(dialect == .zbim && shape == .native) {
            mapping.error(
                .unknownDialect,
                "the source is configured as \(dialect.rawValue), but the feed is \(Self.shapeName(shape)); "
                    + "\(Self.shapeName(dialect)) is expected (or set `dialect = auto`)",
                at: FeedLocation(line: document.root.line))
            return FeedParseResult(schedule: nil, diagnostics: mapping.diagnostics)
        }
        switch document.root.value {
        case .dictionary(let root) where root["notifications"] != nil:
            schedule = PortalFeedMapper(mapping: mapping, dialect: dialect).map(
                root, line: document.root.line, batches: consume batches, allZBiM: batcher.allZBiM, source: source,
                format: document.format)
        case .dictionary(let root):
            schedule = INotifyFeedMapper(mapping: mapping).map(root, source: source, format: document.format)
        case .array(let items):
            schedule = ISmartNewsFeedMapper(mapping: mapping).map(items, source: source, format: document.format)
        default:
            mapping.error(
                .unknownDialect,
                "the root is \(document.root.value.typeName); a feed's root is a dictionary (a portal feed with "
                    + "`notifications`, or an iNotify feed) or an array (an iSmartNews feed)",
                at: FeedLocation(line: document.root.line))
            schedule = nil
        }
        return FeedParseResult(schedule: schedule, diagnostics: mapping.diagnostics)
    }

    /// Parses an iCalendar calendar.
    private func parseCalendar(_ bytes: [UInt8], source: String, settings: FeedMapping.Settings) -> FeedParseResult {
        let mapping = FeedMapping(settings)
        if let dialect, dialect != .iCalendar {
            mapping.error(
                .unknownDialect,
                "the source is configured as \(dialect.rawValue), but the feed is an iCalendar calendar; "
                    + "\(Self.shapeName(dialect)) is expected (or set `dialect = auto`)",
                at: FeedLocation(line: 1))
            return FeedParseResult(schedule: nil, diagnostics: mapping.diagnostics)
        }
        let document: ICalendarDocument
        do {
            document = try ICalendarDocument.read(bytes, limits: ICalendarLimits(maxBytes: limits.maxBytes))
        } catch {
            return FeedParseResult(schedule: nil, diagnostics: [Diagnostic(.error, error)])
        }
        let schedule = ICalendarFeedMapper(mapping: mapping, policy: alarmPolicy).map(document, source: source)
        return FeedParseResult(schedule: schedule, diagnostics: mapping.diagnostics)
    }

    /// Parses a folder of calendar items (one `.ics` file each, the vdir layout) as one calendar.
    ///
    /// - Parameters:
    ///   - files: Each item's file name and bytes.
    ///   - source: The folder's path; it names the schedule's source.
    /// - Returns: The calendar's schedule; each problem names its file (`item.ics/VEVENT.RRULE`),
    ///   and an item that cannot be read is left out with an error.
    public func parse(calendarFiles files: [(name: String, bytes: [UInt8])], source: String) -> FeedParseResult {
        let mapping = FeedMapping(
            FeedMapping.Settings(zones: zones, urlPolicy: urlPolicy, language: language, userZone: userZone))
        var calendar = ICalendarComponent(name: "VCALENDAR", properties: [], components: [], line: 1)
        var total = 0
        for file in files {
            total += file.bytes.count
            do {
                let document = try ICalendarDocument.read(
                    file.bytes, limits: ICalendarLimits(maxBytes: max(0, limits.maxBytes - total + file.bytes.count)))
                calendar.components += document.calendar.components.map { $0.inFile(file.name) }
            } catch {
                let path = error.location.keyPath
                mapping.error(
                    error.code, error.message,
                    at: FeedLocation(
                        keyPath: path.isEmpty ? file.name : "\(file.name)/\(path)", line: error.location.line))
            }
        }
        let schedule = ICalendarFeedMapper(mapping: mapping, policy: alarmPolicy).map(
            ICalendarDocument(calendar: calendar), source: source)
        return FeedParseResult(schedule: schedule, diagnostics: mapping.diagnostics)
    }

    /// How a feed of `dialect` looks, in words.
    private static func shapeName(_ dialect: FeedDialect) -> String {
        switch dialect {
        case .native, .zbim: "a portal feed (a dictionary with `notifications`)"
        case .iNotify: "an iNotify feed (a dictionary of messages)"
        case .iSmartNews: "an iSmartNews feed (an array)"
        case .iCalendar: "an iCalendar calendar (BEGIN:VCALENDAR)"
        }
    }
}

/// What `FeedParser.parse` found.
public struct FeedParseResult: Sendable {
    /// The usable part of the feed; nil when the document could not be read or has no known shape.
    public var schedule: Schedule?
    /// Errors and warnings in document order.
    public var diagnostics: [Diagnostic]

    /// Whether any problem is an error (`validate` then exits 1).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}
