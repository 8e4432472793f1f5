/// How an iNotify source is checked and shown, with iNotify's own defaults (seed semantics §1.2).
public struct INotifySettings: Sendable, Equatable {
    /// The least time between two checks. The default is half a day.
    public var checkPeriod: TimeSpan
    /// After "Remind Me Later", the least time before the next check; while a reminder is
    /// pending it replaces `checkPeriod`. The default is one day.
    public var remindPeriod: TimeSpan
    /// Show the oldest message (smallest key) first instead of the newest. The default is false.
    public var showOldestFirst: Bool
    /// Check on the very first start too. The default is false: the first start only records
    /// that notify-sched has run.
    public var showOnFirstLaunch: Bool
    /// Ignore the periods and, once every message was seen, start over. The default is false.
    public var debug: Bool
    /// The application version compared with `MinVersion`/`MaxVersion`; nil applies no version
    /// filter. The default is nil.
    public var applicationVersion: String?

    public init(
        checkPeriod: TimeSpan = .hours(12), remindPeriod: TimeSpan = .days(1), showOldestFirst: Bool = false,
        showOnFirstLaunch: Bool = false, debug: Bool = false, applicationVersion: String? = nil
    ) {
        self.checkPeriod = checkPeriod
        self.remindPeriod = remindPeriod
        self.showOldestFirst = showOldestFirst
        self.showOnFirstLaunch = showOnFirstLaunch
        self.debug = debug
        self.applicationVersion = applicationVersion
    }
}
