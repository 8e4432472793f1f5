import NotifySchedCore
import Testing

/// Documents written to crash, hang or exhaust a reader. Every one must end in a clean
/// `CoreError` (or a normal read), quickly; a trap would end the test run.
@Suite struct HostileFeedTests {
    /// Generous even for a debug build on a busy machine; release builds take milliseconds.
    static let timeLimit = 2.0

    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var code: CoreError.Code
        var limits = FeedReadLimits()
        var description: String { name }
    }

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE plist [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
        ]>
        <plist version="1.0"><string>&lol9;</string></plist>
        """

    /// Arrays that each reference the next one twice: 2^64 values in 299 bytes.
    static let exponentialDAG: [UInt8] = {
        var builder = BinaryPlistBuilder()
        builder.offsetSize = 1
        let levels = 64
        for level in 0..<levels {
            builder.add(builder.array([level + 1, level + 1]))
        }
        builder.add([0x10, 0x01])
        return builder.build()
    }()

    static let cases: [Case] = {
        var cases: [Case] = []
        func add(_ name: String, _ bytes: [UInt8], _ code: CoreError.Code, limits: FeedReadLimits = FeedReadLimits()) {
            cases.append(Case(name: name, bytes: bytes, code: code, limits: limits))
        }
        func add(_ name: String, _ text: String, _ code: CoreError.Code, limits: FeedReadLimits = FeedReadLimits()) {
            add(name, Array(text.utf8), code, limits: limits)
        }
        add("billion laughs", billionLaughs, .forbiddenMarkup)
        add(
            "external entity",
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n"
                + "<plist><string>&xxe;</string></plist>", .forbiddenMarkup)
        add("empty internal subset", "<!DOCTYPE plist []><plist><true/></plist>", .forbiddenMarkup)
        add(
            "internal subset before invalid UTF-8",
            Array("<!DOCTYPE plist [ <!ENTITY a \"b\"> ]>".utf8) + [0xFF, 0xFE] + Array("<plist/>".utf8),
            .forbiddenMarkup)
        add(
            "internal subset of another document type", "<!DOCTYPE lolz [<!ENTITY lol \"lol\">]><lolz/>",
            .forbiddenMarkup)
        add("undeclared entity reference", "<plist><string>&xxe;</string></plist>", .forbiddenMarkup)
        add("entity reference in an attribute", "<plist version=\"&xxe;\"><true/></plist>", .forbiddenMarkup)
        add(
            "bare entity declaration", "<!ENTITY x SYSTEM \"file:///etc/passwd\"><plist><true/></plist>",
            .forbiddenMarkup)
        add(
            "73-byte plist with 0xFF in <integer>",
            Array("<?xml version=\"1.0\"?><plist><integer>".utf8) + [UInt8](repeating: 0xFF, count: 18)
                + Array("</integer></plist>".utf8), .invalidUTF8)
        add(
            "73-byte plist with 0xFF in <real>",
            Array("<?xml version=\"1.0\"?><plist><real>".utf8) + [UInt8](repeating: 0xFF, count: 24)
                + Array("</real></plist>".utf8), .invalidUTF8)
        add(
            "integer of digits beyond 64 bits",
            "<plist><integer>\(String(repeating: "9", count: 5000))</integer></plist>", .syntax)
        add(
            "100 000-deep JSON arrays", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),
            .limitExceeded)
        add(
            "100 000-deep JSON objects",
            String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000), .limitExceeded)
        add("100 000-deep unclosed JSON", String(repeating: "[", count: 100_000), .limitExceeded)
        add(
            "100 000-deep XML arrays",
            "<plist>" + String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)
                + "</plist>",
            .limitExceeded)
        add(
            "100 000-deep XML dictionaries",
            "<plist>" + String(repeating: "<dict><key>a</key>", count: 100_000) + "<true/>"
                + String(repeating: "</dict>", count: 100_000) + "</plist>", .limitExceeded)
        add("299-byte exponential DAG binary plist", exponentialDAG, .limitExceeded)
        add(
            "binary plist reference cycle",
            {
                var builder = BinaryPlistBuilder()
                builder.add(builder.array([1]))
                builder.add(builder.array([0, 0]))
                return builder.build()
            }(), .syntax)
        add(
            "10 000-deep binary plist chain",
            {
                var builder = BinaryPlistBuilder()
                builder.referenceSize = 2
                for level in 0..<10_000 { builder.add(builder.array([level + 1])) }
                builder.add([0x09])
                return builder.build()
            }(), .limitExceeded)
        add(
            "binary string length of 2^62",
            BinaryPropertyListReaderTests.single([0x5F, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]), .syntax)
        add(
            "binary array length of 2^63-1",
            BinaryPropertyListReaderTests.single([0xAF, 0x13, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]), .syntax)
        add(
            "binary object count of 2^64-1",
            {
                var file = BinaryPropertyListReaderTests.single([0x09])
                for index in (file.count - 24)..<(file.count - 16) { file[index] = 0xFF }
                return file
            }(), .syntax)
        add("binary lone surrogate", BinaryPropertyListReaderTests.single(BinaryPlistBuilder.utf16([0xDBFF])), .syntax)
        add("JSON lone surrogate", #"["\udead"]"#, .syntax)
        add("JSON invalid UTF-8", Array("[\"".utf8) + [0xED, 0xA0, 0x80] + Array("\"]".utf8), .invalidUTF8)
        add("JSON overlong UTF-8", Array("[\"".utf8) + [0xC0, 0xAF] + Array("\"]".utf8), .invalidUTF8)
        add("JSON truncated UTF-8", Array("[\"".utf8) + [0xF0, 0x9F, 0x98], .invalidUTF8)
        add(
            "XML invalid UTF-8",
            Array("<plist><string>".utf8) + [0xF5, 0x80, 0x80, 0x80] + Array("</string></plist>".utf8), .invalidUTF8)
        add("XML invalid base64", "<plist><data>not*base64</data></plist>", .syntax)
        add("XML impossible date", "<plist><date>2026-02-30T25:61:00Z</date></plist>", .syntax)
        add("XML text after </plist>", "<plist><true/></plist>\nrm -rf /", .syntax)
        add("OpenStep dictionary", "{ Title = \"Hello\"; Message = \"World\"; }", .unknownFormat)
        add("OpenStep array", "( \"one\", \"two\" )", .unknownFormat)
        add("JSON number with a huge exponent", "[1e99999999999999999999]", .syntax)
        add("unclosed XML comment", "<plist><!--" + String(repeating: "-", count: 200_000), .syntax)
        add("unclosed CDATA", "<plist><string><![CDATA[" + String(repeating: "]", count: 200_000), .syntax)
        add(
            "oversized document", [UInt8](repeating: 0x20, count: 101), .tooLarge, limits: FeedReadLimits(maxBytes: 100)
        )
        add(
            "too many JSON values", "[" + Array(repeating: "0", count: 20_000).joined(separator: ",") + "]",
            .limitExceeded,
            limits: FeedReadLimits(maxNodes: 10_000))
        add(
            "too many XML values", "<plist><array>" + String(repeating: "<true/>", count: 20_000) + "</array></plist>",
            .limitExceeded, limits: FeedReadLimits(maxNodes: 10_000))
        add("2 MiB JSON string", "[\"" + String(repeating: "x", count: 2 << 20) + "\"]", .limitExceeded)
        add(
            "2 MiB XML string", "<plist><string>" + String(repeating: "x", count: 2 << 20) + "</string></plist>",
            .limitExceeded)
        add("UTF-16 XML plist", [0xFF, 0xFE] + Array("<plist>".utf8).flatMap { [$0, 0] }, .unknownFormat)
        return cases
    }()

    @Test(arguments: cases)
    func hostileDocumentIsRefusedCleanlyAndQuickly(_ hostile: Case) {
        var error: CoreError?
        let elapsed = seconds { error = readError(hostile.bytes, limits: hostile.limits) }
        #expect(
            error?.code == hostile.code,
            "\(hostile.name) should be refused with \(hostile.code): \(String(describing: error))")
        #expect(elapsed < Self.timeLimit, "\(hostile.name) took \(elapsed) s")
    }

    @Test func aHugeValueIsEchoedCutShortInItsError() {
        let value = "2026-01-01T00:00:00." + String(repeating: "1", count: 100_000) + "Z"
        let result = parse(#"{"notifications": [{"id": "a", "title": "A", "fireDate": "\#(value)"}]}"#)
        let message = errors(result).first ?? ""
        #expect(message.hasSuffix(#"\#(value.prefix(80))…" (100021 characters)"#), "\(message.prefix(300))")
        #expect(message.count < 300)
    }

    @Test func exponentialDAGIsThe299BytesSafetyFactsDescribe() {
        #expect(Self.exponentialDAG.count == 299)
    }

    @Test func externalDTDIsNeverFetched() throws {
        // The core does no I/O; the DOCTYPE's system identifier is read and ignored.
        let text = "<!DOCTYPE plist SYSTEM \"http://127.0.0.1:9/evil.dtd\"><plist><string>ok</string></plist>"
        #expect(try readFeed(text).root.value == .string("ok"))
    }

    static let validDocuments: [(String, [UInt8])] = [
        (
            "json",
            Array(
                #"{"notifications": [{"id": "a\u00e9", "count": 3, "ratio": -1.5e3, "on": true, "x": null}], "b": []}"#
                    .utf8)
        ),
        ("xml", Array(PlistFixtures.everyTypeXML.utf8)),
        ("binary", PlistFixtures.everyTypeBinary),
    ]

    @Test func everyTruncationReadsOrFailsCleanly() {
        for (name, document) in Self.validDocuments {
            var refused = 0
            let elapsed = seconds {
                for length in 0..<document.count where readError(Array(document.prefix(length))) != nil {
                    refused += 1
                }
            }
            #expect(refused >= document.count - 2, "almost every proper prefix of the \(name) document is incomplete")
            #expect(elapsed < Self.timeLimit * 5, "the \(name) prefixes took \(elapsed) s")
        }
    }

    @Test func thousandsOfRandomMutationsReadOrFailCleanly() {
        let interesting: [UInt8] = [
            0x00, 0x0F, 0x10, 0x1F, 0x5F, 0x7F, 0x80, 0xAF, 0xDF, 0xFF, 0x22, 0x26, 0x3C, 0x5B, 0x7B, 0x5C,
        ]
        for (name, document) in Self.validDocuments {
            var generator = SplitMix64(seed: 0x5EED_0000 + UInt64(document.count))
            var outcomes = [0, 0]
            let elapsed = seconds {
                for _ in 0..<3000 {
                    var mutated = document
                    for _ in 0..<Int.random(in: 1...4, using: &generator) {
                        let position = Int.random(in: 0..<mutated.count, using: &generator)
                        switch Int.random(in: 0..<4, using: &generator) {
                        case 0: mutated[position] = UInt8.random(in: 0...255, using: &generator)
                        case 1: mutated[position] = interesting.randomElement(using: &generator) ?? 0
                        case 2: mutated[position] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                        default:
                            let end = min(mutated.count, position + Int.random(in: 1...8, using: &generator))
                            if Bool.random(using: &generator) {
                                mutated.removeSubrange(position..<end)
                            } else {
                                mutated.insert(contentsOf: mutated[position..<end], at: position)
                            }
                        }
                        if mutated.isEmpty { mutated = [0x7B] }
                    }
                    outcomes[readError(mutated) == nil ? 0 : 1] += 1
                }
            }
            #expect(outcomes[1] > 0, "most mutations of the \(name) document break it")
            #expect(elapsed < Self.timeLimit * 5, "3000 mutations of the \(name) document took \(elapsed) s")
        }
    }

    @Test func binaryTrailerMutationsReadOrFailCleanly() {
        var generator = SplitMix64(seed: 42)
        let document = PlistFixtures.everyTypeBinary
        for _ in 0..<3000 {
            var mutated = document
            let position = document.count - Int.random(in: 1...(32 + 60), using: &generator)
            mutated[position] = UInt8.random(in: 0...255, using: &generator)
            _ = readError(mutated)
        }
    }

    @Test func wideObjectsAreNotQuadratic() {
        let members = (0..<20_000).map { "\"key\($0)\": \($0)" }.joined(separator: ",")
        var error: CoreError?
        let elapsed = seconds { error = readError("{\(members)}") }
        #expect(error == nil)
        #expect(elapsed < Self.timeLimit, "20 000 keys took \(elapsed) s")
    }
}
