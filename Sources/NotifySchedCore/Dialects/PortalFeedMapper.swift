/// Maps a portal feed, `{"notifications": [...]}`, whose entries are native or in ZBiM's flat form.
///
/// The entries are mapped in batches (`EntryBatcher`), side by side and, in a JSON feed, while
/// the rest of the document is still being read (`FeedParser`); `map` puts the feed together.
struct PortalFeedMapper {
    let mapping: FeedMapping
    /// The configured dialect: `native` or `zbim` reads every entry in that form; nil tells
    /// each entry by its `uuid`.
    var dialect: FeedDialect?

    static let nativeKeys =
        [
            "id", "title", "body", "fireDate", "timeZone", "repeatInterval", "calendar", "until", "count",
            "maxLateness",
            "action", "urgency", "icon", "category", "expires", "minVersion", "maxVersion", "events", "timeout",
            "sound",
            "image", "markup",
        ] + FieldReader.deliveryRuleKeys

    /// The feed: its root's own keys, and the entries `batches` mapped to, in order.
    func map(
        _ root: FeedDictionary, line: Int?, batches: consuming [MappedBatch], allZBiM: Bool, source: String,
        format: FeedFormat
    ) -> Schedule {
        var reader = FieldReader(root, at: .root, line: line, mapping: mapping)
        let version = reader.integer("version")
        if let version, version < 0 {
            mapping.error(.invalidValue, "`version` must not be negative", at: reader.location(of: "version"))
        }
        let expires = reader.instant("expires")
        let groups = reader.messageGroups("groups")
        let receipts = reader.feedReceipts("receipts")
        // The elements were mapped in the batches; this reports a `notifications` that is no array.
        _ = reader.array("notifications")
        // The entries are moved out of the batches, not copied: a copy retains every string of
        // every entry once more, and the batch's release lets go of them again.
        var entries = [ScheduleEntry](repeating: .vacant, count: batches.reduce(0) { $0 + $1.entries.count })
        var position = 0
        for index in batches.indices {
            for offset in batches[index].entries.indices {
                swap(&entries[position], &batches[index].entries[offset])
                position += 1
            }
            mapping.append(batches[index].problems)
            reportUndefinedGroups(batches[index].groupNames, defined: groups)
        }
        reader.reportUnknownKeys()
        let feedDialect: FeedDialect = dialect ?? (allZBiM && !entries.isEmpty ? .zbim : .native)
        return Schedule(
            source: source, dialect: feedDialect, format: format, entries: entries, version: version,
            expires: expires, groups: groups, receipts: receipts)
    }

    /// Reports each group an entry names that the feed's `groups` does not define.
    private func reportUndefinedGroups(_ names: [GroupNames], defined: [MessageGroup]) {
        for entry in names {
            for (index, id) in entry.groups.enumerated() where !defined.contains(where: { $0.id == id }) {
                mapping.error(
                    .invalidValue, "group \"\(id)\" is not defined in the feed's `groups`",
                    at: FeedLocation(
                        keyPath: KeyPath.element(
                            KeyPath.child(KeyPath.element("notifications", index: entry.index), key: "groups"),
                            index: index),
                        line: entry.line))
            }
        }
    }

    /// The groups an entry names, to check against those the feed defines once it is read.
    struct GroupNames: Sendable {
        /// The entry's index in `notifications`.
        var index: Int
        var line: Int?
        var groups: [String]
    }

    /// The entries a batch maps to, and the problems found in it.
    struct MappedBatch: Sendable {
        var entries: [ScheduleEntry]
        var problems: FeedMapping.Problems
        /// The groups each entry names, for the entries that name any.
        var groupNames: [GroupNames]
        /// The batch's elements, handed back to be freed by the thread that read them: freed
        /// on the mapping thread while the reader still allocated, they made both wait on
        /// malloc's lock (reading 10^5 entries took 220 ms, not 150).
        var elements: [FeedNode]
    }

    /// Maps `batch` on its own, on whichever thread, as a feed mapped with `settings` in
    /// `dialect` maps it.
    static func map(_ batch: EntryBatch, settings: FeedMapping.Settings, dialect: FeedDialect?) -> MappedBatch {
        let mapper = PortalFeedMapper(mapping: FeedMapping(settings), dialect: dialect)
        var entries: [ScheduleEntry] = []
        var groupNames: [GroupNames] = []
        entries.reserveCapacity(batch.elements.count)
        for (offset, node) in batch.elements.enumerated() {
            let index = batch.first + offset
            let place = FeedPlace("notifications").element(index)
            guard case .dictionary(let dictionary) = node.value else {
                mapper.mapping.error(
                    .wrongType, "an entry must be a dictionary, not \(node.value.typeName)",
                    at: FeedLocation(keyPath: place.path, line: node.line))
                continue
            }
            let isZBiM = batch.isZBiM[offset]
            // The twin is read all the same, so that its own problems are listed too.
            let twin = batch.twins[index]
            if let twin {
                mapper.mapping.error(
                    .duplicateID,
                    "\(idKey(isZBiM: isZBiM)) \"\(twin.id)\" is already used by \(KeyPath.element("notifications", index: twin.first))",
                    at: FeedLocation(keyPath: place.path, line: node.line))
            }
            let entryReader = FieldReader(dictionary, at: place, line: node.line, mapping: mapper.mapping)
            if let entry = isZBiM ? mapper.mapZBiM(entryReader) : mapper.mapNative(entryReader), twin == nil {
                entries.append(entry)
                if let groups = entry.deliveryRules?.groups, !groups.isEmpty {
                    groupNames.append(GroupNames(index: index, line: node.line, groups: groups))
                }
            }
        }
        return MappedBatch(
            entries: entries, problems: mapper.mapping.problems, groupNames: groupNames, elements: batch.elements)
    }

    /// The key of an entry's id: a ZBiM row's is its `uuid` (its `id` is a row number).
    static func idKey(isZBiM: Bool) -> String { isZBiM ? "uuid" : "id" }

    /// A native entry (DESIGN §4.1).
    private func mapNative(_ reader: FieldReader) -> ScheduleEntry? {
        var reader = reader
        let errorsBefore = mapping.errorCount
        let id = reader.nonEmptyString("id")
        if reader.node("id") == nil { reader.missing("id", " (a stable, unique string)") }
        let title = reader.string("title")
        if title == nil, reader.node("title") == nil { reader.missing("title") }
        let body = reader.string("body") ?? ""
        let zone = zone(&reader)
        let trigger = NativeTrigger.read(&reader, zone: zone)
        let action = action(&reader)
        let urgency = urgency(&reader)
        let entry = ScheduleEntry(
            id: id ?? "",
            dialect: .native,
            content: NotificationContent(
                title: title ?? "", body: body, icon: reader.string("icon"), urgency: urgency, action: action,
                timeout: timeout(&reader), sound: reader.nonEmptyString("sound"), image: image(&reader),
                markup: reader.bool("markup") ?? false),
            trigger: trigger ?? .immediate,
            maxLateness: reader.span("maxLateness") ?? ScheduleEntry.defaultMaxLateness,
            expires: reader.instant("expires"),
            versions: VersionRange(minimum: reader.string("minVersion"), maximum: reader.string("maxVersion")),
            category: reader.string("category"), deliveryRules: reader.deliveryRules())
        reader.reportUnknownKeys()
        return mapping.errorCount == errorsBefore ? entry : nil
    }

    /// An entry in the ZBiM SDK's flat form (seed semantics §3.2).
    private func mapZBiM(_ reader: FieldReader) -> ScheduleEntry? {
        var reader = reader
        let errorsBefore = mapping.errorCount
        let uuid = reader.nonEmptyString("uuid")
        let uri = reader.actionURL("uri")
        if reader.node("uri") == nil {
            reader.missing("uri", ": a ZBiM notification without a content URI is malformed")
        }
        let title = reader.string("title").flatMap { $0.isEmpty ? nil : $0 } ?? "New Content Available"
        let body = reader.string("body").flatMap { $0.isEmpty ? nil : $0 } ?? "Tap to explore"
        var fields: [Int] = []
        for key in ["year", "month", "day", "hour", "minute"] {
            if let value = reader.integer(key, acceptingStrings: true) {
                fields.append(Int(clamping: value))
            } else if reader.node(key) == nil {
                reader.missing(key)
            }
        }
        let isUTC: Bool
        switch reader.node("is_utc")?.node.value {
        case .bool(let flag)?: isUTC = flag
        case .integer(let flag)?: isUTC = flag != 0
        case .string(let text)?: isUTC = (Int(text.trimmingSpaces) ?? 0) != 0
        default: isUTC = false
        }
        reader.accept(["id"])
        let deliveryRules = reader.deliveryRules()
        var trigger: Trigger?
        if fields.count == 5 {
            let civil = CivilDateTime(
                year: fields[0], month: fields[1], day: fields[2], hour: fields[3], minute: fields[4])
            if civil.isValid {
                trigger = .once(FireTime(isUTC ? .absolute(civil.instant(atOffset: 0)) : .floating(civil)))
            } else if !CivilDateTime.supportedYears.contains(civil.year) {
                mapping.error(
                    .invalidDate, "year \(civil.year) is outside the years 1 to 9999", at: reader.location(of: "year"))
            } else {
                mapping.error(
                    .invalidDate, "year/month/day/hour/minute name no real time: \(civil)", at: reader.location)
            }
        }
        reader.reportUnknownKeys()
        guard mapping.errorCount == errorsBefore, let uuid, let uri, let trigger else { return nil }
        return ScheduleEntry(
            id: uuid, dialect: .zbim,
            content: NotificationContent(title: title, body: body, action: NotificationAction(label: nil, url: uri)),
            trigger: trigger, maxLateness: .zero, deliveryRules: deliveryRules)
    }

    private func zone(_ reader: inout FieldReader) -> ZoneRules? {
        guard let name = reader.string("timeZone") else { return nil }
        if let zone = mapping.zones.zone(named: name) { return zone }
        mapping.error(
            .unknownZone, "`timeZone` \"\(name)\" is not in the time-zone database", at: reader.location(of: "timeZone")
        )
        return nil
    }

    private func action(_ reader: inout FieldReader) -> NotificationAction? {
        guard let (key, node) = reader.node("action") else { return nil }
        switch node.value {
        case .string:
            return reader.actionURL("action").map { NotificationAction(label: nil, url: $0) }
        case .dictionary(let dictionary):
            var actionReader = FieldReader(dictionary, at: reader.place.member(key), line: node.line, mapping: mapping)
            let label = actionReader.string("label")
            let url = actionReader.actionURL("url")
            if actionReader.node("url") == nil { actionReader.missing("url") }
            actionReader.reportUnknownKeys()
            return url.map { NotificationAction(label: label, url: $0) }
        default:
            reader.wrongType(key, node, expected: "a dictionary with `label` and `url`")
            return nil
        }
    }

    /// `timeout`: how long the popup stays, 0 for until it is closed.
    private func timeout(_ reader: inout FieldReader) -> TimeSpan? {
        guard let span = reader.span("timeout") else { return nil }
        guard span <= NotificationContent.longestTimeout else {
            mapping.error(
                .invalidValue, "`timeout` must be at most 24 days (0 keeps the popup until it is closed)",
                at: reader.location(of: "timeout"))
            return nil
        }
        return span
    }

    /// `image`: a picture file (`NotificationContent.isImageLocation`).
    private func image(_ reader: inout FieldReader) -> String? {
        guard let image = reader.string("image") else { return nil }
        guard NotificationContent.isImageLocation(image) else {
            mapping.error(
                .invalidValue,
                "`image` must be a picture file's absolute path or file:// URI, not \(QuotedInput.quoted(image))",
                at: reader.location(of: "image"))
            return nil
        }
        return image
    }

    private func urgency(_ reader: inout FieldReader) -> Urgency {
        guard let text = reader.string("urgency") else { return .normal }
        if let urgency = Urgency(rawValue: text.lowercased()) { return urgency }
        mapping.error(
            .invalidValue, "`urgency` must be low, normal or critical, not \(QuotedInput.quoted(text))",
            at: reader.location(of: "urgency"))
        return .normal
    }
}

/// A run of a portal feed's entries, with what mapping each needs to know of the others.
struct EntryBatch: Sendable {
    /// The index in `notifications` of the first element.
    let first: Int
    var elements: [FeedNode] = []
    /// Whether each element is a ZBiM row; false for one that is not a dictionary.
    var isZBiM: [Bool] = []
    /// The id of each entry whose id an earlier one took, and the earlier one's index, by the
    /// index of the later one.
    var twins: [Int: (first: Int, id: String)] = [:]
}

/// Cuts the elements of `notifications`, handed over one by one as they are read, into batches
/// to map side by side, telling apart ZBiM rows and repeated ids on the way: what needs every
/// earlier entry.
struct EntryBatcher {
    /// Elements per batch.
    static let size = 8192

    /// The configured dialect (`PortalFeedMapper.dialect`).
    let dialect: FeedDialect?
    /// Whether every entry so far is a ZBiM row.
    private(set) var allZBiM = true
    private var batch = EntryBatch(first: 0)
    private var count = 0
    // A repeated id is found with one memory access an entry: a dictionary of the ids' positions
    // took two (its keys, then its values), each a cache miss in a big feed, and the second
    // came to a twentieth of a start on 10^6 entries. The position of an id's first entry is
    // needed only for a repeat, which valid feeds never have.
    /// Every id taken so far.
    private var seenIDs: Set<String> = []
    /// The ids taken, in order, with the position of the entry that took each; given up for
    /// `firstPositions` at the first repeat.
    private var taken: [(id: String, position: Int)] = []
    /// The position of the entry that took each id, from the first repeat on.
    private var firstPositions: [String: Int]?

    /// - Parameters:
    ///   - dialect: The configured dialect.
    ///   - documentBytes: The document's size, from which the number of entries is guessed:
    ///     room for the ids at once, rather than growing to them rehashing every one each time.
    init(dialect: FeedDialect?, documentBytes: Int) {
        self.dialect = dialect
        seenIDs.reserveCapacity(documentBytes / Self.bytesPerEntry)
        taken.reserveCapacity(documentBytes / Self.bytesPerEntry)
    }

    /// Fewer bytes than most entries take, JSON or plist (a bare `{"id": "e1", "title": "T"}`
    /// takes 28): the guess errs on the side of room.
    private static let bytesPerEntry = 96

    /// Adds the next element; returns the batch it filled.
    mutating func add(_ node: consuming FeedNode) -> EntryBatch? {
        var isZBiM = false
        if case .dictionary(let dictionary) = node.value {
            // Native entries have no `uuid`; ZBiM rows always do (their `id` is a row number).
            isZBiM = dialect.map { $0 == .zbim } ?? (dictionary.index(of: "uuid") != nil)
            allZBiM = allZBiM && isZBiM
            // An id is taken even by an entry with errors, so a later twin is still reported.
            if let index = dictionary.index(of: PortalFeedMapper.idKey(isZBiM: isZBiM)),
                case .string(let id) = dictionary.entries[index].node.value
            {
                take(id)
            }
        }
        batch.elements.append(node)
        batch.isZBiM.append(isZBiM)
        count += 1
        return batch.elements.count == Self.size ? rest() : nil
    }

    /// Takes `id` for the entry at `count`, or records the entry as a twin of the one that took
    /// it first.
    private mutating func take(_ id: String) {
        if seenIDs.insert(id).inserted {
            if firstPositions == nil {
                taken.append((id, count))
            } else {
                firstPositions?[id] = count
            }
            return
        }
        let positions =
            firstPositions
            ?? Dictionary(taken.lazy.map { ($0.id, $0.position) }, uniquingKeysWith: { first, _ in first })
        firstPositions = positions
        taken = []
        // `positions` holds every id of `seenIDs`.
        if let first = positions[id] { batch.twins[count] = (first, id) }
    }

    /// The batch begun and not full; nil when it has no element.
    mutating func rest() -> EntryBatch? {
        guard !batch.elements.isEmpty else { return nil }
        defer {
            let wasFull = batch.elements.count == Self.size
            batch = EntryBatch(first: count)
            // After a full batch, more are likely: room for one at once, not grown to in steps
            // (each a large allocation, which makes malloc gather its free lists).
            if wasFull {
                batch.elements.reserveCapacity(Self.size)
                batch.isZBiM.reserveCapacity(Self.size)
            }
        }
        return batch
    }
}
