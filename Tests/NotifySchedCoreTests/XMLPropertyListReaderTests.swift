import NotifySchedCore
import Testing

@Suite struct XMLPropertyListReaderTests {
    /// `body` inside the header Apple's and Python's writers emit.
    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>
        """
    }

    static let everyTypeValue: FeedNode = {
        let entries: [(String, FeedValue)] = [
            ("string", .string("hello")),
            ("unicode", .string("héllo – 😀")),
            ("emptyString", .string("")),
            ("int8", .integer(7)),
            ("int16", .integer(300)),
            ("int32", .integer(70000)),
            ("int64", .integer(1 << 40)),
            ("negative", .integer(-5)),
            ("min", .integer(.min)),
            ("max", .integer(.max)),
            ("real", .real(1.5)),
            ("yes", .bool(true)),
            ("no", .bool(false)),
            ("date", .date(Instant(secondsSinceEpoch: 1_774_747_800))),
            ("data", .data([0x00, 0x01, 0xFE, 0xFF])),
            (
                "array",
                .array([FeedNode(.integer(1)), FeedNode(.string("two")), FeedNode(.array([FeedNode(.integer(3))]))])
            ),
            ("dict", .dictionary(FeedDictionary([("nested", FeedNode(.string("yes")))]))),
            ("emptyArray", .array([])),
            ("emptyDict", .dictionary(FeedDictionary())),
        ]
        return FeedNode(.dictionary(FeedDictionary(entries.map { ($0.0, FeedNode($0.1)) })))
    }()

    @Test func readsEveryValueTypeAsPlistlibWritesIt() throws {
        let document = try readFeed(PlistFixtures.everyTypeXML)
        #expect(document.format == .xmlPropertyList)
        #expect(document.root.withoutLines == Self.everyTypeValue)
    }

    @Test func givesEachValueItsLine() throws {
        let root = try readFeed(
            Self.plist("<dict>\n<key>a</key>\n<integer>1</integer>\n<key>b</key><array>\n<true/>\n</array>\n</dict>")
        ).root
        let expected = FeedNode(
            .dictionary(
                FeedDictionary([
                    ("a", FeedNode(.integer(1), line: 6)),
                    ("b", FeedNode(.array([FeedNode(.bool(true), line: 8)]), line: 7)),
                ])), line: 4)
        #expect(root == expected)
    }

    @Test func decodesTextInsideStrings() throws {
        let root = try readFeed(
            Self.plist(
                "<array><string>a&lt;b&gt;c&amp;d&apos;e&quot;f&#65;&#x1F600;</string>"
                    + "<string><![CDATA[<not> & markup]]> and <!-- gone --> text<?pi x?>!</string>"
                    + "<string>one\r\ntwo\rthree</string><string/></array>")
        ).root
        let expected: [FeedValue] = [
            .string("a<b>c&d'e\"fA😀"), .string("<not> & markup and  text!"), .string("one\ntwo\nthree"), .string(""),
        ]
        #expect(root.withoutLines == FeedNode(.array(expected.map { FeedNode($0) })))
    }

    @Test func readsIntegersInDecimalAndHexadecimal() throws {
        let root = try readFeed(
            Self.plist(
                "<array><integer> 42 </integer><integer>-0x10</integer><integer>+7</integer>"
                    + "<integer>0xFFFFFFFFFFFFFFF</integer><integer>-9223372036854775808</integer></array>")
        ).root
        let expected: [FeedValue] = [
            .integer(42), .integer(-16), .integer(7), .integer(0xFFF_FFFF_FFFF_FFFF), .integer(.min),
        ]
        #expect(root.withoutLines == FeedNode(.array(expected.map { FeedNode($0) })))
    }

    @Test func refusesIntegersThatAreMalformedOrTooLarge() {
        for text in ["9223372036854775808", "0xFFFFFFFFFFFFFFFF", "1.5", "", "0x", "--1", "12abc", "1 2", "٣"] {
            let error = readError(Self.plist("<integer>\(text)</integer>"))
            #expect(error?.code == .syntax, "<integer>\(text)</integer> is not a 64-bit integer")
        }
    }

    @Test func refusesRealsThatAreNotFiniteNumbers() throws {
        #expect(try readFeed(Self.plist("<real>-1.25e2</real>")).root.value == .real(-125))
        #expect(try readFeed(Self.plist("<real>.5</real>")).root.value == .real(0.5))
        for text in ["nan", "inf", "-infinity", "1e999", "0x1p3", "", "1.2.3", "e5"] {
            #expect(
                readError(Self.plist("<real>\(text)</real>"))?.code == .syntax, "<real>\(text)</real> is not finite")
        }
    }

    @Test func refusesImpossibleDatesInsteadOfRollingThemOver() throws {
        #expect(
            try readFeed(Self.plist("<date>2024-02-29T23:59:59Z</date>")).root.value
                == .date(Instant(secondsSinceEpoch: 1_709_251_199)))
        for text in [
            "2026-02-30T25:61Z", "2026-02-30T10:00:00Z", "2026-03-29T24:00:00Z", "2026-03-29T01:30:00",
            "2026-03-29T01:30:00+02:00", "2026-3-29T01:30:00Z", "tomorrow",
        ] {
            #expect(readError(Self.plist("<date>\(text)</date>"))?.code == .syntax, "\(text) is not a plist date")
        }
    }

    @Test func decodesBase64StrictlyAllowingWhitespace() throws {
        #expect(try readFeed(Self.plist("<data>\n\tAAH+\n\t/w==\n</data>")).root.value == .data([0, 1, 0xFE, 0xFF]))
        #expect(try readFeed(Self.plist("<data></data>")).root.value == .data([]))
        for text in ["A", "AA=", "AAA", "A===", "QQ==QQ==", "Q!==", "QR==", "====", "QUJD="] {
            #expect(readError(Self.plist("<data>\(text)</data>"))?.code == .syntax, "\(text) is not valid base64")
        }
    }

    @Test func namesTheDuplicateKeyItsLineAndItsPath() {
        let error = readError(
            Self.plist(
                """
                <dict>
                <key>notifications</key>
                <array>
                <dict><key>id</key><string>a</string></dict>
                <dict>
                <key>id</key><string>b</string>
                <key>id</key><string>c</string>
                </dict>
                </array>
                </dict>
                """))
        #expect(error?.code == .duplicateKey)
        #expect(error?.location == FeedLocation(keyPath: "notifications[1].id", line: 10))
        #expect(error?.message.contains("\"id\"") == true, "the message names the key")
    }

    @Test func reportsTheKeyPathAndLineOfAnError() {
        let entries = (0..<3).map { "<dict><key>id</key><string>\($0)</string></dict>" }.joined(separator: "\n")
        let error = readError(
            Self.plist(
                """
                <dict>
                <key>notifications</key>
                <array>
                \(entries)
                <dict>
                <key>fireDate</key>
                <date>2026-02-30T25:61:00Z</date>
                </dict>
                </array>
                </dict>
                """))
        #expect(error?.code == .syntax)
        #expect(error?.location == FeedLocation(keyPath: "notifications[3].fireDate", line: 12))
    }

    @Test func refusesMalformedStructure() {
        let invalid = [
            "<dict><string>no key</string></dict>", "<dict><key>a</key></dict>",
            "<dict><key>a</key><key>b</key></dict>",
            "<array><string>x</array>", "<array>loose text</array>", "<string><b>x</b></string>", "<foo/>",
            "<true>yes</true>", "<plist><true/></plist>", "<string>a & b</string>", "<string>&#xD800;</string>",
            "<string>&#0;</string>", "<string>&#x110000;</string>", "<array attr=x></array>", "<string>\u{1}</string>",
        ]
        for body in invalid {
            #expect(readError(Self.plist(body))?.code == .syntax, "\(body) is not a valid plist body")
        }
        #expect(readError("<plist></plist>")?.code == .syntax, "an empty plist holds no value")
        #expect(readError("<plist/>")?.code == .syntax, "an empty plist holds no value")
        #expect(readError("<plist><true/><false/></plist>")?.code == .syntax, "a plist holds one value")
    }

    @Test func allowsSelfClosingContainersAndStrings() throws {
        let root = try readFeed("<plist><array><dict/><array/><string/><dict></dict></array></plist>").root
        let expected: [FeedValue] = [
            .dictionary(FeedDictionary()), .array([]), .string(""), .dictionary(FeedDictionary()),
        ]
        #expect(root.withoutLines == FeedNode(.array(expected.map { FeedNode($0) })))
    }

    @Test func refusesTextAfterThePlistButAllowsComments() {
        #expect(readError("<plist><true/></plist>\n<!-- fine -->\n<?pi also fine?>\n") == nil)
        #expect(readError("<plist><true/></plist>trailing")?.code == .syntax)
        #expect(readError("<plist><true/></plist><plist><true/></plist>")?.code == .syntax)
    }

    @Test func refusesEncodingsOtherThanUTF8() {
        #expect(
            readError("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><plist><true/></plist>")?.code == .unknownFormat)
        #expect(readError("<?xml version='1.0' encoding='utf-8'?><plist><true/></plist>") == nil)
    }

    @Test func enforcesDepthNodeAndStringLimits() {
        let nested = Self.plist("<array><array><array/></array></array>")
        #expect(readError(nested, limits: FeedReadLimits(maxDepth: 2))?.code == .limitExceeded)
        #expect(readError(nested, limits: FeedReadLimits(maxDepth: 3)) == nil)
        #expect(
            readError(Self.plist("<array><true/><true/></array>"), limits: FeedReadLimits(maxNodes: 2))?.code
                == .limitExceeded)
        #expect(
            readError(Self.plist("<string>12345</string>"), limits: FeedReadLimits(maxStringBytes: 4))?.code
                == .limitExceeded)
        #expect(
            readError(Self.plist("<data>AAAAAAAA</data>"), limits: FeedReadLimits(maxStringBytes: 5))?.code
                == .limitExceeded)
    }
}
