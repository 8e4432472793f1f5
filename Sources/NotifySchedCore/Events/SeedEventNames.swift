/// The names an occurrence of an event carries: the posted name, and for the desktop's own
/// events the iSmartNews names they stand for (seed semantics §2.7).
///
/// | desktop event | also carries |
/// |---|---|
/// | `session:start` (the daemon starts in a session) | `app:didfinishlaunching`, or `app:didfinishlaunchingafterupgrade` when the configured `application-version` changed since the last start |
/// | `session:resume`, `session:unlock` (a return to the session) | `app:activate` |
///
/// iSmartNews posts one launch event (the upgrade one after an upgrade, else the plain one) and
/// `app:activate` on every return to the app but not at launch; the desktop's events map onto
/// those one to one. Names match case-insensitively.
public enum SeedEventNames {
    /// The launch event iSmartNews posts.
    public static let launch = "app:didfinishlaunching"
    /// The launch event iSmartNews posts after an upgrade.
    public static let launchAfterUpgrade = "app:didfinishlaunchingafterupgrade"
    /// The event iSmartNews posts on every return to the application.
    public static let activate = "app:activate"
    /// The event an application posts to ask for its review item (iSmartNews's `review` uuid
    /// listens to it).
    public static let reviewManually = "review:show_review_manually"

    /// The names an occurrence of `event` carries, lower-cased.
    ///
    /// - Parameters:
    ///   - event: The posted event name (any case).
    ///   - upgraded: Whether this session start follows a change of the application version.
    public static func names(of event: String, upgraded: Bool = false) -> Set<String> {
        let name = event.lowercased()
        switch name {
        case "session:start": return [name, upgraded ? launchAfterUpgrade : launch]
        case "session:resume", "session:unlock": return [name, activate]
        default: return [name]
        }
    }
}
