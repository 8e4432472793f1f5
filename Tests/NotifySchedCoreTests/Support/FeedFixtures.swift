import NotifySchedCore
import NotifySchedPlatform

/// The system tz database, shared by every test.
let systemZones = TimeZoneDatabase()

/// A zone from the system tz database; tests name zones that exist.
func zone(_ name: String) -> ZoneRules {
    guard let rules = systemZones.zone(named: name) else {
        preconditionFailure("the tz database has no \(name); install tzdata")
    }
    return rules
}

/// Parses `text` as a feed with the system zones and the default URL policy.
func parse(
    _ text: String, language: LanguagePreference = .none, policy: URLPolicy = URLPolicy(), userZone: ZoneRules? = nil
) -> FeedParseResult {
    FeedParser(zones: systemZones, urlPolicy: policy, language: language, userZone: userZone).parse(
        Array(text.utf8), source: "test-feed")
}

/// The error messages of a parse, with their locations, for whole-value comparisons.
func errors(_ result: FeedParseResult) -> [String] {
    result.diagnostics.filter { $0.severity == .error }.map(\.error.description)
}

func warnings(_ result: FeedParseResult) -> [String] {
    result.diagnostics.filter { $0.severity == .warning }.map(\.error.description)
}

/// An instant from an RFC 3339 string with an offset.
func instant(_ text: String) -> Instant {
    guard case .absolute(let instant)? = Timestamp.parse(text) else {
        preconditionFailure("\(text) is not an absolute RFC 3339 time")
    }
    return instant
}

/// A one-entry native feed with the given JSON members.
func nativeFeed(_ members: String) -> String {
    "{\"notifications\": [{\"id\": \"e\", \"title\": \"T\", \(members)}]}"
}
