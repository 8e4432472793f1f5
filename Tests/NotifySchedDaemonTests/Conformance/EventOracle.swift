import Foundation
import NotifySchedCore

/// What the seeds say an event chooses, restated from seed semantics §1.3–§1.7 and §2.4–§2.7
/// with its own state and none of the core's code: the iNotify check, the iSmartNews display
/// cycle (global events, classic messages, counter, window, queues, gate) and the event-driven
/// entries of a portal feed. It learns what the user answered, and from the harness what is on
/// screen or waiting (facts of delivery, not decisions), and says what each event must choose.
///
/// Patterns are read from `EventScenario.patterns`, a table written out by hand.
struct EventOracle {
    /// What the user does with a popup or a prompt: a button (by its action key), or a close.
    enum Answer: String {
        case open, ok, remind, ignore, cancel, close
    }

    /// A popup an event must choose: its message (iNotify key, iSmartNews title, entry id) and
    /// its occurrence.
    struct Choice: Equatable, CustomStringConvertible {
        var name: String
        var occurrence: Instant

        var description: String { "\(name) at \(occurrence.rfc3339)" }
    }

    private let scenario: EventScenario
    /// The feeds in force.
    private var feeds: EventScenario.Feeds
    // iNotify's stored state (§1.2).
    private var hasRun = false
    private var lastChecked: Instant?
    private var lastReminded: Instant?
    private var viewed: Set<String> = []
    private var ignored: Set<String> = []
    // iSmartNews's stored state (§2.4–§2.7).
    private var runCounter = 0
    /// Messages marked shown, by their whole content: an edited message is another message.
    private var shownMessages: Set<String> = []
    private var queueIndexes: [String: Int] = [:]
    /// Each global event object's pattern and the steps it took, by its name and its rank among
    /// the global events of that name: a changed pattern starts again.
    private var globalSteps: [String: (pattern: String, steps: Int)] = [:]
    // The portal feed's event-driven entries.
    /// Each rule's pattern and the steps it took, by entry id and event name.
    private var ruleSteps: [String: (pattern: String, steps: Int)] = [:]
    private var ignoredEntries: Set<String> = []

    init(_ scenario: EventScenario) {
        self.scenario = scenario
        feeds = scenario.versions[0]
    }

    /// The feeds changed. Progress of an event no longer in them is forgotten at the source's
    /// next event (iSmartNews deletes it when it loads the feed; notify-sched's next event is
    /// the first to read it).
    mutating func feedsChanged(to version: Int) {
        feeds = scenario.versions[version]
    }

    /// Takes one step of the pattern kept at `key` in `progress`, starting it again when the
    /// pattern text changed; whether the step is on.
    private static func step(
        _ key: String, _ pattern: String, in progress: inout [String: (pattern: String, steps: Int)]
    ) -> Bool {
        var kept = progress[key] ?? (pattern, 0)
        if kept.pattern != pattern { kept = (pattern, 0) }
        let steps = EventScenario.steps(of: pattern)
        let isOn = steps[kept.steps % steps.count]
        kept.steps += 1
        progress[key] = kept
        return isOn
    }

    /// The names an object may carry to match a posted event (seed semantics §2.7): the daemon
    /// starting is iSmartNews's launch, a resume or an unlock its return to the application.
    private static func names(matching event: String) -> Set<String> {
        let name = event.lowercased()
        switch name {
        case "session:start": return [name, "app:didfinishlaunching"]
        case "session:resume", "session:unlock": return [name, "app:activate"]
        default: return [name]
        }
    }

    /// iNotify's `shouldCheckForNotifications` then one check (§1.3–§1.5). `hasPopup`: a popup of
    /// the source is on screen or waiting, so none more is chosen (§5.29).
    mutating func iNotifyCheck(force: Bool, hasPopup: Bool, now: Instant) -> [Choice] {
        let settings = scenario.iNotifySettings
        if !force, !settings.debug {
            if !settings.showOnFirstLaunch, !hasRun {
                hasRun = true
                return []
            }
            if let lastReminded {
                if now - lastReminded < settings.remindPeriod { return [] }
            } else if let lastChecked, now - lastChecked < settings.checkPeriod {
                return []
            }
        }
        hasRun = true
        lastChecked = now
        if hasPopup { return [] }
        let keys = feeds.iNotifyMessages
        var candidates = keys.filter { !viewed.contains($0.key) && !ignored.contains($0.key) }
        if settings.debug, candidates.isEmpty, !keys.isEmpty {
            candidates = keys
            viewed = []
            ignored = []
        }
        if let version = settings.applicationVersion {
            candidates.removeAll { message in
                message.minVersion.map { version.compare($0, options: .numeric) == .orderedAscending } == true
                    || message.maxVersion.map { version.compare($0, options: .numeric) == .orderedDescending } == true
            }
        }
        // caseInsensitiveCompare: case folded, not numeric; the newest is the last.
        let ordered = candidates.map(\.key).sorted { $0.lowercased() < $1.lowercased() }
        guard let key = settings.showOldestFirst ? ordered.first : ordered.last else { return [] }
        return [Choice(name: key, occurrence: now)]
    }

    /// One iSmartNews display cycle of `event` (§2.5–§2.7), leaving out what `waiting` holds.
    mutating func newsCycle(_ event: String, countsAsRun: Bool, waiting: Set<String>, now: Instant) -> [Choice] {
        let news = feeds.news
        let names = Self.names(matching: event)
        let globals =
            news.globalEvents.isEmpty
            ? ["app:activate", "app:didfinishlaunching", "app:didfinishlaunchingafterupgrade"].map { ($0, "ON=1") }
            : news.globalEvents
        var ranks: [String: Int] = [:]
        let keyed = globals.map { global in
            ranks[global.0, default: 0] += 1
            return (key: "\(global.0)#\(ranks[global.0]!)", name: global.0, pattern: global.1)
        }
        globalSteps = globalSteps.filter { kept in keyed.contains { $0.key == kept.key } }
        if countsAsRun { runCounter += 1 }
        var matched = false
        var active = false
        for global in keyed where names.contains(global.name) {
            matched = true
            if Self.step(global.key, global.pattern, in: &globalSteps) { active = true }
        }
        if matched ? !active : !names.contains("app:activate") { return [] }
        let eligible = news.messages.filter { message in
            !shownMessages.contains(message.json) && (message.start.map { $0 <= now } ?? true)
                && (message.end.map { now < $0 } ?? true)
                && !(runCounter != 0 && (message.counter ?? 0) > 0 && runCounter < message.counter!)
        }
        var items = eligible.filter { $0.queue == nil }.map { (name: $0.title, delay: TimeSpan.zero) }
        for queue in Set(eligible.compactMap { $0.queue?.lowercased() }).sorted() {
            // The gate drops the rest of the cycle: a queue not reached does not turn.
            if let gate = news.gate, items.count >= gate { break }
            let members = eligible.filter { $0.queue?.lowercased() == queue }
            var index = queueIndexes[queue] ?? 0
            if index >= members.count { index = 0 }
            queueIndexes[queue] = index + 1
            let timeout = news.queueTimeouts.first { $0.name.lowercased() == queue }.map {
                TimeSpan.seconds($0.seconds)
            }
            items.append((members[index].title, items.isEmpty ? .zero : timeout ?? .zero))
        }
        if let gate = news.gate { items = Array(items.prefix(gate)) }
        var at = now
        var choices: [Choice] = []
        for item in items {
            at = at + item.delay
            if !waiting.contains(item.name) { choices.append(Choice(name: item.name, occurrence: at)) }
        }
        return choices
    }

    /// What an occurrence of `event` shows of the portal feed's event-driven entries: each rule
    /// that names it takes a step, and an entry one of whose steps is on is shown, unless it
    /// expired or was ignored (then it takes no part) or waits already.
    mutating func eventEntries(_ event: String, waiting: Set<String>, now: Instant) -> [Choice] {
        let names = Self.names(matching: event)
        var choices: [Choice] = []
        let entries = feeds.eventEntries
        ruleSteps = ruleSteps.filter { kept in
            entries.contains { entry in entry.rules.contains { "\(entry.id)#\($0.name)" == kept.key } }
        }
        for entry in entries where (entry.expires.map { now < $0 } ?? true) {
            guard !ignoredEntries.contains(entry.id) else { continue }
            var isOn = false
            for rule in entry.rules where names.contains(rule.name) {
                if Self.step("\(entry.id)#\(rule.name)", rule.pattern, in: &ruleSteps) { isOn = true }
            }
            if isOn, !waiting.contains(entry.id) { choices.append(Choice(name: entry.id, occurrence: now)) }
        }
        return choices
    }

    /// What the user answered to a popup of `name` (§1.7, §2.4; Ignore stops an event-driven
    /// entry as it stops a portal entry).
    mutating func answered(_ answer: Answer, name: String, source: Int, now: Instant) {
        switch (source, answer) {
        case (0, .open), (0, .ok):
            viewed.insert(name)
            lastReminded = nil
        case (0, .remind):
            lastReminded = now
        case (0, .ignore):
            ignored.insert(name)
            lastReminded = nil
        case (1, .open):
            if let message = feeds.news.messages.first(where: { $0.title == name }), !message.always {
                shownMessages.insert(message.json)
            }
        case (1, .cancel):
            if let message = feeds.news.messages.first(where: { $0.title == name }),
                !message.always, !message.repeats
            {
                shownMessages.insert(message.json)
            }
        case (2, .ignore):
            ignoredEntries.insert(name)
        default:
            break
        }
    }
}
