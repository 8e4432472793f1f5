import NotifySchedCore

/// What the caps allow, checked on what the daemon did (`EmbeddedConformanceRun`): the rules
/// of "Caps, groups and priority" (docs/feed-formats.md) written out a second time, as counts
/// over the popups the server took, in the order they went out. It shares no code with the
/// core's `CapGate` and `ImpressionLog`.
///
/// - An impression is the first popup of an occurrence the ledger recorded: a popup shown again
///   for the same occurrence (a reminder, a crash's re-issue) is none, and one shown by a
///   daemon killed before recording it is none (the documented crash window).
/// - **Over-show**: an impression that a bound in force when it went out did not allow: its
///   entry's `frequency`, a group's (counting the impressions of the group's members as they
///   were when each went out), or `max-popups` (counting all but critical popups); or one of a
///   disabled group's members.
/// - **Needless suppression**: a suppression whose reason does not hold: the bound it names is
///   not in force, or the impressions that went out before it do not reach it. (The core
///   counts only the popups whose showing was answered; those are among the ones that went
///   out before, so a reason that these do not make hold, nothing did.)
struct CapOracle {
    /// The schedule of each version of the feed.
    let schedules: [Schedule]
    let maxPopups: PopupBound?

    private struct Counted {
        var entryID: String
        var at: Instant
        var groups: [String]
        var critical: Bool
        var place: Int
    }

    /// The over-shows and the needless suppressions, each in words.
    func violations(
        shown: [EmbeddedConformanceRun.Shown], suppressed: [EmbeddedConformanceRun.Suppressed]
    ) -> (overShows: [String], needless: [String], impressions: Int) {
        var counted: [Counted] = []
        var seen: Set<String> = []
        var overShows: [String] = []
        for popup in shown where !popup.unrecorded {
            guard seen.insert("\(popup.entryID) \(popup.occurrence.microseconds)").inserted,
                let entry = entry(popup.entryID, version: popup.feedVersion)
            else { continue }
            let impression = Counted(
                entryID: popup.entryID, at: popup.at, groups: entry.deliveryRules?.groups ?? [],
                critical: entry.content.urgency == .critical, place: popup.place)
            if let broken = brokenBound(for: impression, entry: entry, version: popup.feedVersion, before: counted) {
                overShows.append("\(popup) went out beyond \(broken)")
            }
            counted.append(impression)
        }
        var needless: [String] = []
        for suppression in suppressed {
            let before = counted.filter { $0.place < suppression.shownBefore }
            if let why = unfounded(suppression, before: before) { needless.append("\(suppression): \(why)") }
        }
        return (overShows, needless, counted.count)
    }

    private func entry(_ id: String, version: Int) -> ScheduleEntry? {
        schedules[version].entries.first { $0.id == id }
    }

    private func group(_ id: String, version: Int) -> MessageGroup? {
        schedules[version].groups.first { $0.id == id }
    }

    /// How many of `instants` a window of `period` ending at `now` holds: those after its start,
    /// and any after `now` (a clock stepped back).
    private static func inWindow(_ instants: [Instant], period: TimeSpan?, at now: Instant) -> Int {
        guard let period else { return instants.count }
        return instants.filter { $0 > now - period }.count
    }

    /// The bounds of a `frequency`: the lifetime (no period) and each window.
    private static func bounds(of frequency: FrequencyCap?) -> [CapLimit] {
        guard let frequency else { return [] }
        return (frequency.lifetime.map { [CapLimit(cap: $0, period: nil)] } ?? [])
            + frequency.windows.map { CapLimit(cap: $0.cap, period: $0.period) }
    }

    /// The first bound in force that `impression` broke, given the impressions before it.
    private func brokenBound(
        for impression: Counted, entry: ScheduleEntry, version: Int, before: [Counted]
    ) -> String? {
        if let targeting = entry.deliveryRules?.targeting, ConformanceScenario.targetings[targeting.text] != true {
            return "its targeting, which does not hold"
        }
        if let rollout = entry.deliveryRules?.rollout, rollout.count == 0 { return "its rollout, to no desktop" }
        let own = before.filter { $0.entryID == impression.entryID }.map(\.at)
        for bound in Self.bounds(of: entry.deliveryRules?.frequency)
        where Self.inWindow(own, period: bound.period, at: impression.at) >= bound.cap {
            return "its frequency, \(bound.words)"
        }
        for id in impression.groups {
            guard let group = group(id, version: version) else { continue }
            if !group.enabled { return "group \(id), disabled" }
            let members = before.filter { $0.groups.contains(id) }.map(\.at)
            for bound in Self.bounds(of: group.frequency)
            where Self.inWindow(members, period: bound.period, at: impression.at) >= bound.cap {
                return "group \(id), \(bound.words)"
            }
        }
        if let maxPopups, !impression.critical {
            let all = before.filter { !$0.critical }.map(\.at)
            if Self.inWindow(all, period: maxPopups.period, at: impression.at) >= maxPopups.count {
                return "max-popups \(maxPopups.count) per \(maxPopups.period.rough)"
            }
        }
        return nil
    }

    /// Why `suppression`'s reason does not hold; nil when it does.
    private func unfounded(_ suppression: EmbeddedConformanceRun.Suppressed, before: [Counted]) -> String? {
        let version = suppression.feedVersion
        guard let entry = entry(suppression.entryID, version: version) else { return "no such entry" }
        let groups = entry.deliveryRules?.groups ?? []
        let instants: [Instant]
        let inForce: [CapLimit]
        switch suppression.reason {
        case .groupDisabled(let id):
            return groups.contains(id) && group(id, version: version)?.enabled == false ? nil : "not a disabled group"
        case .entryCap:
            instants = before.filter { $0.entryID == entry.id }.map(\.at)
            inForce = Self.bounds(of: entry.deliveryRules?.frequency)
        case .groupCap(let id, _):
            guard groups.contains(id), let group = group(id, version: version) else { return "not its group" }
            instants = before.filter { $0.groups.contains(id) }.map(\.at)
            inForce = Self.bounds(of: group.frequency)
        case .targeting(let verdict):
            return entry.deliveryRules?.targeting?.text == verdict.expression
                && ConformanceScenario.targetings[verdict.expression] == false ? nil : "its targeting holds"
        case .outsideRollout(let rollout, _):
            return entry.deliveryRules?.rollout == rollout && rollout.count == 0 ? nil : "it is rolled out here"

        case .popupBound(let source, _):
            guard source == nil, let maxPopups, entry.content.urgency != .critical else { return "no such bound" }
            instants = before.filter { !$0.critical }.map(\.at)
            inForce = [CapLimit(cap: maxPopups.count, period: maxPopups.period)]
        }
        guard let limit = suppression.reason.limit, inForce.contains(limit) else { return "the bound is not in force" }
        let count = Self.inWindow(instants, period: limit.period, at: suppression.at)
        return count >= limit.cap ? nil : "only \(count) impressions counted"
    }
}
