/// The daemon's settings, as read from `$XDG_CONFIG_HOME/notify-sched/config`.
///
/// Every key, its meaning and its default is listed in the table of docs/configuration.md; the
/// defaults here are the originals' (iNotify's periods) or the safe choice (no extra URL
/// schemes, no quiet hours). With no sources configured, the daemon runs on the demo feeds.
public struct Configuration: Sendable, Equatable {
    /// The portal feeds to follow, in file order.
    public var sources: [SourceConfiguration]
    /// URL schemes actions may open besides `https`, `http` and `mailto`. The default is none.
    public var extraSchemes: [String]
    /// When popups wait (critical ones do not). The default is none.
    public var quietHours: QuietHours?
    /// The snooze buttons of native and ZBiM popups and prompts, in order. The default is
    /// `Snooze.defaultChoices` (10 minutes, an hour, tomorrow morning); empty offers none.
    public var snoozeChoices: [Snooze]
    /// Settings every source starts from: iNotify's periods and flags, the application version,
    /// how often a feed is fetched.
    public var sourceDefaults: SourceSettings
    /// The most popups (not critical) of all sources together within a sliding window
    /// (`max-popups` in the global section). The default is none.
    public var maxPopups: PopupBound?
    /// The user's tags, which targeting expressions read (`tags`), for every source. The
    /// default is none.
    public var tags: [String] = []

    public init(
        sources: [SourceConfiguration] = [], extraSchemes: [String] = [], quietHours: QuietHours? = nil,
        snoozeChoices: [Snooze] = Snooze.defaultChoices, sourceDefaults: SourceSettings = SourceSettings(),
        maxPopups: PopupBound? = nil
    ) {
        self.sources = sources
        self.extraSchemes = extraSchemes
        self.quietHours = quietHours
        self.snoozeChoices = snoozeChoices
        self.sourceDefaults = sourceDefaults
        self.maxPopups = maxPopups
    }

    /// The URL policy the configuration asks for.
    public var urlPolicy: URLPolicy { URLPolicy(extraSchemes: extraSchemes) }

    /// Each source's own button labels, by its feed's location (`HandlingPolicy.customLabels`).
    public var customButtonLabels: [String: CustomButtonLabels] {
        Dictionary(sources.map { ($0.feed, $0.settings.iNotify.labels) }, uniquingKeysWith: { $1 })
    }
}

/// One portal feed the daemon follows.
public struct SourceConfiguration: Sendable, Equatable {
    /// The name the configuration gives it (`[source NAME]`).
    public var name: String
    /// A file path or an `http(s)://` URL.
    public var feed: String
    /// The dialect to expect; nil detects it from the content. The default is nil.
    public var dialect: FeedDialect?
    /// The Ed25519 public key (base64 of the raw 32 bytes) its feed must be signed with; nil
    /// accepts unsigned feeds. The default is nil.
    public var publicKey: String?
    /// Its settings: the global ones with this section's overrides.
    public var settings: SourceSettings
    /// The most popups (not critical) of this source within a sliding window (`max-popups`
    /// in its section; the global key bounds all sources together, not each). The default is none.
    public var maxPopups: PopupBound?
    /// The user's tags for this source, besides the global ones (`tags` in its section).
    public var tags: [String] = []

    public init(
        name: String, feed: String, dialect: FeedDialect? = nil, publicKey: String? = nil,
        settings: SourceSettings = SourceSettings(), maxPopups: PopupBound? = nil
    ) {
        self.name = name
        self.feed = feed
        self.dialect = dialect
        self.publicKey = publicKey
        self.settings = settings
        self.maxPopups = maxPopups
    }
}

/// Settings a source may override and the global section sets for all.
public struct SourceSettings: Sendable, Equatable {
    /// iNotify's check and remind periods, order, first-launch and debug flags, and the
    /// application version compared with `MinVersion`/`MaxVersion`.
    public var iNotify: INotifySettings
    /// How often the feed is checked: fetched again from its URL, or read again from its file.
    /// The default (nil) is the period the portal asks for with `Cache-Control: max-age`, else
    /// the source's iNotify `checkPeriod` for iNotify sources (12 hours unless configured) and
    /// `PollingPolicy.defaultCheckPeriod` (1 hour) for the others.
    public var fetchPeriod: TimeSpan?
    /// Which alarms of a calendar feed pop up (`alarms`); nil for the default by where the feed
    /// is (`alarmPolicy(for:)`).
    public var alarms: AlarmPolicy?
    /// Whether the source sends receipts, and where (`receipts`, `receipts-endpoint`). The
    /// default is none.
    public var receipts = ReceiptSettings()

    public init(iNotify: INotifySettings = INotifySettings(), fetchPeriod: TimeSpan? = nil, alarms: AlarmPolicy? = nil)
    {
        self.iNotify = iNotify
        self.fetchPeriod = fetchPeriod
        self.alarms = alarms
    }

    /// The alarms that pop up from a calendar at `location`: `alarms` when set, else the
    /// calendar's own for a file or folder, and none for a subscribed URL, whose alarms are
    /// someone else's.
    public func alarmPolicy(for location: String) -> AlarmPolicy {
        alarms ?? (SourceLocation.isURL(location) ? .none : .embedded)
    }

    /// The polling policy of a source with these settings whose feed is in `dialect` (nil: not
    /// read yet): `fetchPeriod` when set, else the `portalPeriod` its portal asked for, else the
    /// dialect's default period.
    public func pollingPolicy(for dialect: FeedDialect?, portalPeriod: TimeSpan? = nil) -> PollingPolicy {
        if let period = fetchPeriod ?? portalPeriod { return PollingPolicy(checkPeriod: period) }
        return dialect == .iNotify
            ? PollingPolicy(checkPeriod: iNotify.checkPeriod) : PollingPolicy.for(dialect)
    }
}
