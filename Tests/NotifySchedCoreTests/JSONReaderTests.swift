import NotifySchedCore
import Testing

@Suite struct JSONReaderTests {
    @Test func readsEveryValueTypeWithLines() throws {
        let document = try readFeed(
            """
            {
              "string": "hi",
              "integer": -42,
              "real": 2.5e3,
              "yes": true,
              "no": false,
              "nothing": null,
              "array": [1, [], {}],
              "object": {"nested": "x"}
            }
            """)
        #expect(document.format == .json)
        let expected = FeedNode(
            .dictionary(
                FeedDictionary([
                    ("string", FeedNode(.string("hi"), line: 2)),
                    ("integer", FeedNode(.integer(-42), line: 3)),
                    ("real", FeedNode(.real(2500), line: 4)),
                    ("yes", FeedNode(.bool(true), line: 5)),
                    ("no", FeedNode(.bool(false), line: 6)),
                    ("nothing", FeedNode(.null, line: 7)),
                    (
                        "array",
                        FeedNode(
                            .array([
                                FeedNode(.integer(1), line: 8), FeedNode(.array([]), line: 8),
                                FeedNode(.dictionary(FeedDictionary()), line: 8),
                            ]), line: 8)
                    ),
                    (
                        "object",
                        FeedNode(.dictionary(FeedDictionary([("nested", FeedNode(.string("x"), line: 9))])), line: 9)
                    ),
                ])),
            line: 1)
        #expect(document.root == expected)
    }

    @Test func keepsKeysInDocumentOrder() throws {
        let root = try readFeed(#"{"b": 1, "a": 2, "c": 3}"#).root
        guard case .dictionary(let dictionary) = root.value else {
            Issue.record("the root should be a dictionary")
            return
        }
        #expect(dictionary.keys == ["b", "a", "c"])
    }

    @Test func decodesEveryEscapeIncludingSurrogatePairs() throws {
        let root = try readFeed(#"["\"\\\/\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "caf\u00E9 ok", "\u0000"]"#).root
        let strings: [FeedValue] = ["\"\\/\u{8}\u{C}\n\r\t", "é€", "😀", "café ok", "\u{0}"].map { .string($0) }
        #expect(root.withoutLines == FeedNode(.array(strings.map { FeedNode($0) })))
    }

    @Test func keepsIntegersExactAndMakesOtherNumbersReal() throws {
        let root = try readFeed(
            "[0, -0, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0, 1e2, -0.5, 1E-400]"
        ).root
        let values: [FeedValue] = [
            .integer(0), .integer(0), .integer(.max), .integer(.min), .real(9_223_372_036_854_775_808), .real(1),
            .real(100), .real(-0.5), .real(0),
        ]
        #expect(root.withoutLines == FeedNode(.array(values.map { FeedNode($0) })))
    }

    @Test func refusesNumbersOutsideTheDoubleRange() {
        for number in ["1e400", "-1e999", "123456789e999999999999"] {
            let error = readError("[\(number)]")
            #expect(error?.code == .syntax, "\(number) is out of range")
            #expect(error?.location.keyPath == "[0]")
        }
    }

    @Test func refusesEverythingRFC8259DoesNotAllow() {
        let invalid = [
            "[1,]", #"{"a": 1,}"#, "[01]", "[+1]", "[.5]", "[1.]", "[1e]", "[NaN]", "[Infinity]", "['a']",
            "[1] // comment", "[1, /* c */ 2]", "[1] [2]", "{a: 1}", "[\"tab\tinside\"]", "[\"line\nbreak\"]",
            #"["\x41"]"#, #"["\u12"]"#, "[tru]", "[nul]", "[1 2]", #"{"a" 1}"#, "[", "{", #"{"a":"#, #"["abc"#,
        ]
        for text in invalid {
            #expect(readError(text)?.code == .syntax, "\(text.debugDescription) is not RFC 8259 JSON")
        }
    }

    @Test func refusesLoneSurrogates() {
        for text in [#"["\ud800"]"#, #"["\udc00"]"#, #"["\ud800\u0041"]"#, #"["\ud800x"]"#] {
            let error = readError(text)
            #expect(error?.code == .syntax)
            #expect(error?.message.contains("surrogate") == true, "the message should say what is wrong")
        }
    }

    @Test func refusesInvalidUTF8WithItsLine() {
        let bytes = Array("{\n\"a\": \"ok\",\n\"b\": \"".utf8) + [0xC3, 0x28] + Array("\"\n}".utf8)
        let error = readError(bytes)
        #expect(error?.code == .invalidUTF8)
        #expect(error?.location.line == 3)
    }

    @Test func namesTheDuplicateKeyItsLineAndItsPath() {
        let error = readError(
            """
            {"notifications": [
              {"id": "a"},
              {"id": "b",
               "title": "one",
               "title": "two"}
            ]}
            """)
        #expect(error?.code == .duplicateKey)
        #expect(error?.location == FeedLocation(keyPath: "notifications[1].title", line: 5))
        #expect(error?.message.contains("\"title\"") == true, "the message names the key")
        #expect(error?.message.contains("line 4") == true, "the message says where the key first appeared")
    }

    @Test func findsDuplicatesInLargeObjects() {
        let members = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        #expect(readError("{\(members), \"k57\": 0}")?.code == .duplicateKey)
        #expect(readError("{\(members)}") == nil)
    }

    @Test func reportsTheKeyPathAndLineOfAnError() {
        let error = readError(
            """
            {"notifications": [
              {"id": "a"}, {"id": "b"}, {"id": "c"},
              {"id": "d",
               "fireDate": 1e999}
            ]}
            """)
        #expect(error?.location == FeedLocation(keyPath: "notifications[3].fireDate", line: 4))
        #expect(error?.description.hasPrefix("line 4: notifications[3].fireDate: ") == true)
    }

    @Test func quotesKeysThatAreNotIdentifiers() {
        let error = readError(#"{"a key": {"x.y": [tru]}}"#)
        #expect(error?.location.keyPath == #"["a key"]["x.y"][0]"#)
    }

    @Test func refusesTextAfterTheValue() {
        #expect(readError("{} x")?.code == .syntax)
        #expect(readError("{}\n \t") == nil)
    }

    @Test func acceptsAByteOrderMark() throws {
        #expect(
            try FeedDocument.read([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)).root.withoutLines
                == FeedNode(.array([FeedNode(.integer(1))])))
    }

    @Test func enforcesDepthNodeAndStringLimits() {
        #expect(readError("[[[1]]]", limits: FeedReadLimits(maxDepth: 2))?.code == .limitExceeded)
        #expect(readError("[[[1]]]", limits: FeedReadLimits(maxDepth: 3)) == nil)
        #expect(readError("[1, 2, 3]", limits: FeedReadLimits(maxNodes: 3))?.code == .limitExceeded)
        #expect(readError("[1, 2, 3]", limits: FeedReadLimits(maxNodes: 4)) == nil)
        #expect(readError(#"["12345"]"#, limits: FeedReadLimits(maxStringBytes: 4))?.code == .limitExceeded)
        #expect(readError(#"{"12345": 1}"#, limits: FeedReadLimits(maxStringBytes: 4))?.code == .limitExceeded)
        #expect(readError(#"["1234"]"#, limits: FeedReadLimits(maxStringBytes: 4)) == nil)
    }

    @Test func capsTheDepthLimitToKeepTheStackSafe() {
        let deep = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(readError(deep, limits: FeedReadLimits(maxDepth: 1_000_000)) == nil)
        let deeper = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(readError(deeper, limits: FeedReadLimits(maxDepth: 1_000_000))?.code == .limitExceeded)
    }
}
