import Foundation
import Testing

/// The example feeds of "Writing a feed" (`docs/feed-formats.md`, which the README links to): at
/// least one per dialect, each a feed that `notify-sched validate` accepts without a word and that `list`
/// reads as its section's dialect.
@Suite struct FeedFormatExampleTests {
    typealias CLI = CommandLineHarness

    /// A fenced `json`, `xml` or `ics` block and the `##` section it is in.
    struct Example: CustomTestStringConvertible {
        var section: String
        var language: String
        var text: String

        var testDescription: String { "\(section) (\(language))" }
    }

    /// The part of a `list --json` row these tests read.
    struct ListedEntry: Decodable {
        var dialect: String
    }

    /// The dialect `list --json` names for the entries of each section's example.
    static let dialects = [
        "Portal feed (native)": "native",
        "ZBiM rows": "zbim",
        "iNotify plists": "inotify",
        "iSmartNews plists": "ismartnews",
        "Calendars (iCalendar)": "icalendar",
    ]

    /// Every `json`, `xml` and `ics` block of `docs/feed-formats.md`, in order.
    static let examples: [Example] = {
        guard
            let page = try? String(
                contentsOf: CLI.repository.appendingPathComponent("docs/feed-formats.md"), encoding: .utf8)
        else { return [] }
        var examples: [Example] = []
        var section = ""
        var block: Example?
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var open = block {
                if line == "```" {
                    examples.append(open)
                    block = nil
                } else {
                    open.text += line + "\n"
                    block = open
                }
            } else if line.hasPrefix("## ") {
                section = String(line.dropFirst(3))
            } else if line == "```json" || line == "```xml" || line == "```ics" {
                block = Example(section: section, language: String(line.dropFirst(3)), text: "")
            }
        }
        return examples
    }()

    @Test func everyDialectHasAnExample() {
        #expect(Set(Self.examples.map(\.section)) == Set(Self.dialects.keys))
    }

    @Test(arguments: examples)
    func exampleValidatesWithoutProblemsAsItsDialect(_ example: Example) throws {
        let names = ["json": "feed.json", "xml": "feed.plist", "ics": "feed.ics"]
        let path = try CLI.temporaryFile(example.text, name: names[example.language] ?? "feed")
        let validation = try CLI.run(["validate", path])
        #expect(validation.status == 0)
        #expect(validation.standardError == "", "validate reports problems")

        let listing = try CLI.run(["list", "--feed", path, "--now", "2026-01-01T00:00:00Z", "--json"])
        try #require(listing.status == 0, "list: \(listing.standardError)")
        let entries = try JSONDecoder().decode([ListedEntry].self, from: Data(listing.standardOutput.utf8))
        #expect(!entries.isEmpty)
        let dialect = try #require(Self.dialects[example.section], "an example outside the dialects' sections")
        #expect(Set(entries.map(\.dialect)) == [dialect])
    }
}
