/// The desktop a preview is computed for (`PreviewRun`): its zone, and what targeting and the
/// version ranges read of it. A feed's author previews a feed for one profile in each zone
/// asked for.
public struct PreviewProfile: Sendable {
    /// The user's zone, for floating times and what targeting reads as `now`.
    public var zone: ZoneRules
    /// The application version every source is read for (`application-version`); nil admits
    /// every version range, as a source without one does.
    public var applicationVersion: String?
    /// The user's tags (`tags` in the configuration), which targeting reads.
    public var tags: [String]
    /// The user's language, which targeting reads as `locale`.
    public var language: LanguagePreference
    /// The desktop's install id, which places it in rollouts; nil places it in none.
    public var installID: String?
    /// The user's bound on all popups (`max-popups`); nil for none, the default.
    public var maxPopups: PopupBound?
    /// The user's quiet hours, which hold popups that are not critical; nil for none, the default.
    public var quietHours: QuietHours?

    public init(
        zone: ZoneRules, applicationVersion: String? = nil, tags: [String] = [], language: LanguagePreference = .none,
        installID: String? = nil, maxPopups: PopupBound? = nil, quietHours: QuietHours? = nil
    ) {
        self.zone = zone
        self.applicationVersion = applicationVersion
        self.tags = tags
        self.language = language
        self.installID = installID
        self.maxPopups = maxPopups
        self.quietHours = quietHours
    }
}
