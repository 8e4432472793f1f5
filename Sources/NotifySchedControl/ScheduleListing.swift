import Foundation
import Glibc
import NotifySchedCore

/// What `notify-sched list` shows: each entry with its next occurrences and what the ledger
/// says of it, as of one instant. The running daemon builds it for its `List` call, the CLI for
/// `list --feed` and when no daemon runs.
public struct ScheduleListing: Sendable {
    /// One entry of the listing; its JSON form is the contract of DESIGN §2.
    public struct Row: Codable, Equatable, Sendable {
        public struct Action: Codable, Equatable, Sendable {
            public var label: String?
            public var url: String
        }

        public var id: String
        public var title: String
        public var body: String
        public var source: String
        public var dialect: String
        public var urgency: String
        public var action: Action?
        /// How the entry is triggered, in words; says why `occurrences` is empty for event- and
        /// check-driven entries.
        public var trigger: String
        /// The next instants, RFC 3339 UTC, ascending, the first at or after `now`.
        public var occurrences: [String]
        /// The last occurrence before `now` that is still within the entry's `maxLateness`:
        /// a daemon that missed it delivers it once on start.
        public var catchUp: String?
        /// The entry's latest occurrence in the ledger, RFC 3339 UTC, when it was shown; nil
        /// when it never was or the latest one was missed.
        public var lastDelivery: String?
        /// The occurrence id of that delivery, which `notify-sched handle` takes.
        public var lastOccurrenceID: String?
        /// What became of the latest occurrence: the ledger's outcome (`delivered`, `acted`,
        /// `ignored`, `reminded`, `closed`, `missed`, `suppressed`); without one, why the entry has
        /// no time to come (`ended`, `expired`, `other version`: `EntryEnding`), else `pending`.
        public var state: String
        /// Why the latest occurrence was suppressed, when it was.
        public var reason: SuppressionReport?
        /// How the checks of the entry's source fare, when it is followed (a daemon's source,
        /// or a configured one the state database knows).
        public var sourceHealth: SourceHealthReport?
        /// The first occurrence, for sorting and the table.
        public var next: Instant? { occurrences.first.flatMap(ScheduleListing.instant) }

        enum CodingKeys: String, CodingKey {
            case id, title, body, source, dialect, urgency, action, trigger, occurrences, catchUp, lastDelivery,
                lastOccurrenceID, state, reason, sourceHealth
        }
    }

    /// The entries, timed ones first by next occurrence, then the others in feed order: all of
    /// them, or the page asked for.
    public var rows: [Row]
    /// How many entries the listing's filter keeps, on every page.
    public var total: Int
    /// The most occurrences per entry a listing shows: a caller cannot make the daemon compute
    /// and hold an unbounded listing.
    public static let maximumUpcoming = ControlCall.maximumUpcoming

    /// Lists the entries of `schedules` that `filter` keeps as of `now`, `upcoming` occurrences
    /// per entry, sorted by next occurrence: all of them, or the rows of `page`.
    ///
    /// - Parameters:
    ///   - history: The latest ledger record of each entry, by source and then entry id.
    ///   - settled: What each source's entries are settled through (`StateStore.settledThrough`),
    ///     by source; the history's latest record stands in where an entry has nothing.
    ///   - health: How each source's checks fare, by source.
    public init(
        schedules: [Schedule], now: Instant, upcoming: Int, userZone: ZoneRules, filter: ListingFilter = .all,
        page: Range<Int>? = nil, history: [String: [String: LedgerRecord]] = [:],
        settled: [String: StoredSettledInstants] = [:], health: [String: SourceHealth] = [:],
        applicationVersions: [String: String] = [:]
    ) {
        self.init(
            schedules: schedules, now: now, upcoming: upcoming, userZone: userZone, filter: filter, page: page,
            settled: schedules.map { schedule in
                let stored = settled[schedule.source]?.settledThrough(schedule.entries)
                return schedule.entries.indices.map {
                    stored?[$0] ?? history[schedule.source]?[schedule.entries[$0].id]?.occurrence
                }
            },
            records: { index, _ in history[schedules[index].source] ?? [:] }, health: health,
            applicationVersions: applicationVersions)
    }

    /// Lists the entries of `schedules` that `filter` keeps, as of `now`, `upcoming` occurrences
    /// per entry, sorted by next occurrence: all of them, or the rows of `page` (positions in
    /// the filtered listing). Only the rows listed are built and only their ledger records
    /// read, so a page of a schedule of 10^6 entries costs little more than walking `order`.
    ///
    /// - Parameters:
    ///   - order: The entries by next occurrence as of `now`; computed here when nil.
    ///   - settled: The instant each entry is settled through, by schedule and entry position.
    ///   - records: The latest ledger records of the named entries of a schedule (by its
    ///     position in `schedules`), by entry id; asked for every entry of the schedule when
    ///     the filter names states, for the page's otherwise.
    ///   - health: How each source's checks fare, by source.
    ///   - applicationVersions: The application version each source is read for, by source.
    /// - Throws: What `records` throws.
    public init<Failure: Error>(
        schedules: [Schedule], now: Instant, upcoming: Int, userZone: ZoneRules, order: ListingOrder? = nil,
        filter: ListingFilter = .all, page: Range<Int>? = nil, settled: [[Instant?]],
        records: (_ schedule: Int, _ entryIDs: [String]) throws(Failure) -> [String: LedgerRecord],
        health: [String: SourceHealth] = [:], applicationVersions: [String: String] = [:]
    ) throws(Failure) {
        let contexts = schedules.map {
            PlanningContext(userZone: userZone, applicationVersion: applicationVersions[$0.source])
        }
        let order = order ?? ListingOrder(schedules: schedules, settled: settled, now: now, userZone: userZone)
        var stateRecords: [[String: LedgerRecord]] = Array(repeating: [:], count: schedules.count)
        if !filter.states.isEmpty {
            for (index, schedule) in schedules.enumerated() where filter.admits(source: schedule.source) {
                stateRecords[index] = try records(index, schedule.entries.map(\.id))
            }
        }
        let admittedSources = schedules.map { filter.admits(source: $0.source) }
        let kept: [ListingOrder.Key]
        if filter == .all {
            kept = order.keys
        } else {
            kept = order.keys.filter { key in
                let (index, position) = order.location(of: key)
                guard admittedSources[index] else { return false }
                let entry = schedules[index].entries[position]
                guard filter.admits(id: entry.id) else { return false }
                guard !filter.states.isEmpty else { return true }
                let record = stateRecords[index][entry.id]
                guard record == nil else { return filter.states.contains(record.state(ending: nil)) }
                // A catch-up a daemon starting now would deliver is still to come.
                let comesAgain =
                    key.next != Int64.max
                    || OccurrencePlan(
                        for: entry, settledThrough: settled[index][position], now: now, context: contexts[index]
                    ).deliver != nil
                let ending = EntryEnding.of(entry, now: now, context: contexts[index], comesAgain: comesAgain)
                return filter.states.contains(record.state(ending: ending))
            }
        }
        total = kept.count
        let listed = (page.map { kept[$0.clamped(to: kept.indices)] } ?? kept[...]).map(order.location(of:))
        var pageRecords: [Int: [String: LedgerRecord]] = [:]
        if filter.states.isEmpty {
            for index in Set(listed.map(\.schedule)).sorted() {
                let ids = listed.filter { $0.schedule == index }.map { schedules[index].entries[$0.entry].id }
                pageRecords[index] = try records(index, ids)
            }
        }
        rows = listed.map { index, position in
            let schedule = schedules[index]
            let entry = schedule.entries[position]
            return Self.row(
                for: entry, of: schedule, now: now, upcoming: upcoming, userZone: userZone,
                record: (filter.states.isEmpty ? pageRecords[index] : stateRecords[index])?[entry.id],
                settledThrough: settled[index][position], health: health[schedule.source], context: contexts[index])
        }
    }

    /// The instants an entry comes next, the first at or after `now`, `limit` at most: none for
    /// an immediate entry once shown, and nothing up to the instant it is settled through or
    /// from its expiry on, as for the planner.
    static func instants(
        of entry: ScheduleEntry, settledThrough: Instant?, now: Instant, limit: Int, userZone: ZoneRules
    ) -> [Instant] {
        if case .immediate = entry.trigger, settledThrough != nil { return [] }
        let from = settledThrough.map { max(now, $0.nextMicrosecond) } ?? now
        var instants = entry.trigger.occurrences(onOrAfter: from, limit: limit, userZone: userZone)
        if let expires = entry.expires { instants.removeAll { $0 >= expires } }
        return instants
    }

    /// The row of `entry`.
    private static func row(
        for entry: ScheduleEntry, of schedule: Schedule, now: Instant, upcoming: Int, userZone: ZoneRules,
        record: LedgerRecord?, settledThrough: Instant?, health: SourceHealth?, context: PlanningContext
    ) -> Row {
        let instants = instants(
            of: entry, settledThrough: settledThrough, now: now, limit: max(upcoming, 1), userZone: userZone)
        // What a daemon starting now would deliver at once.
        let delivered = record.flatMap { $0.outcome == .missed || $0.outcome == .suppressed ? nil : $0 }
        let plan = OccurrencePlan(for: entry, settledThrough: settledThrough, now: now, context: context)
        let catchUp: Instant? = if case .immediate = entry.trigger { nil } else { plan.deliver }
        let ending = EntryEnding.of(
            entry, now: now, context: context, comesAgain: !instants.isEmpty || plan.deliver != nil)
        return Row(
            id: entry.id, title: entry.content.title, body: entry.content.body, source: schedule.source,
            dialect: entry.dialect.rawValue, urgency: entry.content.urgency.rawValue,
            action: entry.content.action.map { Row.Action(label: $0.label, url: $0.url.string) },
            trigger: entry.trigger.summary(news: schedule.news),
            occurrences: instants.prefix(upcoming).map(\.rfc3339), catchUp: catchUp?.rfc3339,
            lastDelivery: delivered?.occurrence.rfc3339, lastOccurrenceID: delivered?.occurrenceID,
            state: record.state(ending: ending), reason: record?.suppression.map(SuppressionReport.init),
            sourceHealth: health.map(SourceHealthReport.init))
    }

    /// A listing of rows another process built (the daemon's `List` answer).
    ///
    /// - Throws: `DecodingError` when `json` is not such a listing.
    public init(json: String, total: Int? = nil) throws {
        rows = try JSONDecoder().decode([Row].self, from: Data(json.utf8))
        self.total = total ?? rows.count
    }

    /// The rows as a JSON array, pretty-printed with sorted keys.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// The rows as a table at most `width` characters wide where it can be (nil: as wide as
    /// the cells), as `systemctl list-timers` shows timers: the next occurrence in the user's zone
    /// (or how the entry is triggered) and the time LEFT until it, the LAST delivery and the time
    /// PASSED since, the state, the entry's id and title, the occurrence id of the last delivery
    /// and the source (by its name in `sourceNames`, where it has one). Where the whole cells do
    /// not fit, the source, the occurrence id and LAST are left out, in that order, before
    /// anything is cut; then the source health of each source that has one.
    public func table(userZone: ZoneRules, now: Instant, width: Int?, sourceNames: [String: String] = [:]) -> String {
        let lines = rows.map { row -> [String] in
            let next = row.next
            let last = row.lastDelivery.flatMap(Self.instant)
            return [
                next.map { userZone.tableMinute(at: $0) } ?? Self.untimed(row.trigger),
                next.map { ($0 - now).rough } ?? "-",
                last.map { userZone.tableMinute(at: $0) } ?? "-",
                last.map { (now - $0).rough + " ago" } ?? "-",
                row.state, row.id, row.title, row.lastOccurrenceID ?? "-", sourceNames[row.source] ?? row.source,
            ]
        }
        let table = TextTable(
            [
                .init("NEXT", cut: .end, floor: 16), .init("LEFT"), .init("LAST", optional: true), .init("PASSED"),
                .init("STATE"), .init("ID", cut: .end, floor: 10), .init("TITLE", cut: .end, floor: 16),
                .init("OCCURRENCE ID", optional: true), .init("SOURCE", cut: .start, optional: true),
            ], rows: lines)
        return (table.lines(width: width) + sourceHealthLines(sourceNames)).joined(separator: "\n")
    }

    /// What the NEXT column says of an entry with no next occurrence: that it waits for an event
    /// or a check (`Trigger.summary` says which), or `-` when it has nothing to come.
    private static func untimed(_ trigger: String) -> String {
        [Trigger.eventSummary, Trigger.checkSummary].first { trigger.hasPrefix($0) } ?? "-"
    }

    /// After the table, a line per source whose health is known, in the order sources first appear.
    private func sourceHealthLines(_ sourceNames: [String: String]) -> [String] {
        var seen: Set<String> = []
        var lines: [String] = []
        for row in rows where seen.insert(row.source).inserted {
            guard let summary = row.sourceHealth?.summary, !summary.isEmpty else { continue }
            if lines.isEmpty { lines.append("") }
            lines.append("\(sourceNames[row.source] ?? row.source): \(summary)")
        }
        return lines
    }

    /// The instant an RFC 3339 UTC string of a row names.
    static func instant(_ text: String) -> Instant? {
        guard case .absolute(let instant)? = Timestamp.parse(text) else { return nil }
        return instant
    }
}

extension ListingFilter {
    /// Whether the entries of `source` may be listed.
    public func admits(source: String) -> Bool { sources.isEmpty || sources.contains(source) }

    /// Whether an entry of this id may be listed.
    public func admits(id: String) -> Bool { ids.isEmpty || ids.contains { fnmatch($0, id, 0) == 0 } }
}

extension LedgerRecord? {
    /// The state `list` shows for an entry whose latest record this is; without one, why the
    /// entry has no time to come, or `pending`.
    fileprivate func state(ending: EntryEnding?) -> String {
        self?.outcome.rawValue ?? ending?.rawValue ?? "pending"
    }
}

extension Trigger {
    /// How `summary(news:)` starts for an entry shown on events.
    static let eventSummary = "on event"
    /// How `summary(news:)` starts for an iNotify message.
    static let checkSummary = "on iNotify check"

    /// The trigger in a few words, for `list`.
    public func summary(news: NewsSettings?) -> String {
        switch self {
        case .immediate:
            return "immediately"
        case .once(let time):
            return "once at \(time.summary)"
        case .repeating(let first, let interval, let bounds):
            return "every \(interval.rawValue) from \(first.summary)\(bounds.summary)"
        case .calendar(let expression, let zone, let notBefore, let bounds):
            let zoneText = zone.map { " in \($0.identifier)" } ?? ""
            let start = notBefore.map { " from \($0.summary)" } ?? ""
            return "calendar \(expression.normalized)\(zoneText)\(start)\(bounds.summary)"
        case .events(.local(let rules)):
            return "\(Self.eventSummary) " + rules.map { "\($0.name) (\($0.pattern))" }.joined(separator: ", ")
        case .events(.global):
            let rules = news?.globalEvents ?? []
            return "\(Self.eventSummary) " + rules.map { "\($0.name) (\($0.pattern))" }.joined(separator: ", ")
        case .alarm(let series):
            return series.summary
        case .check:
            return "\(Self.checkSummary) at start-up, resume and unlock"
        }
    }
}

extension FireTime {
    fileprivate var summary: String {
        switch kind {
        case .absolute(let instant): instant.rfc3339
        case .floating(let civil): "\(civil) \(zone?.identifier ?? "local time")"
        }
    }
}

extension RecurrenceBounds {
    fileprivate var summary: String {
        var text = ""
        if let until { text += " until \(until.rfc3339)" }
        if let count { text += ", \(count) \(count == 1 ? "time" : "times")" }
        return text
    }
}
