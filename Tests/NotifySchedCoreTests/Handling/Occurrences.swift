import NotifySchedCore

/// Occurrences of each dialect, as the handling tests use them.
enum Occurrences {
    static let policy = URLPolicy()
    static let moment = Instant(secondsSinceEpoch: 1_800_000_000)

    static func url(_ text: String) -> ActionURL {
        try! ActionURL(text, policy: policy)
    }

    static func make(
        _ dialect: FeedDialect, id: String = "occ-1", entry: String = "2011/02/01", source: String = "feed",
        title: String = "New version", body: String = "Get it now", label: String? = nil, url: String? = nil,
        news: NewsHandling? = nil
    ) -> DeliveredOccurrence {
        DeliveredOccurrence(
            id: id, source: source, entryID: entry, dialect: dialect,
            content: NotificationContent(
                title: title, body: body, action: url.map { NotificationAction(label: label, url: Occurrences.url($0)) }
            ),
            news: news, deliveredAt: moment)
    }
}
