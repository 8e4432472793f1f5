extension HandlingOutcome {
    /// What `notify-sched handle` and `test --wait` print about the outcome, a line each: the
    /// answer (`action: KEY` or `closed: REASON`), `opened: URL`, `marked: CHANGE` and, for a
    /// snooze, `until: TIME` (RFC 3339 UTC). The failure, if any, is not among them: callers
    /// report it as an error.
    public var reportLines: [String] {
        var lines: [String] = []
        if let response { lines.append(response.description) }
        if let opened { lines.append("opened: \(opened)") }
        if let change { lines.append("marked: \(change.rawValue)") }
        if let remindUntil { lines.append("until: \(remindUntil.rfc3339)") }
        return lines
    }

    /// How a control call waiting for this outcome is answered: `handled` or `failed`, and
    /// what happened, a line each (the failure last).
    public var callAnswer: (status: String, report: String) {
        var lines = reportLines
        if let failure { lines.append(failure.message) }
        return (failure == nil ? "handled" : "failed", lines.joined(separator: "\n"))
    }
}
