import NotifySchedCore

/// The JSON shape of `delivered.json`. Instants are RFC 3339 UTC strings.
struct StoredLog: Codable {
    var format: Int
    var occurrences: [StoredOccurrence]
    var state: [String: StoredSourceState]

    init(_ log: DeliveryLog) {
        format = 1
        occurrences = log.occurrences.map(StoredOccurrence.init)
        state = log.state.sources.mapValues(StoredSourceState.init)
    }

    var log: DeliveryLog {
        get throws {
            DeliveryLog(
                occurrences: try occurrences.map { try $0.occurrence },
                state: HandlingState(sources: try state.mapValues { try $0.state }))
        }
    }
}

struct StoredOccurrence: Codable {
    struct Action: Codable {
        var label: String?
        var url: String
    }

    var id: String
    var source: String
    var entry: String
    var dialect: String
    var title: String
    var body: String
    var icon: String?
    var urgency: String
    var category: String?
    var action: Action?
    var news: StoredNews?
    var deliveredAt: String

    init(_ occurrence: DeliveredOccurrence) {
        id = occurrence.id
        source = occurrence.source
        entry = occurrence.entryID
        dialect = occurrence.dialect.rawValue
        title = occurrence.content.title
        body = occurrence.content.body
        icon = occurrence.content.icon
        urgency = occurrence.content.urgency.rawValue
        category = occurrence.category
        action = occurrence.content.action.map { Action(label: $0.label, url: $0.url.string) }
        news = occurrence.news.map(StoredNews.init)
        deliveredAt = occurrence.deliveredAt.rfc3339
    }

    var occurrence: DeliveredOccurrence {
        get throws {
            guard let dialect = FeedDialect(rawValue: dialect), let urgency = Urgency(rawValue: urgency) else {
                throw StoredValueError("occurrence \(id): unknown dialect or urgency")
            }
            // The URL passed the allowed schemes when it was delivered; the handler checks them
            // again before opening, so reading accepts any scheme that is not forbidden outright.
            let action = try action.map { action in
                let scheme = String(action.url.prefix { $0 != ":" })
                return NotificationAction(
                    label: action.label, url: try ActionURL(action.url, policy: URLPolicy(extraSchemes: [scheme])))
            }
            return DeliveredOccurrence(
                id: id, source: source, entryID: entry, dialect: dialect,
                content: NotificationContent(title: title, body: body, icon: icon, urgency: urgency, action: action),
                category: category, news: news?.news, deliveredAt: try StoredValueError.instant(deliveredAt))
        }
    }
}

struct StoredNews: Codable {
    var okLabel: String?
    var cancelLabel: String?
    var repeats: Bool
    var always: Bool
    var contentHash: String
    var isClassic: Bool

    init(_ news: NewsHandling) {
        okLabel = news.okLabel
        cancelLabel = news.cancelLabel
        repeats = news.repeats
        always = news.always
        contentHash = news.contentHash
        isClassic = news.isClassic
    }

    var news: NewsHandling {
        NewsHandling(
            okLabel: okLabel, cancelLabel: cancelLabel, repeats: repeats, always: always, contentHash: contentHash,
            isClassic: isClassic)
    }
}

struct StoredSourceState: Codable {
    var viewed: [String]
    var ignored: [String]
    var lastReminded: String?
    var reminded: [String: String]
    var shownNews: [String]

    init(_ state: SourceHandlingState) {
        viewed = state.viewed
        ignored = state.ignored
        lastReminded = state.lastReminded?.rfc3339
        reminded = state.reminded.mapValues(\.rfc3339)
        shownNews = state.shownNews.sorted()
    }

    var state: SourceHandlingState {
        get throws {
            SourceHandlingState(
                viewed: viewed, ignored: ignored, lastReminded: try lastReminded.map(StoredValueError.instant),
                reminded: try reminded.mapValues(StoredValueError.instant), shownNews: Set(shownNews))
        }
    }
}

/// A value in the stored log that does not read back.
struct StoredValueError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    static func instant(_ text: String) throws -> Instant {
        guard case .absolute(let instant)? = Timestamp.parse(text) else {
            throw StoredValueError("not an instant: \(text)")
        }
        return instant
    }
}
