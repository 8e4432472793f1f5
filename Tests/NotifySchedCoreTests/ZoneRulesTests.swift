import Foundation
import NotifySchedCore
import NotifySchedPlatform
import NotifySchedTesting
import Testing

@Suite struct ZoneRulesTests {
    static let database = TimeZoneDatabase()

    static func zone(_ name: String) throws -> ZoneRules {
        try database.loadZone(named: name)
    }

    static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0) -> Instant {
        CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute).instant(atOffset: 0)
    }

    /// Instants spread over 1970…2060 plus one second either side of every transition from
    /// 1990 to 2045, where a wrong table index or footer rule would show.
    static func probeInstants(in zone: ZoneRules) -> [Instant] {
        var instants: [Instant] = []
        var seconds: Int64 = 0
        while seconds < 2_840_000_000 {
            instants.append(Instant(secondsSinceEpoch: seconds))
            seconds += 1_234_567
        }
        var cursor = utc(1990, 1, 1)
        while let next = zone.nextTransition(after: cursor), next < utc(2045, 1, 1) {
            instants += [next - .seconds(1), next, next + .seconds(1)]
            cursor = next
        }
        return instants
    }

    /// Offsets and abbreviations from Python's `zoneinfo`, one process for all instants.
    static func pythonOffsets(_ name: String, _ instants: [Instant]) throws -> [String] {
        let script = """
            import sys, zoneinfo, datetime
            z = zoneinfo.ZoneInfo(sys.argv[1])
            for line in sys.stdin:
                d = datetime.datetime.fromtimestamp(int(line), tz=z)
                print(int(d.utcoffset().total_seconds()), d.tzname())
            """
        let input = instants.map { "\($0.secondsSinceEpoch)\n" }.joined()
        let output = try ExternalCommand.run("/usr/bin/python3", ["-c", script, name], input: input)
        return output.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test(arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo",
        "Pacific/Apia", "America/Nuuk", "America/Santiago", "Europe/Dublin",
    ])
    func offsetsMatchPythonZoneinfo(name: String) throws {
        try #require(ExternalCommand.locate("python3") != nil, "python3 is needed as the reference")
        let zone = try Self.zone(name)
        let instants = Self.probeInstants(in: zone)
        let expected = try Self.pythonOffsets(name, instants)
        let actual = instants.map { "\(zone.offset(at: $0).seconds) \(zone.offset(at: $0).abbreviation)" }
        #expect(actual.count == expected.count)
        for (index, (mine, theirs)) in zip(actual, expected).enumerated() where mine != theirs {
            Issue.record("\(name) at \(instants[index].rfc3339): got \(mine), zoneinfo says \(theirs)")
        }
    }

    @Test func knownOffsetsAndDaylightFlags() throws {
        let berlin = try Self.zone("Europe/Berlin")
        #expect(
            berlin.offset(at: Self.utc(2026, 1, 15)) == ZoneOffset(seconds: 3600, isDST: false, abbreviation: "CET"))
        #expect(
            berlin.offset(at: Self.utc(2026, 7, 15)) == ZoneOffset(seconds: 7200, isDST: true, abbreviation: "CEST"))
        let lordHowe = try Self.zone("Australia/Lord_Howe")
        #expect(
            lordHowe.offset(at: Self.utc(2026, 1, 15)) == ZoneOffset(seconds: 39600, isDST: true, abbreviation: "+11"))
        #expect(
            lordHowe.offset(at: Self.utc(2026, 7, 15))
                == ZoneOffset(seconds: 37800, isDST: false, abbreviation: "+1030"))
        let kolkata = try Self.zone("Asia/Kolkata")
        #expect(
            kolkata.offset(at: Self.utc(2090, 7, 15)) == ZoneOffset(seconds: 19800, isDST: false, abbreviation: "IST"))
    }

    @Test func civilTimeFollowsTheOffset() throws {
        let newYork = try Self.zone("America/New_York")
        #expect(newYork.civil(at: Self.utc(2026, 7, 4, 16)) == CivilDateTime(year: 2026, month: 7, day: 4, hour: 12))
    }

    @Test func springForwardGapShiftsForwardByGapLength() throws {
        let cases: [(String, CivilDateTime, Instant)] = [
            (
                "Europe/Berlin", CivilDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30),
                Self.utc(2026, 3, 29, 1, 30)
            ),
            (
                "America/New_York", CivilDateTime(year: 2026, month: 3, day: 8, hour: 2, minute: 30),
                Self.utc(2026, 3, 8, 7, 30)
            ),
            // Lord Howe moves from +10:30 to +11:00: a 30-minute gap from 02:00 to 02:30.
            (
                "Australia/Lord_Howe", CivilDateTime(year: 2026, month: 10, day: 4, hour: 2, minute: 15),
                Self.utc(2026, 10, 3, 15, 45)
            ),
            // Apia skipped 2011-12-30 entirely, going from -10:00 to +14:00.
            ("Pacific/Apia", CivilDateTime(year: 2011, month: 12, day: 30, hour: 12), Self.utc(2011, 12, 30, 22)),
        ]
        for (name, local, expected) in cases {
            let zone = try Self.zone(name)
            #expect(zone.resolve(local) == .gap(shiftedForward: expected), "\(name) \(local) lies in a gap")
            #expect(zone.instant(forFloating: local) == expected)
        }
    }

    @Test func fallBackOverlapOffersBothAndFloatingTakesTheEarlier() throws {
        let cases: [(String, CivilDateTime, Instant, Instant)] = [
            (
                "Europe/Berlin", CivilDateTime(year: 2026, month: 10, day: 25, hour: 2, minute: 30),
                Self.utc(2026, 10, 25, 0, 30), Self.utc(2026, 10, 25, 1, 30)
            ),
            (
                "America/New_York", CivilDateTime(year: 2026, month: 11, day: 1, hour: 1, minute: 30),
                Self.utc(2026, 11, 1, 5, 30), Self.utc(2026, 11, 1, 6, 30)
            ),
            (
                "Australia/Lord_Howe", CivilDateTime(year: 2026, month: 4, day: 5, hour: 1, minute: 45),
                Self.utc(2026, 4, 4, 14, 45), Self.utc(2026, 4, 4, 15, 15)
            ),
        ]
        for (name, local, earlier, later) in cases {
            let zone = try Self.zone(name)
            #expect(zone.resolve(local) == .overlap(earlier: earlier, later: later), "\(name) \(local) occurs twice")
            #expect(zone.instant(forFloating: local) == earlier)
        }
    }

    @Test func ordinaryLocalTimeIsUnique() throws {
        let kolkata = try Self.zone("Asia/Kolkata")
        #expect(
            kolkata.resolve(CivilDateTime(year: 2026, month: 5, day: 1, hour: 9))
                == .unique(Self.utc(2026, 5, 1, 3, 30)))
        #expect(ZoneRules.utc.resolve(CivilDateTime(year: 2026, month: 5, day: 1)) == .unique(Self.utc(2026, 5, 1)))
    }

    @Test func transitionsAreFoundInTableAndFooter() throws {
        let berlin = try Self.zone("Europe/Berlin")
        #expect(berlin.nextTransition(after: Self.utc(2026, 1, 1)) == Self.utc(2026, 3, 29, 1))
        #expect(berlin.nextTransition(after: Self.utc(2090, 4, 1)) == Self.utc(2090, 10, 29, 1))
        #expect(ZoneRules.utc.nextTransition(after: Self.utc(2026, 1, 1)) == nil)
    }

    @Test(arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Nuuk", "America/Santiago", "Europe/Dublin",
    ])
    func footerRuleAgreesWithTheTransitionTable(name: String) throws {
        let zone = try Self.zone(name)
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/\(name)")))
        let footer = String(decoding: bytes.split(separator: UInt8(ascii: "\n")).last ?? [], as: UTF8.self)
        let rule = try ZoneRules(identifier: footer, posixRule: footer)
        var instant = Self.utc(2026, 1, 1)
        while instant < Self.utc(2037, 1, 1) {
            #expect(rule.offset(at: instant) == zone.offset(at: instant), "\(footer) at \(instant.rfc3339)")
            instant = instant + .hours(7)
        }
    }
}
