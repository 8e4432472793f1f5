import Foundation
import NotifySchedCore
import Testing

@Suite struct HistoryListingTests {
    private let paris = try! ZoneRules(identifier: "CET", posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")
    private func at(_ text: String) -> Instant {
        guard case .absolute(let instant)? = Timestamp.parse(text) else { fatalError(text) }
        return instant
    }

    private var records: [HistoryRecord] {
        [
            HistoryRecord(
                LedgerRecord(
                    occurrenceID: "aaaa", source: "/feeds/team.json", entryID: "standup",
                    occurrence: at("2026-11-26T08:25:00Z"), outcome: .acted, recordedAt: at("2026-11-26T08:31:00Z")),
                title: "Stand-up", shownAt: at("2026-11-26T08:25:00.001Z")),
            HistoryRecord(
                LedgerRecord(
                    occurrenceID: "bbbb", source: "/feeds/team.json", entryID: "lunch",
                    occurrence: at("2026-11-26T11:00:00Z"), outcome: .missed, recordedAt: at("2026-11-26T15:00:00Z")),
                title: nil, shownAt: nil),
            HistoryRecord(
                LedgerRecord(
                    occurrenceID: "cccc", source: "/feeds/team.json", entryID: "retro",
                    occurrence: at("2026-11-26T15:00:00Z"), outcome: .delivered, recordedAt: at("2026-11-26T15:00:00Z")),
                title: "Retro", shownAt: at("2026-11-26T15:00:00Z")),
        ]
    }

    @Test func theTableSaysWhenEachWasShownWhatBecameOfItAndWhenInTheUsersZone() {
        let lines = HistoryListing(records).table(userZone: paris, width: nil).split(separator: "\n")
        #expect(lines[0].hasPrefix("SHOWN             OUTCOME"))
        #expect(lines[1].hasPrefix("2026-11-26 09:25  acted 09:31  standup  Stand-up  /feeds/team.json"), "\(lines)")
        #expect(
            lines[2].hasPrefix("2026-11-26 12:00  missed       lunch    -         /feeds/team.json"),
            "a missed one at its due time"
        )
        #expect(
            lines[3].hasPrefix("2026-11-26 16:00  delivered    retro    Retro     /feeds/team.json"), "no answer yet")
    }

    @Test func onANarrowTerminalTheEntryIsCutBeforeTheTitleAndASourceGoesByItsName() {
        var long = records[0]
        long.record.entryID = "an-entry-id-of-thirty-letters"
        long.title = "A title of forty letters, give or take"
        let lines = HistoryListing([long]).table(
            userZone: paris, width: 80, sourceNames: ["/feeds/team.json": "team"]
        ).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines)")
        #expect(lines[1].hasSuffix("  A title of forty letter…  team"), "\(lines)")
        #expect(lines[1].contains("  an-entry-id-of…  "), "\(lines)")
    }

    @Test func anEmptyPeriodSaysSo() {
        #expect(HistoryListing([]).table(userZone: .utc, width: 80) == "nothing shown in this period")
    }

    @Test func theJSONCarriesUTCTimesAndTheAnswerOnlyForAnAnswer() throws {
        let rows = try JSONDecoder().decode(
            [HistoryListing.Row].self, from: Data(try HistoryListing(records).json().utf8))
        #expect(rows.map(\.outcome) == ["acted", "missed", "delivered"])
        #expect(rows[0].shown == "2026-11-26T08:25:00.001Z" && rows[0].answered == "2026-11-26T08:31:00Z")
        #expect(rows[1].shown == nil && rows[1].title == nil && rows[1].answered == nil)
        #expect(rows[2].answered == nil && rows[2].due == "2026-11-26T15:00:00Z")
    }

    @Test func aSuppressedOccurrenceShowsItsReasonInPlaceOfATitleAndInTheJSON() throws {
        let reason = Suppression.groupCap(group: "spring-sale", CapLimit(cap: 1, period: .days(1)))
        let suppressed = HistoryRecord(
            .suppressed(
                "sale-coats", of: "/feeds/shop.json", occurrence: at("2026-11-26T09:00:00Z"), because: reason,
                at: at("2026-11-26T09:00:00Z")),
            title: nil, shownAt: nil)
        let lines = HistoryListing([suppressed]).table(userZone: .utc, width: nil).split(separator: "\n")
        #expect(
            lines[1]
                == #"2026-11-26 09:00  suppressed  sale-coats  group "spring-sale" allows 1 per 1 day  /feeds/shop.json"#
        )
        let rows = try JSONDecoder().decode(
            [HistoryListing.Row].self, from: Data(try HistoryListing([suppressed]).json().utf8))
        #expect(rows.map(\.outcome) == ["suppressed"])
        #expect(
            rows.first?.reason
                == SuppressionReport(reason), "code, group, cap, period in seconds and the message")
        #expect(rows.first?.reason?.period == 86_400)
    }
}
