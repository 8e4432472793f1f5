/// What a targeting expression may ask of this desktop (docs/feed-formats.md, "Targeting"),
/// as the daemon reads it: the user's language, the desktop and session, the system, the
/// notification server, and when notify-sched was installed here. Nothing of it leaves the
/// desktop: expressions are evaluated here.
public struct TargetingEnvironment: Sendable, Equatable {
    /// The user's language and country (`LANG`, `LC_MESSAGES`, `LC_ALL`).
    public var language: LanguagePreference
    /// `XDG_CURRENT_DESKTOP`, as the session sets it (`GNOME`, `KDE`, `ubuntu:GNOME`).
    public var desktop: String
    /// `XDG_SESSION_TYPE`: `x11`, `wayland`, `tty`, or empty.
    public var session: String
    /// The system's `ID` and `VERSION_ID` in os-release(5) (`debian`, `12`).
    public var osID: String
    public var osVersion: String
    /// When the install id was made (`InstallIdentity`); nil when unknown.
    public var installedAt: Instant?
    /// The notification server that runs; nil when none does.
    public var server: NotificationServer?

    public init(
        language: LanguagePreference = .none, desktop: String = "", session: String = "", osID: String = "",
        osVersion: String = "", installedAt: Instant? = nil, server: NotificationServer? = nil
    ) {
        self.language = language
        self.desktop = desktop
        self.session = session
        self.osID = osID
        self.osVersion = osVersion
        self.installedAt = installedAt
        self.server = server
    }

    /// The context an entry's expression is evaluated in at `now`: this desktop's facts, and
    /// the entry's own (its source's tags and application version, its feed's version, how
    /// often it was shown).
    public func context(
        tags: [String], applicationVersion: String?, feedVersion: Int64?, impressions: Int, at now: Instant
    ) -> TargetingValue {
        // BCP 47's cases, as Firefox gives them: `fr-FR`.
        let language = language.language ?? ""
        let region = self.language.country?.uppercased() ?? ""
        let locale = [language, region].filter { !$0.isEmpty }.joined(separator: "-")
        let age = installedAt.map { Int64(max(0, (now - $0).seconds) / 86_400) }
        return .object([
            "locale": .string(locale), "language": .string(language), "region": .string(region),
            "desktop": .string(desktop), "session": .string(session),
            "server": .object([
                "name": .string(server?.name ?? ""),
                "capabilities": .array((server?.capabilities.sorted() ?? []).map(TargetingValue.string)),
            ]),
            "os": .object(["id": .string(osID), "version": .string(osVersion)]),
            "app": .object(["version": applicationVersion.map(TargetingValue.string) ?? .null]),
            "feed": .object(["version": feedVersion.map(TargetingValue.integer) ?? .null]),
            "now": .integer(now.microseconds / 1000), "installAgeDays": age.map(TargetingValue.integer) ?? .null,
            "tags": .array(tags.map(TargetingValue.string)), "impressions": .integer(Int64(impressions)),
        ])
    }

    /// The identifiers the context has.
    public static let identifiers = [
        "locale", "language", "region", "desktop", "session", "server", "os", "app", "feed", "now",
        "installAgeDays", "tags", "impressions",
    ]

    /// The facts of os-release(5) text: its `ID` and `VERSION_ID`, unquoted.
    public static func osRelease(_ text: String) -> (id: String, version: String) {
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            var value = String(parts[1]).trimmingSpaces
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[String(parts[0]).trimmingSpaces] = value
        }
        return (values["ID"] ?? "", values["VERSION_ID"] ?? "")
    }
}
