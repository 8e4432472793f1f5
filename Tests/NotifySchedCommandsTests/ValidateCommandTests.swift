import Foundation
import Testing

@Suite struct ValidateCommandTests {
    typealias CLI = CommandLineHarness

    @Test(arguments: [
        ("demo.json", "native feed (json), 6 entries"),
        ("demo-zbim.json", "zbim feed (json), 2 entries"),
        ("demo-inotify.plist", "inotify feed (xml-plist), 3 entries"),
        ("demo-ismartnews.plist", "ismartnews feed (xml-plist), 5 entries"),
    ])
    func everyShippedFeedIsValid(name: String, summary: String) throws {
        let path = CLI.demoFeed(name)
        let outcome = try CLI.run(["validate", path])
        #expect(outcome.status == 0 && outcome.standardError.isEmpty)
        #expect(outcome.standardOutput.split(separator: "\n").first.map(String.init) == "\(path): ok: \(summary)")
    }

    @Test func eachCalendarExpressionIsPrintedAsSystemdNormalizesItWithItsEntries() throws {
        let path = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "a", "title": "T", "calendar": "*:4,30:0/1,3,5"},
              {"id": "b", "title": "T", "calendar": "*:04,30:*"},
              {"id": "c", "title": "T", "calendar": "mon..fri 9:00"},
              {"id": "d", "title": "T", "fireDate": "2030-01-01T00:00:00Z"}
            ]}
            """)
        let outcome = try CLI.run(["validate", path])
        #expect(
            outcome.standardOutput == """
                \(path): ok: native feed (json), 4 entries
                \(path): calendar *-*-* *:04,30:* (entries a, b)
                \(path): calendar Mon..Fri *-*-* 09:00:00 (entry c)

                """)
    }

    @Test func aFeedThatAsksForReceiptsSaysWhereAndWhy() throws {
        let path = try CLI.temporaryFile(
            """
            {"receipts": {"endpoint": "https://collector.example.org/v1/logs", "purpose": "who reads the notes\\u0007"},
             "notifications": [{"id": "a", "title": "T"}]}
            """)
        let outcome = try CLI.run(["validate", path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let expected =
            "\(path): asks for receipts to https://collector.example.org/v1/logs, for: who reads the notes\\u0007 "
            + "(only from a signed feed, to users who say receipts = counts)"
        #expect(lines.count == 2 && lines.last == expected, "\(lines)")
    }

    @Test func aFeedOfAnotherShapeThanTheDialectAskedForIsAnError() throws {
        let path = CLI.demoFeed("demo-inotify.plist")
        let outcome = try CLI.run(["validate", "--dialect", "ismartnews", path])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardError.contains(
                "the source is configured as ismartnews, but the feed is an iNotify feed (a dictionary of messages); "
                    + "an iSmartNews feed (an array) is expected (or set `dialect = auto`)"))
        let zbim = try CLI.run(["validate", "--dialect", "zbim", CLI.demoFeed("demo.json")])
        #expect(zbim.status == 1, "native entries read as ZBiM rows lack their uuid")
        #expect(try CLI.run(["validate", "--dialect", "inotify", path]).status == 0)
        let unknown = try CLI.run(["validate", "--dialect", "rss", path])
        #expect(unknown.status != 0 && unknown.standardError.contains("rss"))
    }

    @Test func everyProblemIsPrintedWithFileLineAndKeyPathAndExitIs1() throws {
        let path = try CLI.temporaryFile(
            """
            {"notifications": [
              {"id": "a", "title": "T", "fireDate": "2026-02-30T25:61Z"},
              {"id": "a", "title": "T", "calendar": "Mon..Funday"},
              {"id": "c", "title": "T", "shade": "blue"}
            ]}
            """)
        let outcome = try CLI.run(["validate", path])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput == "")
        let lines = outcome.standardError.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(
            lines[0]
                == "\(path):2: notifications[0].fireDate: `fireDate` is not a date and time (RFC 3339, e.g. 2026-03-29T09:00:00Z): \"2026-02-30T25:61Z\""
        )
        #expect(lines[1] == "\(path):3: notifications[1]: id \"a\" is already used by notifications[0]")
        #expect(
            lines[2]
                == "\(path):3: notifications[1].calendar: `calendar`: calendar expression \"Mon..Funday\": expected a weekday at \"Funday\""
        )
        #expect(lines[3] == "\(path):4: notifications[2].shade: warning: unknown key `shade` is ignored")
    }

    @Test func missingFileIsAClearErrorNotACrash() throws {
        let outcome = try CLI.run(["validate", "/nonexistent/feed.json"])
        #expect(
            outcome
                == .init(
                    status: 1, standardOutput: "", standardError: "/nonexistent/feed.json: No such file or directory\n")
        )
    }

    /// A FIFO named as a feed blocked `validate` in `open()` for as long as nothing wrote to it.
    @Test func aFIFOOrADeviceIsRefusedWithoutWaiting() throws {
        let fifo = try CLI.temporaryFile("", name: "feed.fifo")
        try FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        let started = Date()
        for path in [fifo, "/dev/zero"] {
            let outcome = try CLI.run(["validate", path])
            #expect(outcome == .init(status: 1, standardOutput: "", standardError: "\(path): not a regular file\n"))
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func feedAboveTheSizeCapIsRefusedBeforeParsing() throws {
        let path = try CLI.temporaryFile(
            Data(repeating: UInt8(ascii: " "), count: 16 * 1024 * 1024 + 1), name: "big.json")
        let outcome = try CLI.run(["validate", path])
        #expect(outcome.status == 1)
        #expect(outcome.standardError == "\(path): 16777217 bytes is larger than the feed size cap of 16777216 bytes\n")
    }

    @Test func hostileDocumentsGiveOneCleanError() throws {
        let bomb = """
            <?xml version="1.0"?>
            <!DOCTYPE plist [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <plist version="1.0"><string>&b;</string></plist>
            """
        for (name, data) in [
            ("bomb.plist", Data(bomb.utf8)),
            ("deep.json", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)),
            ("truncated.bplist", Data("bplist00\u{D1}\u{01}".utf8)),
            ("binary.json", Data([0xFF, 0xFE, 0x00, 0x7B])),
        ] {
            let path = try CLI.temporaryFile(data, name: name)
            let outcome = try CLI.run(["validate", path])
            #expect(outcome.status == 1, "\(name) must be refused")
            #expect(outcome.standardError.split(separator: "\n").count == 1, "\(name): \(outcome.standardError)")
            #expect(outcome.standardError.hasPrefix(path), "\(name): \(outcome.standardError)")
        }
    }

    @Test func noFeedIsAUsageError() throws {
        let outcome = try CLI.run(["validate"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("Missing expected argument"))
    }

    @Test func unknownSubcommandIsAUsageError() throws {
        #expect(try CLI.run(["frobnicate"]).status == 2)
    }
}
