/// Maps an iSmartNews plist: a root array of classic messages, `meta` items, global `event`
/// entries and settings sections (seed semantics §2). Keys match case-insensitively and take
/// localized variants (`text_fr_fr`, `text_fr`, `text`).
struct ISmartNewsFeedMapper {
    let mapping: FeedMapping

    /// Classic-message keys notify-sched reads.
    private static let classicKeys = [
        "title", "text", "link", "ok", "cancel", "start", "end", "repeat", "always", "counter", "queue",
        "FirstShowInterval",
    ]
    /// iSmartNews 4.x keys that have no effect on the desktop, with why: each is warned about.
    private static let classicIgnoredKeys =
        ignoring(["type"], because: "web and direct-action popups are iOS views; the desktop shows a notification")
        + ignoring(
            ["review", "remind", "review_type"], because: "the App Store review prompt has no desktop counterpart")
        + ignoring(["style"], because: Self.styleWhy)
        + ignoring(["allowAllIphoneOrientations"], because: Self.orientationWhy)
    private static let metaIgnoredKeys =
        ignoring(["showIfApps", "skipIfApps"], because: "it tests for installed iOS apps, which the desktop cannot")
        + ignoring(
            ["showIf", "skipIf", "segment"],
            because: "it targets the iSmartNews app's segments, which the desktop has none of")
        + ignoring(["randomize", "fixurl"], because: "the desktop shows the item's first URL, with no sequence")
        + ignoring(["autoHideInterval"], because: "the notification server decides when a popup expires")
        + ignoring(["orientations"], because: Self.orientationWhy)
        + ignoring(["style"], because: Self.styleWhy)
        + ignoring(["onShow"], because: "it runs an iOS callback")
        + ignoring(["removeAdsAction"], because: "it runs an iOS in-app purchase")
    private static let styleWhy = "popup styles are iOS views; the notification server draws the popup"
    private static let orientationWhy = "screen orientation is an iOS notion"

    private static func ignoring(_ keys: [String], because why: String) -> [(key: String, why: String)] {
        keys.map { ($0, why) }
    }

    func map(_ items: [FeedNode], source: String, format: FeedFormat) -> Schedule {
        var entries: [ScheduleEntry] = []
        var globalEvents: [EventRule] = []
        var gate: Int?
        var queues: [NewsQueue] = []
        var seen: [String: String] = [:]
        var reviewTakesGlobals = false
        for (index, node) in items.enumerated() {
            let place = FeedPlace.root.element(index)
            guard case .dictionary(let item) = node.value else {
                mapping.error(
                    .wrongType, "an item must be a dictionary, not \(node.value.typeName)",
                    at: FeedLocation(keyPath: place.path, line: node.line))
                continue
            }
            var reader = FieldReader(item, at: place, line: node.line, mapping: mapping, readsAsISmartNews: true)
            if reader.node("event") != nil {
                globalEvents += globalEvent(&reader)
            } else if reader.node("meta") != nil {
                if let (entry, location, takesGlobals) = meta(&reader) {
                    append(entry, at: location, to: &entries, seen: &seen)
                    if entry.id == MetaItem.reviewUUID { reviewTakesGlobals = takesGlobals }
                }
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
        // A `review` item without events of its own takes the global ones as its own, beside
        // its manual event, so that the manual event does not make it ignore them.
        for (index, entry) in entries.enumerated() where entry.id == MetaItem.reviewUUID && reviewTakesGlobals {
            if case .events(.local(let rules)) = entry.trigger {
                entries[index] = ScheduleEntry(
                    id: entry.id, dialect: entry.dialect, content: entry.content,
                    trigger: .events(.local(rules + globalEvents)), news: entry.news)
            }
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
            event, at: reader.place.member("event"), line: node.line, mapping: mapping,
            readsAsISmartNews: true)
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
        let firstShowDays = reader.count("FirstShowInterval")
        let queue = reader.string("queue", localized: true)?.trimmingSpaces
        reader.ignore(Self.classicIgnoredKeys)
        reader.acceptSuffixed(Self.classicKeys)
        guard mapping.errorCount == errorsBefore else { return nil }
        let hash = FeedValue.dictionary(item).contentHash
        let rules = NewsRules(
            kind: .message, start: start, end: end, repeats: repeats, always: always,
            counter: counter.map { Int(clamping: $0) }, firstShowDays: firstShowDays,
            queue: queue?.isEmpty == false ? queue : nil,
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

    /// A meta item's entry, where its `meta` dictionary is, and whether it takes the feed's
    /// global events as its own (a `review` item without events of its own).
    private func meta(_ reader: inout FieldReader) -> (ScheduleEntry, FeedLocation, takesGlobals: Bool)? {
        guard let (meta, node) = reader.dictionary("meta") else { return nil }
        var metaReader = FieldReader(
            meta, at: reader.place.member("meta"), line: node.line, mapping: mapping,
            readsAsISmartNews: true)
        defer { metaReader.reportUnknownKeys() }
        let errorsBefore = mapping.errorCount
        let uuid = metaReader.string("uuid")?.trimmingSpaces
        if uuid?.isEmpty ?? true { metaReader.missing("uuid", ": a meta item needs a non-empty uuid") }
        let urls = metaURLs(&metaReader)
        let ownEvents = NativeTrigger.events(&metaReader)
        // `uselocaltime` reads every date of the item as wall-clock time in the user's zone.
        let local = metaReader.bool("uselocaltime") ?? false
        let zone = mapping.userZone ?? .utc
        let shift = { (instant: Instant) in
            local ? instant - .seconds(Int64(zone.offset(at: instant).seconds)) : instant
        }
        let start = metaReader.instant("start", localized: true).map(shift)
        let end = metaReader.instant("end", localized: true).map(shift)
        if let start, let end, start >= end {
            mapping.error(.invalidValue, "`start` must be before `end`", at: metaReader.location(of: "start"))
        }
        let ranges = metaReader.array("dates").flatMap { elements in
            ISmartNewsDates(mapping: mapping, shift: shift).ranges(
                elements, uuid: uuid ?? "", at: metaReader.place.member("dates"))
        }
        let ignored = metaReader.bool("ignore") ?? false
        let priority = metaReader.integer("priority") ?? 0
        let queue = metaReader.string("queue")?.trimmingSpaces
        let firstShowDays = metaReader.count("FirstShowInterval")
        let minShowInterval = minimumInterval(&metaReader)
        let special = uuid ?? ""
        let oncePerVersion = onceRule(
            &metaReader, "oncePerVersion",
            default: special == MetaItem.reviewUUID
                ? "cancel|review|ok" : special == MetaItem.whatIsNewUUID ? "cancel|ok" : nil
        )
        var oncePerInstall = onceRule(
            &metaReader, "oncePerInstall",
            default: special == MetaItem.subscribeUUID || special.hasPrefix(MetaItem.subscribeUUID + "_")
                ? "cancel|ok" : nil)
        if oncePerVersion != nil, oncePerInstall != nil {
            // Only a key the feed wrote is worth a word; a default set aside is not.
            if metaReader.node("oncePerInstall") != nil {
                mapping.warning(
                    .unsupportedKey, "`oncePerInstall` is ignored beside `oncePerVersion`, as iSmartNews does",
                    at: metaReader.location(of: "oncePerInstall"))
            }
            oncePerInstall = nil
        }
        let onlyIfUpgrade = metaReader.bool("showOnlyIfUpgrade") ?? (special == MetaItem.whatIsNewUUID)
        let showDelay = delay(&metaReader)
        metaReader.ignore(Self.metaIgnoredKeys)
        metaReader.acceptSuffixed(["start", "end", "title", "text"])
        guard mapping.errorCount == errorsBefore, let uuid, let urls, !ignored else { return nil }
        let item = MetaItem(
            urls: urls.map(\.string), priority: Int(clamping: priority), minShowInterval: minShowInterval,
            oncePerVersion: oncePerVersion, oncePerInstall: oncePerInstall, showOnlyIfUpgrade: onlyIfUpgrade,
            ranges: ranges ?? [], showDelay: showDelay)
        // On the desktop a meta item is a popup that opens its first page.
        let action = NotificationAction(label: nil, url: urls[0])
        let title = metaReader.string("title", localized: true) ?? uuid
        let body = metaReader.string("text", localized: true) ?? urls[0].string
        let rules = NewsRules(
            kind: .meta(item), start: start, end: end, firstShowDays: firstShowDays,
            queue: queue?.isEmpty == false ? queue : nil, contentHash: FeedValue.dictionary(meta).contentHash)
        // `review` also listens to its manual event; `what_is_new` without events of its own
        // shows at the launch after an upgrade.
        var events = ownEvents
        if uuid == MetaItem.reviewUUID {
            events = (ownEvents ?? []) + [EventRule(name: SeedEventNames.reviewManually, patternText: "ON=1")]
        } else if uuid == MetaItem.whatIsNewUUID, ownEvents == nil {
            events = [EventRule(name: SeedEventNames.launchAfterUpgrade, patternText: "ON=1")]
        }
        let entry = ScheduleEntry(
            id: uuid, dialect: .iSmartNews, content: NotificationContent(title: title, body: body, action: action),
            trigger: .events(events.map { .local($0) } ?? .global), news: rules)
        return (entry, metaReader.location, uuid == MetaItem.reviewUUID && ownEvents == nil)
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
            if components.count > 1 {
                mapping.warning(
                    .unsupportedKey,
                    "the flags after the URL (\(components.dropFirst().joined(separator: "|"))) are ignored: a repeat "
                        + "count builds an iOS page sequence, and `$scheme` tests for an installed iOS app",
                    at: location)
            }
            do {
                urls.append(try ActionURL(url, policy: mapping.urlPolicy))
            } catch {
                mapping.error(.disallowedURL, error.message, at: location)
            }
        }
        if urls.count > 1 {
            mapping.warning(
                .unsupportedKey, "only the first URL is shown: the desktop popup opens one page, not a sequence",
                at: reader.location(of: "urls"))
        }
        if urls.isEmpty, mapping.errorCount == errorsBefore {
            mapping.error(.invalidValue, "`urls` has no URL to show", at: reader.location(of: "urls"))
        }
        return urls.isEmpty ? nil : urls
    }

    /// `minShowInterval`: `hour`, `day`, `week`, or seconds (a number, or digits); a
    /// systemd-style span such as `2d` too. Anything else is ignored with a warning, as
    /// iSmartNews reads it as 0 seconds.
    private func minimumInterval(_ reader: inout FieldReader) -> ShowInterval? {
        guard let (key, node) = reader.node("minShowInterval") else { return nil }
        switch node.value {
        case .string(let text):
            switch text.trimmingSpaces.lowercased() {
            case "hour": return .hour
            case "day": return .day
            case "week": return .week
            case let digits where !digits.isEmpty && digits.utf8.allSatisfy(\.isASCIIDigit):
                if let seconds = Int64(digits), seconds < FieldReader.spanSecondsLimit {
                    return .span(.seconds(seconds))
                }
                mapping.warning(
                    .invalidValue, "`minShowInterval` \(digits) is beyond any time; it is ignored",
                    at: reader.location(of: key, node))
                return nil
            default:
                if let span = TimeSpan.parse(text) { return .span(span) }
                mapping.warning(
                    .invalidValue,
                    "`minShowInterval` \(QuotedInput.quoted(text)) is not hour, day, week or seconds; it is ignored",
                    at: reader.location(of: key, node))
                return nil
            }
        default:
            return reader.span(key).map(ShowInterval.span)
        }
    }

    /// `minDelay`/`maxDelay`, as iSmartNews reads them: `maxDelay` is needed (`minDelay`
    /// defaults to 0) and capped at 60 s; a negative `minDelay` or one above `maxDelay` means
    /// no delay, with a warning.
    private func delay(_ reader: inout FieldReader) -> ClosedRange<Int>? {
        let minimum = reader.integer("minDelay")
        guard let maximum = reader.integer("maxDelay") else {
            if minimum != nil {
                mapping.warning(
                    .invalidValue, "`minDelay` without `maxDelay` is ignored, as iSmartNews does",
                    at: reader.location(of: "minDelay"))
            }
            return nil
        }
        let upper = Int(min(maximum, 60))
        let lower = Int(clamping: minimum ?? 0)
        guard lower >= 0, lower <= upper else {
            mapping.warning(
                .invalidValue,
                "`minDelay` \(lower) does not fit below `maxDelay` \(upper); the item shows without a delay",
                at: reader.location(of: "minDelay"))
            return nil
        }
        return lower...upper
    }

    /// `oncePerVersion`/`oncePerInstall`: a boolean (any closing counts), or the closings that
    /// count (`cancel|ok|review`); `fallback` is the special uuids' default.
    private func onceRule(_ reader: inout FieldReader, _ key: String, default fallback: String?) -> OnceRule? {
        guard let (name, node) = reader.node(key) else {
            return fallback.map { OnceRule(conditions: Self.conditions($0)) }
        }
        let rule: OnceRule?
        switch node.value {
        case .bool(let flag): rule = flag ? OnceRule() : nil
        case .integer(let flag): rule = flag != 0 ? OnceRule() : nil
        case .string(let text): rule = OnceRule(conditions: Self.conditions(text))
        default:
            reader.wrongType(name, node, expected: "a boolean or a list of closings such as cancel|ok")
            return nil
        }
        if let rule, !rule.canHappen {
            mapping.warning(
                .invalidValue,
                "`\(name)` counts only \(rule.conditions.sorted().joined(separator: "|")), which a desktop popup never "
                    + "reports (it reports ok and cancel); the item is never put away",
                at: reader.location(of: name, node))
        }
        return rule
    }

    private static func conditions(_ text: String) -> Set<String> {
        Set(text.split(separator: "|").map { String($0).trimmingSpaces.lowercased() }.filter { !$0.isEmpty })
    }

    private func settings(_ reader: inout FieldReader, gate: inout Int?, queues: inout [NewsQueue]) {
        if let value = reader.count("gate") { gate = value }
        guard let elements = reader.array("queues") else { return }
        for (index, element) in elements.enumerated() {
            let place = reader.place.member("queues").element(index)
            guard case .dictionary(let queue) = element.value else {
                mapping.error(
                    .wrongType, "a queue must be a dictionary, not \(element.value.typeName)",
                    at: FeedLocation(keyPath: place.path, line: element.line))
                continue
            }
            var queueReader = FieldReader(
                queue, at: place, line: element.line, mapping: mapping, readsAsISmartNews: true)
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
