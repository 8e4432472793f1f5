/// Maps an iSmartNews plist: a root array of classic messages, `meta` items, global `event`
/// entries and settings sections (seed semantics §2). Keys match case-insensitively and take
/// localized variants (`text_fr_fr`, `text_fr`, `text`).
struct ISmartNewsFeedMapper {
    let mapping: FeedMapping

    /// Classic-message keys notify-sched reads, and 4.x keys it accepts without acting on them.
    private static let classicKeys = [
        "title", "text", "link", "ok", "cancel", "start", "end", "repeat", "always", "counter", "queue",
    ]
    private static let classicPresentationKeys = [
        "type", "review", "remind", "review_type", "style", "allowAllIphoneOrientations", "FirstShowInterval",
    ]
    private static let metaPresentationKeys = [
        "dates", "uselocaltime", "showOnlyIfUpgrade", "FirstShowInterval", "showIfApps", "skipIfApps", "showIf",
        "skipIf",
        "segment", "randomize", "fixurl", "minDelay", "maxDelay", "autoHideInterval", "orientations", "style", "onShow",
        "removeAdsAction", "title", "text",
    ]

    func map(_ items: [FeedNode], source: String, format: FeedFormat) -> Schedule {
        var entries: [ScheduleEntry] = []
        var globalEvents: [EventRule] = []
        var gate: Int?
        var queues: [NewsQueue] = []
        var seen: [String: String] = [:]
        for (index, node) in items.enumerated() {
            let path = KeyPath.element("", index: index)
            guard case .dictionary(let item) = node.value else {
                mapping.error(
                    .wrongType, "an item must be a dictionary, not \(node.value.typeName)",
                    at: FeedLocation(keyPath: path, line: node.line))
                continue
            }
            var reader = FieldReader(item, path: path, line: node.line, mapping: mapping, caseInsensitive: true)
            if reader.node("event") != nil {
                globalEvents += globalEvent(&reader)
            } else if reader.node("meta") != nil {
                if let (entry, location) = meta(&reader) { append(entry, at: location, to: &entries, seen: &seen) }
            } else if isClassic(item) {
                if let entry = classic(&reader, item: item) {
                    append(entry, at: reader.location, to: &entries, seen: &seen)
                }
            } else {
                settings(&reader, gate: &gate, queues: &queues)
            }
            reader.reportUnknownKeys()
        }
        let usesDefaults = globalEvents.isEmpty
        if usesDefaults {
            globalEvents = NewsSettings.defaultEventNames.map { EventRule(name: $0, patternText: "ON=1") }
        }
        let news = NewsSettings(globalEvents: globalEvents, usesDefaultEvents: usesDefaults, gate: gate, queues: queues)
        return Schedule(source: source, dialect: .iSmartNews, format: format, entries: entries, news: news)
    }

    /// Appends `entry`, read at `location`, unless an earlier one has its id.
    private func append(
        _ entry: ScheduleEntry, at location: FeedLocation, to entries: inout [ScheduleEntry],
        seen: inout [String: String]
    ) {
        if let first = seen[entry.id] {
            let what = entry.news.map { if case .meta = $0.kind { "uuid" } else { "message" } } ?? "id"
            mapping.error(.duplicateID, "\(what) \"\(entry.id)\" is already used by \(first)", at: location)
            return
        }
        seen[entry.id] = location.keyPath
        entries.append(entry)
    }

    /// A classic message has `title` or `text`, possibly only in a localized variant.
    private func isClassic(_ item: FeedDictionary) -> Bool {
        item.keys.contains { key in
            let lowered = key.lowercased()
            return ["title", "text"].contains { lowered == $0 || lowered.hasPrefix($0 + "_") }
        }
    }

    private func globalEvent(_ reader: inout FieldReader) -> [EventRule] {
        guard let (event, node) = reader.dictionary("event") else { return [] }
        var eventReader = FieldReader(
            event, path: KeyPath.child(reader.path, key: "event"), line: node.line, mapping: mapping,
            caseInsensitive: true)
        defer { eventReader.reportUnknownKeys() }
        guard let name = eventReader.string("name")?.trimmingSpaces.lowercased(), !name.isEmpty else {
            eventReader.missing("name", ": a global event needs a non-empty name")
            return []
        }
        // Global patterns are not trimmed: a leading space makes the pattern invalid, as in iSmartNews.
        let patternText = eventReader.string("pattern") ?? "ON=1"
        if EventPattern.parse(patternText) == nil {
            mapping.warning(
                .invalidPattern,
                "event pattern \"\(patternText)\" is not valid (ON=n|OFF=m…, n > 0); it behaves as ON=1",
                at: eventReader.location(of: "pattern"))
        }
        return [EventRule(name: name, patternText: patternText)]
    }

    private func classic(_ reader: inout FieldReader, item: FeedDictionary) -> ScheduleEntry? {
        let errorsBefore = mapping.errorCount
        let title = reader.string("title", localized: true)
        let text = reader.string("text", localized: true) ?? ""
        let link = reader.actionURL("link", localized: true)
        let okLabel = label(reader.string("ok", localized: true))
        let cancelLabel = label(reader.string("cancel", localized: true))
        let start = reader.instant("start", localized: true)
        let end = reader.instant("end", localized: true)
        let repeats = reader.bool("repeat", localized: true) ?? false
        let always = reader.bool("always", localized: true) ?? false
        let counter = reader.integer("counter", localized: true)
        let queue = reader.string("queue", localized: true)?.trimmingSpaces
        reader.accept(Self.classicPresentationKeys)
        reader.acceptSuffixed(Self.classicKeys + Self.classicPresentationKeys)
        guard mapping.errorCount == errorsBefore else { return nil }
        let hash = FeedValue.dictionary(item).contentHash
        let rules = NewsRules(
            kind: .message, start: start, end: end, repeats: repeats, always: always,
            counter: counter.map { Int(clamping: $0) }, queue: queue?.isEmpty == false ? queue : nil,
            okLabel: okLabel, cancelLabel: cancelLabel, contentHash: hash)
        return ScheduleEntry(
            id: "news-" + hash, dialect: .iSmartNews,
            content: NotificationContent(
                title: title ?? "", body: text, action: link.map { NotificationAction(label: okLabel, url: $0) }),
            trigger: .events(.global), news: rules)
    }

    /// `"default"` asks for the translated label, as iSmartNews 4.x does.
    private func label(_ text: String?) -> String? {
        guard let text, text.lowercased() != "default" else { return nil }
        return text
    }

    /// A meta item's entry, and where its `meta` dictionary is.
    private func meta(_ reader: inout FieldReader) -> (ScheduleEntry, FeedLocation)? {
        guard let (meta, node) = reader.dictionary("meta") else { return nil }
        var metaReader = FieldReader(
            meta, path: KeyPath.child(reader.path, key: "meta"), line: node.line, mapping: mapping,
            caseInsensitive: true)
        defer { metaReader.reportUnknownKeys() }
        let errorsBefore = mapping.errorCount
        let uuid = metaReader.string("uuid")?.trimmingSpaces
        if uuid?.isEmpty ?? true { metaReader.missing("uuid", ": a meta item needs a non-empty uuid") }
        let urls = metaURLs(&metaReader)
        let events = NativeTrigger.events(&metaReader)
        let start = metaReader.instant("start", localized: true)
        let end = metaReader.instant("end", localized: true)
        if let start, let end, start >= end {
            mapping.error(.invalidValue, "`start` must be before `end`", at: metaReader.location(of: "start"))
        }
        let ignored = metaReader.bool("ignore") ?? false
        let priority = metaReader.integer("priority") ?? 0
        let queue = metaReader.string("queue")?.trimmingSpaces
        let minShowInterval = minimumInterval(&metaReader)
        let oncePerVersion = onceFlag(&metaReader, "oncePerVersion")
        let oncePerInstall = onceFlag(&metaReader, "oncePerInstall")
        metaReader.accept(Self.metaPresentationKeys)
        metaReader.acceptSuffixed(["start", "end", "title", "text"])
        guard mapping.errorCount == errorsBefore, let uuid, let urls, !ignored else { return nil }
        let item = MetaItem(
            urls: urls.map(\.string), priority: Int(clamping: priority), minShowInterval: minShowInterval,
            oncePerVersion: oncePerVersion, oncePerInstall: oncePerInstall)
        // On the desktop a meta item is a popup that opens its first page.
        let action = NotificationAction(label: nil, url: urls[0])
        let title = metaReader.string("title", localized: true) ?? uuid
        let body = metaReader.string("text", localized: true) ?? urls[0].string
        let rules = NewsRules(
            kind: .meta(item), start: start, end: end, queue: queue?.isEmpty == false ? queue : nil,
            contentHash: FeedValue.dictionary(meta).contentHash)
        let entry = ScheduleEntry(
            id: uuid, dialect: .iSmartNews, content: NotificationContent(title: title, body: body, action: action),
            trigger: .events(events.map { .local($0) } ?? .global), news: rules)
        return (entry, metaReader.location)
    }

    /// `urls`: `|`-separated components, the first an http(s) URL, then flags (`3`, `$scheme`, `ignore`).
    private func metaURLs(_ reader: inout FieldReader) -> [ActionURL]? {
        guard let elements = reader.array("urls") else {
            if reader.node("urls") == nil { reader.missing("urls", ": a meta item needs at least one URL") }
            return nil
        }
        let errorsBefore = mapping.errorCount
        var urls: [ActionURL] = []
        for (index, element) in elements.enumerated() {
            let location = FeedLocation(
                keyPath: KeyPath.element(KeyPath.child(reader.path, key: "urls"), index: index), line: element.line)
            guard case .string(let text) = element.value else {
                mapping.error(.wrongType, "a URL must be a string, not \(element.value.typeName)", at: location)
                continue
            }
            let components = text.split(separator: "|").map { String($0).trimmingSpaces }
            guard !components.contains("ignore") else { continue }
            guard let url = components.first else {
                mapping.error(.invalidValue, "the URL is empty", at: location)
                continue
            }
            do {
                urls.append(try ActionURL(url, policy: mapping.urlPolicy))
            } catch {
                mapping.error(.disallowedURL, error.message, at: location)
            }
        }
        if urls.isEmpty, mapping.errorCount == errorsBefore {
            mapping.error(.invalidValue, "`urls` has no URL to show", at: reader.location(of: "urls"))
        }
        return urls.isEmpty ? nil : urls
    }

    private func minimumInterval(_ reader: inout FieldReader) -> TimeSpan? {
        guard let (key, node) = reader.node("minShowInterval") else { return nil }
        switch node.value {
        case .string(let text):
            switch text.lowercased() {
            case "hour": return .hours(1)
            case "day": return .days(1)
            case "week": return .days(7)
            default:
                if let span = TimeSpan.parse(text) { return span }
                mapping.error(
                    .invalidValue,
                    "`minShowInterval` must be hour, day, week or seconds, not \(QuotedInput.quoted(text))",
                    at: reader.location(of: key, node))
                return nil
            }
        default:
            return reader.span(key)
        }
    }

    /// `oncePerVersion`/`oncePerInstall`: a boolean, or the buttons that mark it (`cancel|ok|review`).
    private func onceFlag(_ reader: inout FieldReader, _ key: String) -> Bool {
        guard let (name, node) = reader.node(key) else { return false }
        switch node.value {
        case .bool(let flag): return flag
        case .integer(let flag): return flag != 0
        case .string(let text): return !text.isEmpty
        default:
            reader.wrongType(name, node, expected: "a boolean or a list of buttons")
            return false
        }
    }

    private func settings(_ reader: inout FieldReader, gate: inout Int?, queues: inout [NewsQueue]) {
        if let value = reader.count("gate") { gate = value }
        guard let elements = reader.array("queues") else { return }
        for (index, element) in elements.enumerated() {
            let path = KeyPath.element(KeyPath.child(reader.path, key: "queues"), index: index)
            guard case .dictionary(let queue) = element.value else {
                mapping.error(
                    .wrongType, "a queue must be a dictionary, not \(element.value.typeName)",
                    at: FeedLocation(keyPath: path, line: element.line))
                continue
            }
            var queueReader = FieldReader(
                queue, path: path, line: element.line, mapping: mapping, caseInsensitive: true)
            if let name = queueReader.nonEmptyString("name") {
                // iSmartNews 4.x turns a negative timeout into 1 s and caps it at 1000 s.
                let given = queueReader.integer("timeout") ?? 0
                let timeout = given < 0 ? 1 : min(given, 1000)
                let range = max(queueReader.integer("timeoutRange") ?? 0, 0)
                queues.append(
                    NewsQueue(
                        name: name.trimmingSpaces, timeout: .seconds(timeout), timeoutRange: .seconds(min(range, 1000)))
                )
            } else if queueReader.node("name") == nil {
                queueReader.missing("name")
            }
            queueReader.reportUnknownKeys()
        }
    }
}
