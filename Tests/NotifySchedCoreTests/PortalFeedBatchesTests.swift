import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

/// A big portal feed is mapped in batches, side by side on worker threads and, in JSON, while
/// the rest of the document is read. What it maps to must not depend on that: checked against
/// a model of each generated entry (valid or not, its id), with duplicate ids and broken
/// entries on both sides of the batches' borders, in JSON and in an XML plist.
@Suite struct PortalFeedBatchesTests {
    /// One generated element of `notifications`.
    private struct Element {
        enum Kind { case valid, badDate, badURL, missingID, notADictionary, zbim }
        var kind: Kind
        var id: String

        var json: String {
            switch kind {
            case .valid:
                #"{"id": "\#(id)", "title": "T \#(id)", "fireDate": "2031-02-03T04:05:06Z", "action": "https://example.org/\#(id)"}"#
            case .badDate:
                #"{"id": "\#(id)", "title": "T", "fireDate": "someday"}"#
            case .badURL:
                #"{"id": "\#(id)", "title": "T", "fireDate": "2031-02-03T04:05:06Z", "action": "javascript:alert(1)"}"#
            case .missingID:
                #"{"title": "no id", "fireDate": "2031-02-03T04:05:06Z"}"#
            case .notADictionary:
                #""just text""#
            case .zbim:
                #"{"uuid": "\#(id)", "uri": "https://example.org/z", "year": 2031, "month": 2, "day": 3, "hour": 4, "minute": 5}"#
            }
        }

        var xml: String {
            func dictionary(_ members: [(String, String)]) -> String {
                "<dict>" + members.map { "<key>\($0.0)</key>\($0.1)" }.joined() + "</dict>\n"
            }
            let date = "<string>2031-02-03T04:05:06Z</string>"
            switch kind {
            case .valid:
                return dictionary([
                    ("id", "<string>\(id)</string>"), ("title", "<string>T \(id)</string>"), ("fireDate", date),
                    ("action", "<string>https://example.org/\(id)</string>"),
                ])
            case .badDate:
                return dictionary([
                    ("id", "<string>\(id)</string>"), ("title", "<string>T</string>"),
                    ("fireDate", "<string>someday</string>"),
                ])
            case .badURL:
                return dictionary([
                    ("id", "<string>\(id)</string>"), ("title", "<string>T</string>"), ("fireDate", date),
                    ("action", "<string>javascript:alert(1)</string>"),
                ])
            case .missingID:
                return dictionary([("title", "<string>no id</string>"), ("fireDate", date)])
            case .notADictionary:
                return "<string>just text</string>\n"
            case .zbim:
                return dictionary(
                    [("uuid", "<string>\(id)</string>"), ("uri", "<string>https://example.org/z</string>")]
                        + [("year", 2031), ("month", 2), ("day", 3), ("hour", 4), ("minute", 5)].map {
                            ($0.0, "<integer>\($0.1)</integer>")
                        })
            }
        }

        /// Whether the element maps to an entry when its id is its own.
        var isValid: Bool { kind == .valid || kind == .zbim }
        /// Whether the element takes its id, so that a later twin is reported (even when it has errors).
        var takesID: Bool { kind != .missingID && kind != .notADictionary }
    }

    @Test(.computeThreads, arguments: 0..<UInt64(3))
    func batchesMappedSideBySideGiveWhatTheModelOfEachEntrySays(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x91EC_E500 + seed)
        // Three batches and a part: twins and errors fall on both sides of every border.
        let count = 3 * 8192 + Int.random(in: 1...500, using: &random)
        var elements: [Element] = []
        for index in 0..<count {
            let kind: Element.Kind =
                switch Int.random(in: 0..<100, using: &random) {
                case 0: .badDate
                case 1: .badURL
                case 2: .missingID
                case 3: .notADictionary
                case 4...6: .zbim
                default: .valid
                }
            // Some ids repeat one given earlier, often in an earlier batch.
            let reused = index > 0 && Int.random(in: 0..<50, using: &random) == 0
            let id = reused ? elements[Int.random(in: 0..<index, using: &random)].id : "e\(index)"
            elements.append(Element(kind: kind, id: id))
        }
        let json = #"{"version": 1, "notifications": ["# + elements.map(\.json).joined(separator: ",\n") + "]}"
        let plist =
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>version</key><integer>1</integer>"#
            + "<key>notifications</key><array>\n" + elements.map(\.xml).joined() + "</array></dict></plist>\n"

        // The model: which elements become entries, and which are reported as twins of which.
        var firstWithID: [String: Int] = [:]
        var expectedIDs: [String] = []
        var expectedTwins: [String] = []
        for (index, element) in elements.enumerated() {
            // A ZBiM row's id is its `uuid`, a native entry's its `id`: they share one namespace.
            var isTwin = false
            if element.takesID {
                if let first = firstWithID[element.id] {
                    isTwin = true
                    let key = element.kind == .zbim ? "uuid" : "id"
                    expectedTwins.append(
                        "notifications[\(index)]: \(key) \"\(element.id)\" is already used by notifications[\(first)]")
                } else {
                    firstWithID[element.id] = index
                }
            }
            if element.isValid, !isTwin { expectedIDs.append(element.id) }
        }

        let serial = FeedParser(zones: systemZones).parse(Array(json.utf8), source: "batches")
        let sideBySide = FeedParser(zones: systemZones, parallelWork: WorkerThreads()).parse(
            Array(json.utf8), source: "batches")
        let fromPlist = FeedParser(zones: systemZones, parallelWork: WorkerThreads()).parse(
            Array(plist.utf8), source: "batches")
        for result in [serial, sideBySide, fromPlist] {
            let schedule = try #require(result.schedule)
            #expect(Self.firstDifference(schedule.entries.map(\.id), expectedIDs) == nil, "seed \(seed)")
            #expect(schedule.dialect == .native)
            let twins = result.diagnostics.filter { $0.error.code == .duplicateID }.map {
                "\($0.error.location.keyPath): \($0.error.message)"
            }
            #expect(Self.firstDifference(twins, expectedTwins) == nil, "seed \(seed)")
            let broken = elements.count { !$0.isValid }
            #expect(errors(result).count - twins.count == broken, "seed \(seed)")
        }
        // Both list every problem in document order, the same way; the plist's at the same
        // key paths (its lines are its own).
        #expect(Self.firstDifference(serial.diagnostics, sideBySide.diagnostics) == nil, "seed \(seed)")
        #expect(
            Self.firstDifference(
                serial.diagnostics.map { "\($0.error.location.keyPath) \($0.error.code)" },
                fromPlist.diagnostics.map { "\($0.error.location.keyPath) \($0.error.code)" }) == nil,
            "seed \(seed)")
        let positions = serial.diagnostics.compactMap { diagnostic in
            diagnostic.error.location.keyPath.split(separator: "[").dropFirst().first.flatMap {
                Int($0.prefix { $0 != "]" })
            }
        }
        #expect(positions == positions.sorted(), "seed \(seed)")
        let entries = try #require(serial.schedule?.entries)
        let otherEntries = try #require(sideBySide.schedule?.entries)
        #expect(zip(entries, otherEntries).allSatisfy { $0.hasSameMeaning(as: $1) })
    }

    /// A JSON feed read while its entries are mapped can still turn out broken after batches
    /// were handed over: the feed is then one error, as any unreadable document is.
    @Test func aFeedBrokenAfterItsFirstBatchesIsOneErrorAndNoSchedule() {
        let entries = (0..<20_000).map { #"{"id": "e\#($0)", "title": "T", "fireDate": "2031-02-03T04:05:06Z"}"# }
        let broken = #"{"notifications": ["# + entries.joined(separator: ",\n") + ", oops]}"
        let result = FeedParser(zones: systemZones, parallelWork: WorkerThreads()).parse(
            Array(broken.utf8), source: "broken")
        #expect(result.schedule == nil)
        #expect(result.diagnostics.map(\.error.code) == [.syntax])
        #expect(result.diagnostics.first?.error.location.keyPath == "notifications[20000]")
    }

    /// Where two long lists first differ, in words; nil when they are equal.
    private static func firstDifference<Element: Equatable>(_ found: [Element], _ expected: [Element]) -> String? {
        guard let index = zip(found, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        else {
            return found.count == expected.count ? nil : "\(found.count) found, \(expected.count) expected"
        }
        return "at \(index): \(found[index]) found, \(expected[index]) expected"
    }
}
