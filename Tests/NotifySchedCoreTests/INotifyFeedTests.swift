import NotifySchedCore
import Testing

@Suite struct INotifyFeedTests {
    static let feed = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
            <key>2011/02/01</key>
            <dict>
                <key>Title</key><string>New version</string>
                <key>Message</key><string>Get it now</string>
                <key>ActionButton</key><string>Download</string>
                <key>ActionURL</key><string>https://example.org/get</string>
                <key>MinVersion</key><string>1.0.0</string>
                <key>MaxVersion</key><string>2.0</string>
            </dict>
            <key>2011/01/22</key>
            <dict>
                <key>Message</key><string>No title, no action</string>
            </dict>
        </dict>
        </plist>
        """

    @Test func everyKeyIsReadAndVersionsAreKeptAsGiven() throws {
        let result = parse(Self.feed)
        #expect(result.diagnostics == [])
        let schedule = try #require(result.schedule)
        #expect(schedule.dialect == .iNotify)
        #expect(schedule.format == .xmlPropertyList)
        #expect(schedule.entries.map(\.id) == ["2011/02/01", "2011/01/22"])
        let first = schedule.entries[0]
        #expect(first.content.title == "New version")
        #expect(first.content.body == "Get it now")
        #expect(first.content.action?.label == "Download")
        #expect(first.content.action?.url.string == "https://example.org/get")
        #expect(first.versions == VersionRange(minimum: "1.0.0", maximum: "2.0"))
        let second = schedule.entries[1]
        #expect(second.content.title == "")
        #expect(second.content.action == nil)
        guard case .check = second.trigger else {
            Issue.record("iNotify entries are check-driven, got \(second.trigger)")
            return
        }
    }

    @Test func newestKeyIsTheGreatestInCaseInsensitiveStringOrder() {
        #expect(INotifyOrder.next(in: ["2011/01/22", "2011/02/01"], oldestFirst: false) == "2011/02/01")
        #expect(INotifyOrder.next(in: ["2011/01/22", "2011/02/01"], oldestFirst: true) == "2011/01/22")
        #expect(INotifyOrder.next(in: ["2011/9/30", "2011/10/01"], oldestFirst: false) == "2011/9/30")
        #expect(INotifyOrder.next(in: ["B", "a"], oldestFirst: false) == "B")
        #expect(INotifyOrder.next(in: ["10", "9"], oldestFirst: false) == "9")
        #expect(INotifyOrder.next(in: [], oldestFirst: false) == nil)
    }

    @Test func versionBoundsAreInclusiveAndNumeric() {
        #expect(VersionRange(minimum: "1.0").admits("1.0"))
        #expect(!VersionRange(minimum: "1.0.0").admits("1.0"))
        #expect(VersionRange(minimum: "1.01").admits("1.1"))
        #expect(!VersionRange(maximum: "1.9").admits("1.10"))
        #expect(!VersionRange(maximum: "2.0").admits("2.0b1"))
        #expect(!VersionRange(minimum: "1.10").admits("1.9"))
        #expect(VersionRange().admits(""))
    }

    @Test func messageThatIsNotADictionaryIsAnError() {
        let result = parse(#"{"2011/01/01": "just text", "2011/01/02": {"Title": "ok"}}"#)
        #expect(errors(result) == ["line 1: [\"2011/01/01\"]: an iNotify message must be a dictionary, not a string"])
        #expect(result.schedule?.entries.map(\.id) == ["2011/01/02"])
    }

    @Test func actionURLWithDisallowedSchemeDropsOnlyThatMessage() {
        let result = parse(#"{"b": {"Title": "x", "ActionURL": "file:///etc/passwd"}, "a": {"Title": "y"}}"#)
        #expect(errors(result).count == 1)
        #expect(result.schedule?.entries.map(\.id) == ["a"])
    }

    @Test func rootArrayIsNotAnINotifyFeedButAnISmartNewsOne() {
        #expect(parse("[]").schedule?.dialect == .iSmartNews)
        #expect(
            errors(parse("<plist version=\"1.0\"><string>text</string></plist>")) == [
                "line 1: the root is a string; a feed's root is a dictionary (a portal feed with `notifications`, or an iNotify feed) or an array (an iSmartNews feed)"
            ])
    }
}
