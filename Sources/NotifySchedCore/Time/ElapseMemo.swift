/// Calendar elapses already found while many entries are planned at one instant.
///
/// Feeds repeat their calendar expressions (a team's hundred reminders at `Mon..Fri 09:00`),
/// and planning them at one instant searches the same elapse again and again, at some 2.5 µs
/// a search. An elapse depends only on the expression, the zone and the base, so a found one
/// is exact for every entry that asks again.
public struct ElapseMemo {
    private struct Question: Hashable {
        let expression: CalendarExpression
        let zone: ZoneRules
        let after: Instant
    }

    /// At most this many answers are kept; then they are dropped and found again: a feed of
    /// 10^5 different expressions costs no more memory than this.
    private let capacity: Int
    private var answers: [Question: Instant?] = [:]

    /// A memo keeping up to `capacity` answers; one keeping none searches every question, for
    /// a caller that asks nothing twice (one entry planned alone, a look back that bisects).
    public init(keeping capacity: Int = 1024) {
        self.capacity = capacity
    }

    /// `expression.nextElapse(after: after, in: zone)`, found once.
    mutating func nextElapse(of expression: CalendarExpression, after: Instant, in zone: ZoneRules) -> Instant? {
        guard capacity > 0 else { return expression.nextElapse(after: after, in: zone) }
        let question = Question(expression: expression, zone: zone, after: after)
        if let answer = answers[question] { return answer }
        let answer = expression.nextElapse(after: after, in: zone)
        if answers.count >= capacity { answers.removeAll(keepingCapacity: true) }
        answers[question] = answer
        return answer
    }
}
