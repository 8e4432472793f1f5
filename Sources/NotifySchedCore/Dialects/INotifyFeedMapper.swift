/// Maps an iNotify plist: a dictionary of message key → `{Title, Message, ActionButton,
/// ActionURL, MinVersion, MaxVersion}` (seed semantics §1.1). Keys are case-sensitive.
struct INotifyFeedMapper {
    let mapping: FeedMapping

    func map(_ root: FeedDictionary, source: String, format: FeedFormat) -> Schedule {
        var entries: [ScheduleEntry] = []
        for (key, node) in root.entries {
            let place = FeedPlace.root.member(key)
            guard case .dictionary(let message) = node.value else {
                mapping.error(
                    .wrongType, "an iNotify message must be a dictionary, not \(node.value.typeName)",
                    at: FeedLocation(keyPath: place.path, line: node.line))
                continue
            }
            var reader = FieldReader(message, at: place, line: node.line, mapping: mapping)
            let errorsBefore = mapping.errorCount
            let title = reader.string("Title") ?? ""
            let body = reader.string("Message") ?? ""
            let label = reader.string("ActionButton")
            let url = reader.actionURL("ActionURL")
            let versions = VersionRange(minimum: reader.string("MinVersion"), maximum: reader.string("MaxVersion"))
            reader.reportUnknownKeys()
            guard mapping.errorCount == errorsBefore else { continue }
            entries.append(
                ScheduleEntry(
                    id: key, dialect: .iNotify,
                    content: NotificationContent(
                        title: title, body: body, action: url.map { NotificationAction(label: label, url: $0) }),
                    trigger: .check, versions: versions))
        }
        return Schedule(source: source, dialect: .iNotify, format: format, entries: entries)
    }
}
