import NotifySchedPlatform

/// The machine's tz database, read once for every test.
let systemZones = TimeZoneDatabase()
