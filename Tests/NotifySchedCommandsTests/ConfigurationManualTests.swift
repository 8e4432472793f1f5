import Foundation
import NotifySchedTesting
import Testing

/// `notify-sched.conf(5)`, written by hand: it documents the keys of the table in
/// `docs/configuration.md`, each in the same place, every one of them a key the configuration
/// parser knows, and `man` renders it.
@Suite struct ConfigurationManualTests {
    typealias CLI = CommandLineHarness

    static let manual = CLI.repository.appendingPathComponent("share/man/man5/notify-sched.conf.5")
    static let guide = CLI.repository.appendingPathComponent("docs/configuration.md")

    /// Where a key may stand in the configuration file.
    enum Placement: String, Comparable {
        /// Only before the first `[source NAME]` section.
        case global
        /// Only inside a `[source NAME]` section.
        case source
        /// In either: before the first section it is every source's default.
        case both

        static func < (left: Placement, right: Placement) -> Bool { left.rawValue < right.rawValue }
    }

    /// A key as a document describes it.
    struct DocumentedKey: Comparable, CustomStringConvertible {
        var name: String
        var placement: Placement

        static func < (left: DocumentedKey, right: DocumentedKey) -> Bool {
            (left.name, left.placement) < (right.name, right.placement)
        }

        var description: String { "\(name) (\(placement.rawValue))" }
    }

    /// The place the manual's headings give the keys under them: `GLOBAL KEYS`, and the two
    /// parts of `SOURCE KEYS`.
    static let manualHeadings: [String: Placement] = [
        "GLOBAL KEYS": .global,
        "Only in a source section": .source,
        "In a source section or before the first": .both,
    ]

    /// A valid value of each key, for a configuration file that uses them all. A key documented
    /// without one here fails `aConfigurationOfEveryDocumentedKeyDrawsNoProblem`: add its value.
    static let sampleValues: [String: String] = [
        "feed": CLI.demoFeed("demo.json"),
        "dialect": "native",
        "public-key": "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=",
        "allow-scheme": "zbimdb",
        "quiet-hours": "22:00-07:00",
        "snooze": "15min, tomorrow",
        "application-version": "2.1",
        "check-period": "12h",
        "remind-period": "1d",
        "fetch-period": "1h 30min",
        "alarms": "-15min, -1d",
        "show-oldest-first": "true",
        "show-on-first-launch": "yes",
        "debug": "off",
        "check-at-launch": "1",
        "hidden-keys": "2026/01/01, 2026/02/14",
        "ok-label": "Got it",
        "ignore-label": "Not now",
        "remind-label": "Later",
        "action-label": "Read more",
        "max-popups": "4/1h",
        "tags": "sports, high income",
        "receipts": "counts",
        "receipts-endpoint": "https://collector.example.org/v1/logs",
    ]

    @Test func manualAndGuideDocumentTheSameKeysInTheSamePlaces() throws {
        let manual = try Self.manualKeys()
        #expect(!manual.isEmpty, "the manual documents no key under its GLOBAL KEYS and SOURCE KEYS headings")
        #expect(
            manual.sorted() == (try Self.guideKeys()).sorted(),
            "notify-sched.conf(5) and the key table of docs/configuration.md document different keys or places")
    }

    @Test func aConfigurationOfEveryDocumentedKeyDrawsNoProblem() throws {
        let keys = try Self.manualKeys()
        let unsampled = keys.map(\.name).filter { Self.sampleValues[$0] == nil }
        try #require(unsampled.isEmpty, "documented keys without a value in sampleValues: \(unsampled)")
        let global = keys.filter { $0.placement != .source }.map(Self.line)
        let source = keys.filter { $0.placement != .global }.map(Self.line)
        let outcome = try Self.list(configuration: global + ["", "[source documented]"] + source)
        #expect(!outcome.standardError.contains("unknown key"), "a documented key is unknown to the parser")
        #expect(outcome.standardError == "", "the configuration of every documented key draws problems")
        #expect(outcome.status == 0)
    }

    @Test func aKeyTheParserDoesNotKnowIsWarnedAbout() throws {
        let outcome = try Self.list(configuration: [
            "no-such-key = 1", "", "[source documented]", "feed = \(CLI.demoFeed("demo.json"))", "nor-this-one = 2",
        ])
        #expect(
            Self.messages(outcome.standardError) == [
                "1: warning: unknown key `no-such-key` is ignored",
                "5: warning: unknown key `nor-this-one` in source \"documented\" is ignored",
            ])
        #expect(outcome.status == 0)
    }

    @Test func aKeyOutsideItsDocumentedPlaceIsWarnedAbout() throws {
        let keys = try Self.manualKeys()
        let sourceOnly = keys.filter { $0.placement == .source }
        let globalOnly = keys.filter { $0.placement == .global }
        try #require(!sourceOnly.isEmpty && !globalOnly.isEmpty, "the manual documents no key of one place")
        let lines =
            sourceOnly.map(Self.line) + ["", "[source documented]", "feed = \(CLI.demoFeed("demo.json"))"]
            + globalOnly.map(Self.line)
        let outcome = try Self.list(configuration: lines)
        let expected =
            sourceOnly.enumerated().map { "\($0.offset + 1): warning: unknown key `\($0.element.name)` is ignored" }
            + globalOnly.enumerated().map {
                "\(sourceOnly.count + 4 + $0.offset): warning: unknown key `\($0.element.name)` in source "
                    + "\"documented\" is ignored"
            }
        #expect(Self.messages(outcome.standardError) == expected)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/man")))
    func manualRendersAsSectionFiveWithoutWarnings() throws {
        let outcome = try ExternalCommand.run(
            "/usr/bin/man",
            [
                "--warnings", "-P", "cat", "-M", CLI.repository.appendingPathComponent("share/man").path, "5",
                "notify-sched.conf",
            ],
            environment: ["MANWIDTH": "100", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(outcome.status == 0)
        #expect(outcome.standardError == "", "man reports problems in the page")
        #expect(outcome.standardOutput.hasPrefix("NOTIFY-SCHED.CONF(5)"))
        #expect(outcome.standardOutput.contains("notify-sched.conf - configuration file of notify-sched"))
    }

    // MARK: Helpers

    /// The keys the manual documents: the `.B key` tag lines of the `.TP` and `.TQ` paragraphs
    /// under the headings of `manualHeadings`, in order.
    static func manualKeys() throws -> [DocumentedKey] {
        let page = try String(contentsOf: manual, encoding: .utf8)
        var keys: [DocumentedKey] = []
        var placement: Placement?
        var tagFollows = false
        for line in page.split(separator: "\n").map(String.init) {
            if line.hasPrefix(".SH ") || line.hasPrefix(".SS ") {
                placement = manualHeadings[plainText(line.dropFirst(4))]
            } else if let placement, tagFollows, line.hasPrefix(".B ") {
                keys.append(DocumentedKey(name: plainText(line.dropFirst(3)), placement: placement))
            }
            tagFollows = line == ".TP" || line == ".TQ"
        }
        return keys
    }

    /// The keys of the guide's table (`| key | where | default | meaning |`): each name in
    /// backquotes in a row's first cell, placed by its second.
    static func guideKeys() throws -> [DocumentedKey] {
        let lines = try String(contentsOf: guide, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = try #require(
            lines.firstIndex(of: "| key | where | default | meaning |"), "docs/configuration.md has no key table")
        var keys: [DocumentedKey] = []
        for row in lines[(header + 2)...].prefix(while: { $0.hasPrefix("|") }) {
            let cells = row.split(separator: "|", omittingEmptySubsequences: false)
            try #require(cells.count > 2, "a row of the key table has no place: \(row)")
            let place = cells[2].split(separator: " ").first.map(String.init) ?? ""
            let placement = try #require(Placement(rawValue: place), "\"\(place)\" is not a place: \(row)")
            let names = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            keys += names.map { DocumentedKey(name: $0, placement: placement) }
        }
        return keys
    }

    /// Roff text as it reads: `\-` a hyphen-minus, without quotes.
    static func plainText(_ roff: Substring) -> String {
        roff.replacingOccurrences(of: "\\-", with: "-").replacingOccurrences(of: "\"", with: "")
            .trimmingCharacters(in: .whitespaces)
    }

    /// `key = value`, with the key's sample value.
    static func line(_ key: DocumentedKey) -> String {
        "\(key.name) = \(sampleValues[key.name] ?? "")"
    }

    /// Runs `notify-sched list --config FILE` on a configuration of `lines`, as of a fixed time
    /// (so that no running daemon answers instead) and with its own state and cache folders.
    static func list(configuration lines: [String]) throws -> CommandLineHarness.Outcome {
        let folder = try TestFolder.make("configuration")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("config")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let outcome = try CLI.run(
            ["list", "--config", file.path, "--now", "2026-06-01T12:00:00Z"],
            environment: [
                "HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "XDG_STATE_HOME": folder.path,
                "XDG_CACHE_HOME": folder.path,
            ])
        return CommandLineHarness.Outcome(
            status: outcome.status, standardOutput: outcome.standardOutput,
            standardError: outcome.standardError.replacingOccurrences(of: file.path + ":", with: ""))
    }

    /// The lines of standard error.
    static func messages(_ standardError: String) -> [String] {
        standardError.split(separator: "\n").map(String.init)
    }
}
