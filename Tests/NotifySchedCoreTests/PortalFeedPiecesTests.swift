import NotifySchedCore
import NotifySchedPlatform
import Testing

/// A big portal feed is mapped in pieces, side by side on worker threads. What it maps to must
/// not depend on that: checked against a model of each generated entry (valid or not, its id),
/// with duplicate ids and broken entries on both sides of the pieces' borders.
@Suite struct PortalFeedPiecesTests {
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

        /// Whether the element maps to an entry when its id is its own.
        var isValid: Bool { kind == .valid || kind == .zbim }
        /// Whether the element takes its id, so that a later twin is reported (even when it has errors).
        var takesID: Bool { kind != .missingID && kind != .notADictionary }
    }

    @Test(arguments: 0..<UInt64(3))
    func piecesMappedSideBySideGiveWhatTheModelOfEachEntrySays(seed: UInt64) throws {
        var random = SplitMix64(seed: 0x91EC_E500 + seed)
        // Three pieces and a part: twins and errors fall on both sides of every border.
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
            // Some ids repeat one given earlier, often in an earlier piece.
            let reused = index > 0 && Int.random(in: 0..<50, using: &random) == 0
            let id = reused ? elements[Int.random(in: 0..<index, using: &random)].id : "e\(index)"
            elements.append(Element(kind: kind, id: id))
        }
        let text = #"{"version": 1, "notifications": ["# + elements.map(\.json).joined(separator: ",\n") + "]}"

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

        let serial = FeedParser(zones: systemZones).parse(Array(text.utf8), source: "pieces")
        let sideBySide = FeedParser(zones: systemZones, parallelWork: WorkerThreads()).parse(
            Array(text.utf8), source: "pieces")
        for result in [serial, sideBySide] {
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
        // Both list every problem in document order, the same way.
        #expect(Self.firstDifference(serial.diagnostics, sideBySide.diagnostics) == nil, "seed \(seed)")
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

    /// Where two long lists first differ, in words; nil when they are equal.
    private static func firstDifference<Element: Equatable>(_ found: [Element], _ expected: [Element]) -> String? {
        guard let index = zip(found, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
        else {
            return found.count == expected.count ? nil : "\(found.count) found, \(expected.count) expected"
        }
        return "at \(index): \(found[index]) found, \(expected[index]) expected"
    }
}
