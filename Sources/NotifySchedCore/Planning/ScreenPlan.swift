/// What the daemon does with the popups already on screen: after a feed changed under them, and
/// when a new daemon finds those a previous one left unanswered.
///
/// Pure decisions over what is on screen and what the feeds hold now; the daemon carries them
/// out (replacing, closing or showing again through the notifier, storing the popup ids).
public enum ScreenPlan {
    /// What becomes of one popup on screen after its source's feed changed.
    public enum Change: Sendable, Equatable {
        /// Its entry changed: the new content is shown in place, under the same occurrence, and
        /// stored so that `handle` and a restarted daemon see it too.
        case replace(DeliveredOccurrence)
        /// Its entry was withdrawn: the popup closes, and nothing is handled or marked for it.
        case close(DeliveredOccurrence)
    }

    /// What a feed change does to the popups on screen from `source`.
    ///
    /// - Parameters:
    ///   - changes: How the new schedule differs from the old (`ScheduleChanges`).
    ///   - old: The entries before, which `changes.withdrawn` indexes.
    ///   - new: The entries now, which `changes.changed` indexes.
    ///   - source: The source whose feed changed.
    ///   - onScreen: The popups on screen, waiting for an answer, of any source.
    /// - Returns: One change per affected popup, in the order of `onScreen`; popups of
    ///   unchanged entries and of other sources are left alone.
    public static func afterFeedChange(
        _ changes: ScheduleChanges, old: [ScheduleEntry], new: [ScheduleEntry], source: String,
        onScreen: [DeliveredOccurrence]
    ) -> [Change] {
        guard onScreen.contains(where: { $0.source == source }) else { return [] }
        let withdrawn = Set(changes.withdrawn.map { old[$0].id })
        let changed = Dictionary(
            changes.changed.map { (new[$0.new].id, new[$0.new]) }, uniquingKeysWith: { first, _ in first })
        return onScreen.compactMap { shown in
            guard shown.source == source else { return nil }
            if withdrawn.contains(shown.entryID) { return .close(shown) }
            guard let entry = changed[shown.entryID] else { return nil }
            return .replace(
                DeliveredOccurrence(
                    id: shown.id, entry: entry, source: source, deliveredAt: shown.deliveredAt, due: shown.due))
        }
    }

    /// Which of the popups a previous daemon left unanswered a new one takes over, so that
    /// their buttons work again: those it does not show itself already and whose entry the
    /// source's feed in force still has. The store chose the candidates (recent, unanswered,
    /// on this server instance, at most `limit`), in their order.
    ///
    /// - Parameters:
    ///   - unanswered: The candidates, each with the id its popup has on the server.
    ///   - shownAlready: The occurrence ids of the popups this daemon shows itself.
    ///   - entries: The entries of each source's feed in force, by location; a source whose
    ///     feed was not read has none.
    /// - Returns: The popups to show again in place, in the order given.
    /// - Complexity: O(*n*) in the entries of the candidates' sources per candidate, with no
    ///   allocation but the result: the candidates are few, the entries may be 10^5.
    public static func takeOver(
        _ unanswered: [PopupOnServer], shownAlready: Set<String>, entries: [String: [ScheduleEntry]]
    ) -> [PopupOnServer] {
        unanswered.filter { candidate in
            !shownAlready.contains(candidate.occurrence.id)
                && entries[candidate.occurrence.source]?.contains { $0.id == candidate.occurrence.entryID } == true
        }
    }
}
