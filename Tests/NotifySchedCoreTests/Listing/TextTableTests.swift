import NotifySchedCore
import Testing

@Suite struct TextTableTests {
    private let table = TextTable(
        [.init("WHEN"), .init("TITLE", cut: .end), .init("SOURCE", cut: .start)],
        rows: [
            ["09:00", "A title long enough to need cutting on a narrow terminal", "/home/someone/feeds/team.json"],
            ["10:00", "Short", "demo.json"],
        ])

    @Test func withoutAWidthEveryCellIsWholeAndTheColumnsAlign() {
        let lines = table.lines(width: nil)
        let sourceColumn = lines[0].count - "SOURCE".count
        #expect(lines[1].dropFirst(sourceColumn) == "/home/someone/feeds/team.json", "\(lines)")
        #expect(lines[1].hasSuffix("/home/someone/feeds/team.json"))
        #expect(lines[2].hasPrefix("10:00  Short  "), "the last column is not padded: \(lines)")
        #expect(!lines.contains { $0.hasSuffix(" ") })
    }

    @Test func theElasticColumnsAreCutWidestFirstUntilTheTableFits() {
        for width in [80, 60, 45] {
            let lines = table.lines(width: width)
            #expect(lines.allSatisfy { $0.count <= width }, "\(width): \(lines)")
        }
        let lines = table.lines(width: 60)
        #expect(lines[1].contains("A title long") && lines[1].contains("…  "), "the title keeps its start: \(lines)")
        #expect(lines[1].contains("…") && lines[1].hasSuffix("team.json"), "a path keeps its end: \(lines)")
        #expect(lines[2].contains("demo.json"))
    }

    @Test func aColumnIsNeverCutBelowItsFloorSoATinyTerminalOverflows() {
        let lines = table.lines(width: 10)
        #expect(lines[1].hasPrefix("09:00  A title lon…  …s/team.json"), "\(lines)")
    }

    @Test func cellsAreEscapedBeforeTheyAreMeasured() {
        let lines = TextTable([.init("A"), .init("B")], rows: [["\u{1B}[31mred", "x"]]).lines(width: nil)
        #expect(!lines[1].contains("\u{1B}"), "\(lines)")
        #expect(lines[0].count == lines[1].count, "the header lines up with the escaped cell: \(lines)")
    }

    @Test func optionalColumnsAreLeftOutTheLastFirstBeforeAnyCellIsCut() {
        let table = TextTable(
            [.init("WHEN"), .init("TITLE", cut: .end), .init("ID", optional: true), .init("SOURCE", optional: true)],
            rows: [["09:00", "Twenty letters title", "0123456789abcdef", "/feeds/team.json"]])
        #expect(table.lines(width: nil)[0].hasSuffix("SOURCE"))
        let narrower = table.lines(width: 50)
        #expect(narrower[1] == "09:00  Twenty letters title  0123456789abcdef", "\(narrower)")
        let narrowest = table.lines(width: 30)
        #expect(narrowest[1] == "09:00  Twenty letters title", "the title stays whole: \(narrowest)")
        #expect(table.lines(width: 20)[1] == "09:00  Twenty lette…")
    }
}
