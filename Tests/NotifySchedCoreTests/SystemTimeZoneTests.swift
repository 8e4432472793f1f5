import NotifySchedCore
import NotifySchedPlatform
import Testing

@Suite struct SystemTimeZoneTests {
    @Test(arguments: [
        "/etc/passwd", "../etc/passwd", "Europe//Berlin", "Europe/", "", "Europe/Berlin\n", "a.b", "Europe/../UTC",
    ])
    func databaseRefusesUnsafeNames(name: String) {
        #expect(TimeZoneDatabase().zone(named: name) == nil)
        #expect(TimeZoneDatabase.isAcceptableName(name) == false)
    }

    @Test func databaseLoadsAndCachesZones() throws {
        let database = TimeZoneDatabase()
        let first = try database.loadZone(named: "Europe/Berlin")
        #expect(database.zone(named: "Europe/Berlin") == first)
        #expect(database.zone(named: "Europe") == nil, "a folder is not a zone")
        #expect(database.zone(named: "Nowhere/Zone") == nil)
    }

    @Test func environmentVariableIsReadAsGlibcReadsIt() throws {
        let database = TimeZoneDatabase()
        #expect(
            SystemTimeZone.current(environment: ["TZ": ":Europe/Berlin"], database: database).identifier
                == "Europe/Berlin")
        #expect(
            SystemTimeZone.current(environment: ["TZ": "America/New_York"], database: database).identifier
                == "America/New_York")
        #expect(SystemTimeZone.current(environment: ["TZ": ""], database: database) == .utc)
        let rule = SystemTimeZone.current(environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"], database: database)
        #expect(rule.identifier == "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(rule.offset(at: Instant(secondsSinceEpoch: 1_783_000_000)).abbreviation == "CEST")
        let path = SystemTimeZone.current(environment: ["TZ": "/usr/share/zoneinfo/Asia/Kolkata"], database: database)
        #expect(path.identifier == "Asia/Kolkata")
        #expect(SystemTimeZone.current(environment: ["TZ": "not a zone"], database: database) == .utc)
    }

    @Test func localtimeLinkGivesTheZoneName() {
        let zone = SystemTimeZone.current(environment: [:], localtimePath: "/usr/share/zoneinfo/Australia/Lord_Howe")
        #expect(zone.identifier == "Australia/Lord_Howe")
    }
}
