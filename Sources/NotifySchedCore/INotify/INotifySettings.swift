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
    /// Check when the session starts, resumes or is unlocked (`checkAtLaunch`). Off, only
    /// `notify-sched sync` checks, in debug mode too (as iNotify's "should check" hook vetoes
    /// even then). The default is true.
    public var checkAtLaunch: Bool
    /// Keys never shown, as iNotify's "should display" hook refusing them: no state changes,
    /// and older messages are not blocked behind them. The default is none.
    public var hiddenKeys: Set<String>
    /// The source's own button labels; unset ones are the translated defaults.
    public var labels: CustomButtonLabels

    public init(
        checkPeriod: TimeSpan = .hours(12), remindPeriod: TimeSpan = .days(1), showOldestFirst: Bool = false,
        showOnFirstLaunch: Bool = false, debug: Bool = false, applicationVersion: String? = nil,
        checkAtLaunch: Bool = true, hiddenKeys: Set<String> = [], labels: CustomButtonLabels = CustomButtonLabels()
    ) {
        self.checkPeriod = checkPeriod
        self.remindPeriod = remindPeriod
        self.showOldestFirst = showOldestFirst
        self.showOnFirstLaunch = showOnFirstLaunch
        self.debug = debug
        self.applicationVersion = applicationVersion
        self.checkAtLaunch = checkAtLaunch
        self.hiddenKeys = hiddenKeys
        self.labels = labels
    }
}
