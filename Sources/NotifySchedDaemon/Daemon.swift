import NotifySchedCore
import NotifySchedDesktop
import NotifySchedNetwork
import NotifySchedPlatform
import NotifySchedStore

/// `notify-sched daemon`: follows the configured feeds and delivers every occurrence on time.
///
/// One thread, one GLib main loop (DESIGN §8). Timed entries wait in a `TimerWheel`; one
/// `WallClockTimer` is armed at the wheel's next deadline, and a clock step or a resume from
/// suspend wakes it with `clockChanged`, which re-plans everything. Each occurrence goes through
/// `OccurrencePlan` against the ledger, so missed ones are folded or recorded as missed and
/// nothing recorded is shown again. At start the session-start event runs the iNotify checks
/// and the iSmartNews display cycles. Delivery and clicks go through `NotificationHandler`.
public final class Daemon {
    /// The daemon's well-known name on the session bus: owning it makes it the only one.
    public static let busName = "org.notify_sched.Daemon"
    /// The path of its control object.
    public static let objectPath = "/org/notify_sched/Daemon"
    /// The interface of its control object.
    public static let interface = "org.notify_sched.Daemon1"
    /// The control interface, as D-Bus introspection XML.
    static let introspection = """
        <node>
          <interface name="org.notify_sched.Daemon1">
            <!-- Posts a named event (iSmartNews patterns): returns what it showed, in words. -->
            <method name="PostEvent">
              <arg name="name" type="s" direction="in"/>
              <arg name="result" type="s" direction="out"/>
            </method>
          </interface>
        </node>
        """
    /// How long a popup that could not be shown (no notification server) waits before a retry.
    static let retryDelay = TimeSpan.seconds(30)

    private let configuration: Configuration
    private let notifier = DesktopNotifier()
    private let timer: WallClockTimer
    private let store: StateStore
    private let logFile: DeliveryLogFile
    private let loader: PortalFeedLoader
    private let parser: FeedParser
    private let report: (String) -> Void
    private var handler: NotificationHandler!
    private var delivered: DeliveryLog
    private var sources: [FollowedSource] = []
    private var references: [EntryReference] = []
    private var wheel: TimerWheel<UInt32>
    private var userZone: ZoneRules

    /// Claims the daemon's bus name and prepares the daemon; nothing is shown until `run()`.
    ///
    /// - Parameters:
    ///   - configuration: The settings and sources (`--feed` already applied).
    ///   - paths: Where the state lives.
    ///   - environment: For the user's zone and language.
    ///   - report: Where log lines go (standard error; journald reads it under systemd).
    /// - Throws: `DaemonError` with `.alreadyRunning` when another daemon owns the name, or
    ///   `.unavailable` when the session bus, the state or the timer cannot be had.
    public init(
        configuration: Configuration, paths: UserDirectories, environment: [String: String],
        report: @escaping (String) -> Void
    ) throws(DaemonError) {
        self.configuration = configuration
        self.report = report
        // The name first: a second daemon must leave before it touches the state.
        do {
            guard try notifier.claimBusName(Self.busName) else {
                throw DaemonError(
                    .alreadyRunning, "another notify-sched daemon is already running (it owns \(Self.busName))")
            }
        } catch let error as DaemonError {
            throw error
        } catch {
            throw DaemonError(.unavailable, "\(error)")
        }
        do {
            timer = try WallClockTimer()
            store = try StateStore(path: paths.stateDatabase)
            logFile = DeliveryLogFile(environment: environment)
            delivered = try logFile.read()
            // The fetcher's thread starts only when a feed is a URL.
            let fetcher =
                configuration.sources.contains { PortalFeedLoader.isURL($0.feed) } ? try FeedFetcher() : nil
            loader = PortalFeedLoader(fetcher: fetcher, directories: paths)
        } catch {
            // Each of these errors describes itself by its message, naming the file or the cause.
            throw DaemonError(.unavailable, "\(error)")
        }
        let zones = TimeZoneDatabase()
        userZone = SystemTimeZone.current(environment: environment, database: zones)
        let language = LanguagePreference.fromEnvironment(environment)
        parser = FeedParser(zones: zones, urlPolicy: configuration.urlPolicy, language: language, userZone: userZone)
        let now = WallClock.now()
        wheel = TimerWheel(now: now)
        handler = NotificationHandler(
            policy: HandlingPolicy(labels: ButtonLabels(language: language), urlPolicy: configuration.urlPolicy),
            notifier: notifier, state: delivered.state, lookup: { [unowned self] in self.delivered.occurrence(id: $0) },
            now: WallClock.now)
        handler.onOutcome = { [unowned self] outcome in self.handled(outcome) }
    }

    /// Loads the feeds, delivers what is due and runs until SIGTERM or SIGINT.
    ///
    /// - Throws: `DaemonError` with `.unavailable` when the control object cannot be exported.
    public func run() throws(DaemonError) {
        // AsyncHTTPClient must be shut down before it is released, whichever way this returns.
        defer { loader.fetcher?.shutdown() }
        do {
            _ = try BusService(path: Self.objectPath, introspection: Self.introspection) {
                [unowned self] method, arguments in
                guard method == "PostEvent", let name = arguments.first, !name.isEmpty else {
                    throw DaemonError(.unavailable, "unknown call \(method)")
                }
                return [self.postEvent(name, at: WallClock.now())]
            }
        } catch {
            throw DaemonError(.unavailable, "\(error)")
        }
        notifier.onTermination { [unowned self] in
            self.report("notify-sched: stopping")
            self.notifier.stop()
        }
        notifier.watchReadable(timer.fileDescriptor) { [unowned self] in self.timerWoke() }
        notifier.onServerChange = { [unowned self] server in
            self.report("notify-sched: notification server: \(server?.summary ?? "none")")
            // Popups that waited for a server go out now rather than at their next retry.
            if server != nil { self.replan(at: WallClock.now()) }
        }
        loadSources()
        let now = WallClock.now()
        startSession(at: now)
        replan(at: now)
        notifier.run()
    }

    // MARK: Feeds

    /// Reads every source once: files, and portal URLs through the fetcher and its last-good
    /// cache (a failed fetch falls back to the cached copy). Polling on each source's period is
    /// not done yet: a URL source is fetched at start.
    private func loadSources() {
        let now = WallClock.now()
        sources = configuration.sources.map { source in
            var key: FeedPublicKey?
            if let text = source.publicKey {
                do {
                    key = try FeedPublicKey(base64: text)
                } catch {
                    report("notify-sched: source \(source.name): \(error); not following it")
                    return FollowedSource(location: source.feed, settings: source.settings, schedule: nil)
                }
            }
            let loaded = loader.load(source.feed, publicKey: key, parser: parser, now: now)
            for warning in loaded.warnings { report("notify-sched: warning: \(warning)") }
            if let failure = loaded.failure, loaded.parsed == nil { report("notify-sched: \(failure)") }
            for problem in loaded.parsed?.diagnostics ?? [] where problem.severity == .error {
                report("notify-sched: \(source.feed): \(problem.error)")
            }
            return FollowedSource(location: source.feed, settings: source.settings, schedule: loaded.parsed?.schedule)
        }
        references = sources.indices.flatMap { sourceIndex in
            (sources[sourceIndex].schedule?.entries.indices ?? 0..<0).map {
                EntryReference(source: sourceIndex, entry: $0)
            }
        }
        // Parsing a big feed peaks well above what the schedule keeps; give the freed pages back.
        FreedMemory.release()
        let count = references.count
        report(
            "notify-sched: following \(sources.count) feed\(sources.count == 1 ? "" : "s"), \(count) entr\(count == 1 ? "y" : "ies")"
        )
    }

    private func entry(_ reference: EntryReference) -> ScheduleEntry? {
        sources[reference.source].schedule?.entries[reference.entry]
    }

    // MARK: Time

    /// Rebuilds the wheel from the ledger: at start, and after the clock changed.
    private func replan(at now: Instant) {
        wheel = TimerWheel(now: now)
        var recorded: [Int: [String: Instant]] = [:]
        for index in sources.indices {
            do {
                recorded[index] = try store.lastRecorded(source: sources[index].location)
            } catch {
                report("notify-sched: \(error.message)")
            }
        }
        for (index, reference) in references.enumerated() {
            guard let known = recorded[reference.source] else {
                // The ledger could not be read: try this source again shortly rather than guess.
                wheel.schedule(UInt32(index), at: now + Self.retryDelay)
                continue
            }
            plan(UInt32(index), reference, at: now, lastRecorded: entry(reference).flatMap { known[$0.id] })
        }
        armTimer()
    }

    private func timerWoke() {
        let now = WallClock.now()
        switch timer.acknowledge() {
        case .clockChanged:
            report("notify-sched: the clock changed; planning again")
            replan(at: now)
        case .expired, .none:
            for (_, element) in wheel.advance(to: now) {
                plan(element, references[Int(element)], at: now)
            }
            armTimer()
        }
    }

    private func armTimer() {
        timer.arm(at: wheel.nextDeadline)
    }

    /// Delivers or records what is due of one timed entry and schedules its next occurrence.
    private func plan(_ element: UInt32, _ reference: EntryReference, at now: Instant) {
        guard let entry = entry(reference) else { return }
        do {
            let last = try store.lastRecorded(source: sources[reference.source].location, entryID: entry.id)
            plan(element, reference, at: now, lastRecorded: last)
        } catch {
            report("notify-sched: \(error.message)")
            wheel.schedule(element, at: now + Self.retryDelay)
        }
    }

    /// `plan(_:_:at:)` with the entry's last recorded occurrence already read.
    private func plan(_ element: UInt32, _ reference: EntryReference, at now: Instant, lastRecorded: Instant?) {
        guard let entry = entry(reference) else { return }
        let source = sources[reference.source].location
        let plan = OccurrencePlan(for: entry, lastRecorded: lastRecorded, now: now, userZone: userZone)
        if let missed = plan.missed {
            record(entry, of: source, occurrence: missed, .missed, at: now)
        }
        if let due = plan.deliver {
            if let quietEnd = quietHoursEnd(for: entry, at: now) {
                wheel.schedule(element, at: quietEnd)
                return
            }
            guard deliver(entry, of: source, occurrence: due, at: now) else {
                wheel.schedule(element, at: now + Self.retryDelay)
                return
            }
        }
        if let next = plan.next { wheel.schedule(element, at: next) }
    }

    /// When the quiet hours holding `now` end, unless `entry` is critical.
    private func quietHoursEnd(for entry: ScheduleEntry, at now: Instant) -> Instant? {
        guard entry.content.urgency != .critical else { return nil }
        return configuration.quietHours?.end(containing: now, in: userZone)
    }

    // MARK: Events

    /// The session-start event: iNotify sources are checked, iSmartNews sources run a cycle
    /// (and count a run).
    private func startSession(at now: Instant) {
        for source in sources {
            guard let schedule = source.schedule else { continue }
            switch schedule.dialect {
            case .iNotify: checkINotify(source, schedule, at: now)
            case .iSmartNews: _ = runNewsCycle(event: "session:start", countsAsRun: true, source, schedule, at: now)
            case .native, .zbim: break
            }
        }
    }

    /// An event posted with `notify-sched event NAME`: every iSmartNews source runs a cycle of it.
    ///
    /// - Returns: What it showed, in words, for the caller to print.
    private func postEvent(_ name: String, at now: Instant) -> String {
        var shown = 0
        for source in sources {
            guard let schedule = source.schedule, schedule.dialect == .iSmartNews else { continue }
            shown += runNewsCycle(event: name, countsAsRun: false, source, schedule, at: now)
        }
        report("notify-sched: event \(name): \(shown) shown")
        return "\(name): \(shown) shown"
    }

    private func checkINotify(_ source: FollowedSource, _ schedule: Schedule, at now: Instant) {
        let settings = source.settings.iNotify
        do {
            var state = try store.sourceState(source.location)
            let handling = handler.state[source.location]
            switch INotifyCheck.decision(
                at: now, settings: settings, hasRunBefore: state.hasRun, lastChecked: state.lastChecked,
                lastReminded: handling.lastReminded)
            {
            case .firstLaunch:
                report("notify-sched: \(source.location): first start, not checking (show-on-first-launch is off)")
            case .throttled(let until):
                report("notify-sched: \(source.location): next check from \(until.rfc3339)")
            case .check:
                let selection = INotifyCheck.select(
                    from: schedule.entries, viewed: handling.viewed, ignored: handling.ignored, settings: settings,
                    canOpen: notifier.canOpen)
                if selection.detected.isEmpty { report("notify-sched: \(source.location): no new notifications") }
                if let key = selection.key, let entry = schedule.entries.first(where: { $0.id == key }) {
                    _ = deliver(entry, of: source.location, occurrence: now, at: now)
                }
                state.lastChecked = now
            }
            state.hasRun = true
            try store.setSourceState(state, for: source.location)
        } catch {
            report("notify-sched: \(source.location): \(error)")
        }
    }

    /// Runs one iSmartNews display cycle of `event`; returns how many popups it showed.
    private func runNewsCycle(
        event: String, countsAsRun: Bool, _ source: FollowedSource, _ schedule: Schedule, at now: Instant
    ) -> Int {
        var shown = 0
        do {
            var state = try store.newsState(source.location)
            if countsAsRun { state.runCounter += 1 }
            let cycle = NewsCycle(
                event: event, schedule: schedule, state: state, shown: handler.state[source.location].shownNews,
                now: now)
            for item in cycle.items {
                if let entry = schedule.entries.first(where: { $0.id == item.entryID }),
                    deliver(entry, of: source.location, occurrence: now, at: now)
                {
                    shown += 1
                }
            }
            try store.setNewsState(cycle.state, for: source.location)
        } catch {
            report("notify-sched: \(source.location): \(error)")
        }
        return shown
    }

    // MARK: Delivery and handling

    /// Shows one occurrence and records it once the server accepted it; false when it could not be shown.
    private func deliver(_ entry: ScheduleEntry, of source: String, occurrence: Instant, at now: Instant) -> Bool {
        let id = LedgerRecord.occurrenceID(source: source, entryID: entry.id, occurrence: occurrence)
        let shown = DeliveredOccurrence(id: id, entry: entry, source: source, deliveredAt: now)
        do {
            try handler.deliver(shown)
        } catch {
            report("notify-sched: \(error.message)")
            // An action nothing opens is not retried: the entry is passed over (seed semantics §5.20).
            return error.code == .cannotOpen
        }
        // The ledger is written after the server accepted the popup: a crash in between shows it
        // once more on restart rather than never.
        record(entry, of: source, occurrence: occurrence, .delivered, at: now)
        delivered.record(shown)
        do {
            try logFile.update { $0.record(shown) }
        } catch {
            report("notify-sched: \(error.message)")
        }
        report("notify-sched: delivered \(entry.id) (\(id)) due \(occurrence.rfc3339)")
        return true
    }

    private func record(
        _ entry: ScheduleEntry, of source: String, occurrence: Instant, _ outcome: LedgerOutcome, at now: Instant
    ) {
        let record = LedgerRecord(
            occurrenceID: LedgerRecord.occurrenceID(source: source, entryID: entry.id, occurrence: occurrence),
            source: source, entryID: entry.id, occurrence: occurrence, outcome: outcome, recordedAt: now)
        do {
            try store.record(record)
        } catch {
            report("notify-sched: \(error.message)")
        }
    }

    /// Stores what the user's answer changed, and its outcome in the ledger.
    private func handled(_ outcome: HandlingOutcome) {
        let source = outcome.occurrence.source
        if let failure = outcome.failure { report("notify-sched: \(failure.message)") }
        if outcome.change != nil {
            let state = handler.state[source]
            do {
                try logFile.update { $0.state[source] = state }
            } catch {
                report("notify-sched: \(error.message)")
            }
        }
        let ledgerOutcome: LedgerOutcome? =
            switch outcome.change {
            case .viewed?, .newsShown?: .acted
            case .ignored?: .ignored
            case .reminded?: .reminded
            case nil: outcome.failure == nil ? .closed : nil
            }
        guard let ledgerOutcome else { return }
        do {
            if var record = try store.ledgerRecord(occurrenceID: outcome.occurrence.id) {
                record.outcome = ledgerOutcome
                record.recordedAt = WallClock.now()
                try store.record(record)
            }
        } catch {
            report("notify-sched: \(error.message)")
        }
    }
}
