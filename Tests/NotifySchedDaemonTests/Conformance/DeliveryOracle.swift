import NotifySchedCore

/// What the schedule says the daemon must show of one entry, given the facts of the daemon's
/// life (`EmbeddedConformanceRun.Segment`): the rules of DESIGN §3 written out a second time, from
/// the entry's occurrences as `list` computes them (`Trigger.occurrences`), walking forward.
///
/// It shares no planning code with the planner: no `OccurrencePlan`, no `lastOccurrence`, no
/// wheel. Where the rules are stated as a decision at an instant, the oracle decides at the
/// first instant the popup can go out (a server is there, quiet hours do not hold it):
///
/// - An entry outside the application version, or past its `expires`, shows nothing.
/// - An immediate entry shows once, at the first instant it can.
/// - A recurring entry is owed its occurrences after the instant it was first followed; a
///   one-shot entry its one occurrence, whenever it was.
/// - At each such instant, of the occurrences owed and due, the latest is shown (folding the
///   others) when it fell due while the daemon watched the clock, or is no more than
///   `maxLateness` late (counted from the end of the quiet hours that held it); otherwise it is
///   missed. Either way the entry is settled through it, and nothing up to it comes again.
/// - A popup shown by a daemon that crashed before recording it settles nothing: the next
///   daemon may show it again (the documented crash window).
/// - The user's answers: after Ignore nothing more of the entry shows; "Remind Me Later" shows
///   the same occurrence again at the first instant it can once `remindPeriod` (a snooze's own
///   length) has passed, unless a later occurrence, owed by then or already settled, takes its
///   place.
/// - A feed change puts the entry's new definition in force; what is settled and what the user
///   answered hold for its id, also while the feed does not have it.
struct DeliveryOracle {
    /// The entry's id.
    let id: String
    /// Its definition in each version of the feed; nil where the feed does not have it.
    let definitions: [ScheduleEntry?]
    let quietHours: QuietHours?
    let applicationVersion: String
    let remindPeriod: TimeSpan

    /// The popups the daemon must have shown of the entry, in order, given what it showed at
    /// the very instants it crashed (where the order of entries due together decides) and what
    /// the user answered.
    func expectedShows(
        segments: [EmbeddedConformanceRun.Segment], shown: [EmbeddedConformanceRun.Shown]
    ) -> [EmbeddedConformanceRun.Shown] {
        var expected: [EmbeddedConformanceRun.Shown] = []
        var settled: Instant?
        var ignored = false
        var reminder: (occurrence: Instant, due: Instant)?
        func apply(_ answer: EmbeddedConformanceRun.Answer) {
            switch answer.choice {
            case .ignore: ignored = true
            case .remind:
                // Reminded of a popup after a later occurrence was shown or missed: that one took its place.
                guard settled.map({ $0 <= answer.occurrence }) ?? true else { return }
                reminder = (answer.occurrence, answer.at + (answer.snooze ?? remindPeriod))
            case .act: reminder = nil
            case .close: break
            }
        }
        for segment in segments {
            var answers = segment.answers.filter { $0.entryID == id }[...]
            // What is settled, and the answers, hold by id, while the feed has no such entry too.
            guard let entry = definitions[segment.feedVersion], entry.versions.admits(applicationVersion) else {
                answers.forEach(apply)
                continue
            }
            let isRecurring: Bool =
                switch entry.trigger {
                case .repeating, .calendar: true
                default: false
                }
            let isImmediate = if case .immediate = entry.trigger { true } else { false }
            func isLive(_ instant: Instant) -> Bool { entry.expires.map { instant < $0 } ?? true }
            // Followed from the first start at which it is live: an expired entry is not, until
            // the clock steps back before its expiry.
            if isRecurring, settled == nil, isLive(segment.start) { settled = segment.start }
            // Where the next owed occurrence is looked for; nil when none is left.
            var from: Instant? = segment.start
            while !ignored {
                let looking = [from, reminder.map { max($0.due, segment.start) }].compactMap { $0 }.min()
                let candidate = looking.flatMap { firstChance(from: $0, in: segment, for: entry) }
                if let answer = answers.first, candidate.map({ answer.at <= $0 }) ?? true {
                    apply(answer)
                    answers.removeFirst()
                    continue
                }
                guard let at = candidate, isLive(at),
                    at < segment.end || (segment.endsInCrash && at == segment.end)
                else { break }
                if segment.endsInCrash && at == segment.end {
                    // Shown at the crash (or not reached): what the daemon did there stands, and
                    // a popup shown but not recorded settles nothing.
                    let there = shown.filter { $0.entryID == id && $0.at == at }
                    expected += there
                    if let recorded = there.last(where: { !$0.unrecorded }) { settled = recorded.occurrence }
                    break
                }
                let owed: Instant?
                let following: Instant?
                if isImmediate {
                    (owed, following) = (settled == nil ? at : nil, nil)
                } else {
                    (owed, following) = latestOwed(of: entry, atOrBefore: at, after: settled, zone: segment.zone)
                }
                if let latest = owed {
                    let heldUntil = quietHours?.end(holding: entry, at: latest, in: segment.zone) ?? latest
                    let onTime =
                        isImmediate || latest >= segment.watchedFrom || at - max(latest, heldUntil) <= entry.maxLateness
                    if onTime {
                        expected.append(EmbeddedConformanceRun.Shown(entryID: id, occurrence: latest, at: at))
                    }
                    settled = latest
                    // A later occurrence takes the reminded one's place.
                    reminder = nil
                } else if let due = reminder, due.due <= at {
                    expected.append(EmbeddedConformanceRun.Shown(entryID: id, occurrence: due.occurrence, at: at))
                    reminder = nil
                }
                from = following
            }
            // Answers after the entry can show no more still count for a later segment.
            if !ignored { answers.forEach(apply) }
        }
        return expected
    }

    /// The first instant at or after `instant`, inside `segment`, at which a popup of the entry
    /// can go out: a server is there and quiet hours do not hold it. Nil when none is left.
    private func firstChance(
        from instant: Instant, in segment: EmbeddedConformanceRun.Segment, for entry: ScheduleEntry
    ) -> Instant? {
        var candidate = instant
        for _ in 0..<10_000 {
            guard candidate <= segment.end else { return nil }
            if let back = serverReturn(after: candidate, in: segment) {
                candidate = back
                continue
            }
            if let end = quietHours?.end(holding: entry, at: candidate, in: segment.zone) {
                candidate = end
                continue
            }
            return candidate
        }
        return nil
    }

    /// When the server comes back if it is away at `instant`; nil when it is there.
    private func serverReturn(after instant: Instant, in segment: EmbeddedConformanceRun.Segment) -> Instant? {
        var present = segment.serverPresentAtStart
        for change in segment.serverChanges where change.at <= instant { present = change.present }
        guard !present else { return nil }
        return segment.serverChanges.first { $0.at > instant && $0.present }?.at ?? Instant(microseconds: .max / 2)
    }

    /// The latest occurrence in (`settled`, `instant`], and the first after `instant`, by
    /// walking the occurrences forward in batches that grow, since most of the time one or two
    /// are owed.
    private func latestOwed(
        of entry: ScheduleEntry, atOrBefore instant: Instant, after settled: Instant?, zone: ZoneRules
    ) -> (latest: Instant?, following: Instant?) {
        var cursor = settled.map(\.nextMicrosecond) ?? Instant(microseconds: -(1 << 60))
        var latest: Instant?
        var limit = 2
        while true {
            let batch = entry.trigger.occurrences(onOrAfter: cursor, limit: limit, userZone: zone)
            for occurrence in batch {
                guard occurrence <= instant else { return (latest, occurrence) }
                latest = occurrence
            }
            guard let last = batch.last, batch.count == limit else { return (latest, nil) }
            cursor = last.nextMicrosecond
            limit = min(limit * 2, 256)
        }
    }
}
