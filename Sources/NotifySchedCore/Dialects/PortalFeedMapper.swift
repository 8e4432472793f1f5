/// Maps a portal feed, `{"notifications": [...]}`, whose entries are native or in ZBiM's flat form.
struct PortalFeedMapper {
    let mapping: FeedMapping
    /// The configured dialect: `native` or `zbim` reads every entry in that form; nil tells
    /// each entry by its `uuid`.
    var dialect: FeedDialect?
    /// How the entries may be mapped side by side.
    var parallelWork: any ParallelWork

    static let nativeKeys = [
        "id", "title", "body", "fireDate", "timeZone", "repeatInterval", "calendar", "until", "count", "maxLateness",
        "action", "urgency", "icon", "category", "expires", "minVersion", "maxVersion", "events", "timeout", "sound",
        "image", "markup",
    ]

    /// How the entries are mapped: in pieces of this many, side by side as `parallelWork` allows.
    static let piece = 8192

    func map(_ root: FeedDictionary, line: Int?, source: String, format: FeedFormat) -> Schedule {
        var reader = FieldReader(root, at: .root, line: line, mapping: mapping)
        let version = reader.integer("version")
        if let version, version < 0 {
            mapping.error(.invalidValue, "`version` must not be negative", at: reader.location(of: "version"))
        }
        let expires = reader.instant("expires")
        let elements = reader.array("notifications") ?? []
        let identities = EntryIdentities(elements, dialect: dialect)
        let settings = mapping.settings
        let dialect = self.dialect
        let pieces = parallelWork.values((elements.count + Self.piece - 1) / Self.piece) { piece in
            let range = piece * Self.piece..<min(elements.count, (piece + 1) * Self.piece)
            let mapper = PortalFeedMapper(mapping: FeedMapping(settings), dialect: dialect, parallelWork: SerialWork())
            return mapper.mapEntries(elements, range, identities)
        }
        var entries: [ScheduleEntry] = []
        entries.reserveCapacity(pieces.reduce(0) { $0 + $1.entries.count })
        for piece in pieces {
            entries += piece.entries
            mapping.append(piece.problems)
        }
        reader.reportUnknownKeys()
        let feedDialect: FeedDialect = dialect ?? (identities.allZBiM && !entries.isEmpty ? .zbim : .native)
        return Schedule(
            source: source, dialect: feedDialect, format: format, entries: entries, version: version,
            expires: expires)
    }

    /// The entries a piece of the feed maps to, and the problems found in it.
    private struct MappedPiece: Sendable {
        var entries: [ScheduleEntry]
        var problems: FeedMapping.Problems
    }

    /// Maps `elements[range]`, the entries of one piece.
    private func mapEntries(
        _ elements: [FeedNode], _ range: Range<Int>, _ identities: EntryIdentities
    ) -> MappedPiece {
        var entries: [ScheduleEntry] = []
        entries.reserveCapacity(range.count)
        for index in range {
            let node = elements[index]
            let place = FeedPlace("notifications").element(index)
            guard case .dictionary(let dictionary) = node.value else {
                mapping.error(
                    .wrongType, "an entry must be a dictionary, not \(node.value.typeName)",
                    at: FeedLocation(keyPath: place.path, line: node.line))
                continue
            }
            let isZBiM = identities.isZBiM[index]
            // The twin is read all the same, so that its own problems are listed too.
            let first = identities.twins[index]
            if let first, case .string(let id)? = dictionary[isZBiM ? "uuid" : "id"]?.value {
                mapping.error(
                    .duplicateID,
                    "\(isZBiM ? "uuid" : "id") \"\(id)\" is already used by \(KeyPath.element("notifications", index: first))",
                    at: FeedLocation(keyPath: place.path, line: node.line))
            }
            let entryReader = FieldReader(dictionary, at: place, line: node.line, mapping: mapping)
            if let entry = isZBiM ? mapZBiM(entryReader) : mapNative(entryReader), first == nil {
                entries.append(entry)
            }
        }
        return MappedPiece(entries: entries, problems: mapping.problems)
    }

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
            category: reader.string("category"))
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
            trigger: trigger, maxLateness: .zero)
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

/// What mapping an entry needs to know of the others, found in one pass before the entries are
/// mapped side by side: which are in ZBiM's form, and which reuse an earlier entry's id.
private struct EntryIdentities: Sendable {
    /// Whether each element is a ZBiM row; false for an element that is not a dictionary.
    let isZBiM: [Bool]
    /// The index of the first entry with the same id, by the index of each later one.
    let twins: [Int: Int]
    /// Whether every entry is a ZBiM row.
    let allZBiM: Bool

    init(_ elements: [FeedNode], dialect: FeedDialect?) {
        var isZBiM: [Bool] = []
        isZBiM.reserveCapacity(elements.count)
        var twins: [Int: Int] = [:]
        var seen: [String: Int] = [:]
        seen.reserveCapacity(elements.count)
        var allZBiM = true
        for (index, node) in elements.enumerated() {
            guard case .dictionary(let dictionary) = node.value else {
                isZBiM.append(false)
                continue
            }
            // Native entries have no `uuid`; ZBiM rows always do (their `id` is a row number).
            let zbim = dialect.map { $0 == .zbim } ?? (dictionary["uuid"] != nil)
            isZBiM.append(zbim)
            allZBiM = allZBiM && zbim
            // An id is taken even by an entry with errors, so a later twin is still reported.
            if case .string(let id)? = dictionary[zbim ? "uuid" : "id"]?.value {
                if let first = seen[id] {
                    twins[index] = first
                } else {
                    seen[id] = index
                }
            }
        }
        self.isZBiM = isZBiM
        self.twins = twins
        self.allZBiM = allZBiM
    }
}
