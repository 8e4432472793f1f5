import Foundation

/// One upload of a source's receipts: an OTLP/HTTP JSON `ExportLogsServiceRequest` with one log
/// record (`eventName` `notify_sched.receipt`) per tally, its counts as attributes, and a
/// random `receipt.id` per record and `notify_sched.batch.id` per body for deduplication.
///
/// Nothing in it says who sends it: no install id, host name or time of sending. Two desktops
/// with the same counts send bodies that differ only in their random ids (docs/receipts.md).
public struct ReceiptBody: Sendable, Equatable {
    /// The body's random id, a resource attribute.
    public var batchID: String
    /// The exact bytes posted, sent again byte for byte on every retry.
    public var json: String
    /// How many log records it holds.
    public var recordCount: Int

    public init(batchID: String, json: String, recordCount: Int) {
        self.batchID = batchID
        self.json = json
        self.recordCount = recordCount
    }

    /// The event name of each tally's log record.
    public static let eventName = "notify_sched.receipt"
    /// The event name of the record that says how much the bounded queue dropped.
    public static let droppedEventName = "notify_sched.receipts_dropped"

    /// The body of `tallies` of `source`, with a record of `dropped` when the queue dropped
    /// any since the last body; ids drawn from `generator`.
    ///
    /// - Parameters:
    ///   - source: The feed's location; only what names the feed is sent (`sourceName(_:)`).
    ///   - dropped: What the queue dropped, reported in a record of its own.
    ///   - day: The UTC day the dropped record is dated.
    public static func encode(
        source: String, tallies: [ReceiptTally], dropped: ReceiptDrops = ReceiptDrops(), day: ReceiptDay,
        using generator: inout some RandomNumberGenerator
    ) -> ReceiptBody {
        let batchID = randomID(using: &generator)
        var records = tallies.sorted(by: Self.order).map { tally in
            var attributes: [OTLP.KeyValue] = [
                .init("receipt.id", .string(randomID(using: &generator))),
                .init("notify_sched.entry.id", .string(tally.entryID)),
                .init("notify_sched.day", .string(tally.day.description)),
            ]
            if let version = tally.feedVersion { attributes.append(.init("notify_sched.feed.version", .int(version))) }
            for (counter, count) in tally.counts.sorted(by: { $0.key < $1.key }) {
                attributes.append(.init("notify_sched.count.\(counter)", .int(Int64(count))))
            }
            return OTLP.LogRecord(timeUnixNano: tally.day.start, eventName: eventName, attributes: attributes)
        }
        if dropped.receipts > 0 {
            records.append(
                OTLP.LogRecord(
                    timeUnixNano: day.start, eventName: droppedEventName,
                    attributes: [
                        .init("receipt.id", .string(randomID(using: &generator))),
                        .init("notify_sched.dropped.receipts", .int(Int64(dropped.receipts))),
                        .init("notify_sched.dropped.count", .int(Int64(dropped.count))),
                    ]))
        }
        let request = OTLP.ExportLogsServiceRequest(resourceLogs: [
            OTLP.ResourceLogs(
                resource: OTLP.Resource(attributes: [
                    .init("service.name", .string("notify-sched")),
                    .init("service.version", .string(ProductVersion.current)),
                    .init("notify_sched.source", .string(sourceName(source))),
                    .init("notify_sched.batch.id", .string(batchID)),
                ]),
                scopeLogs: [
                    OTLP.ScopeLogs(
                        scope: OTLP.Scope(name: "notify-sched", version: ProductVersion.current), logRecords: records)
                ])
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structures of strings and integers cannot fail.
        let data = (try? encoder.encode(request)) ?? Data()
        return ReceiptBody(batchID: batchID, json: String(decoding: data, as: UTF8.self), recordCount: records.count)
    }

    /// What a body says of the feed at `location`: an `http(s)` URL without a user name or
    /// password, or only a file's name (its folder may name the user).
    public static func sourceName(_ location: String) -> String {
        guard SourceLocation.isURL(location), let url = SourceLocation.normalizedURL(location),
            let schemeEnd = url.range(of: "://")
        else { return String(location.split(separator: "/").last ?? "") }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound]) + rest[rest.index(after: at)...]
    }

    /// 32 hex digits: 128 random bits.
    static func randomID(using generator: inout some RandomNumberGenerator) -> String {
        let high = String(generator.next(), radix: 16)
        let low = String(generator.next(), radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high + String(repeating: "0", count: 16 - low.count)
            + low
    }

    /// Tallies in the order a body lists them: by day, entry id, then feed version.
    private static func order(_ lhs: ReceiptTally, _ rhs: ReceiptTally) -> Bool {
        (lhs.day, lhs.entryID, lhs.feedVersion ?? -1) < (rhs.day, rhs.entryID, rhs.feedVersion ?? -1)
    }
}

/// What the bounded receipt queue dropped (docs/receipts.md "When it is sent"): said in the next body.
public struct ReceiptDrops: Sendable, Equatable {
    /// How many tallies (an entry's counts of one day) were dropped.
    public var receipts: Int
    /// The sum of their counts.
    public var count: Int

    public init(receipts: Int = 0, count: Int = 0) {
        self.receipts = receipts
        self.count = count
    }
}

/// The parts of the OTLP logs JSON mapping (opentelemetry-proto, `logs/v1`) a receipt uses.
enum OTLP {
    struct ExportLogsServiceRequest: Encodable {
        var resourceLogs: [ResourceLogs]
    }

    struct ResourceLogs: Encodable {
        var resource: Resource
        var scopeLogs: [ScopeLogs]
    }

    struct Resource: Encodable {
        var attributes: [KeyValue]
    }

    struct ScopeLogs: Encodable {
        var scope: Scope
        var logRecords: [LogRecord]
    }

    struct Scope: Encodable {
        var name: String
        var version: String
    }

    struct LogRecord: Encodable {
        /// Nanoseconds since the epoch, a decimal string as the JSON mapping writes 64-bit integers.
        var timeUnixNano: String
        var severityNumber = 9
        var severityText = "INFO"
        var eventName: String
        var attributes: [KeyValue]

        init(timeUnixNano: Instant, eventName: String, attributes: [KeyValue]) {
            self.timeUnixNano = String(timeUnixNano.microseconds * 1000)
            self.eventName = eventName
            self.attributes = attributes
        }
    }

    struct KeyValue: Encodable {
        var key: String
        var value: AnyValue

        init(_ key: String, _ value: AnyValue) {
            self.key = key
            self.value = value
        }
    }

    enum AnyValue: Encodable {
        case string(String)
        case int(Int64)

        private enum CodingKeys: String, CodingKey {
            case stringValue, intValue
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .string(let text): try container.encode(text, forKey: .stringValue)
            case .int(let number): try container.encode(String(number), forKey: .intValue)
            }
        }
    }
}
