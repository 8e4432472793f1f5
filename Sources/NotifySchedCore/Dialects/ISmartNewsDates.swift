/// Reads an iSmartNews meta item's `dates` (seed semantics §2.8): ranges between two dates, or
/// recurring weekly (`MO(09:00)`…`SU(18:00)`) or monthly (`1(09:00)`…`15(18:00)`), or built
/// from `templates` (`weekdays`, `weekend`, `each_day_of_weekdays`, `each_day_of_weekend`,
/// `each_day`) with `(hh:mm)` times; each with an optional `shownlimit`.
struct ISmartNewsDates {
    let mapping: FeedMapping
    /// Applied to every absolute date (`uselocaltime`).
    let shift: (Instant) -> Instant

    private static let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// The ranges of `elements`, the item's `dates` at `place`; nil when one is malformed,
    /// which drops the item, as iSmartNews does.
    func ranges(_ elements: [FeedNode], uuid: String, at place: FeedPlace) -> [ShowRange]? {
        var ranges: [ShowRange] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPlace = place.element(index)
            guard case .dictionary(let dictionary) = element.value else {
                mapping.error(
                    .wrongType, "a range must be a dictionary, not \(element.value.typeName)",
                    at: FeedLocation(keyPath: elementPlace.path, line: element.line))
                valid = false
                continue
            }
            var reader = FieldReader(
                dictionary, at: elementPlace, line: element.line, mapping: mapping, readsAsISmartNews: true)
            defer { reader.reportUnknownKeys() }
            let errorsBefore = mapping.errorCount
            let id = reader.string("uuid") ?? "\(uuid)#\(index)"
            let limit = reader.count("shownlimit")
            let read: [ShowRange.Span]?
            if let templates = reader.string("templates") {
                read = templateSpans(templates, &reader)
            } else {
                read = span(&reader).map { [$0] }
            }
            guard let spans = read, mapping.errorCount == errorsBefore else {
                valid = false
                continue
            }
            if spans.contains(where: { !$0.canHold }) {
                mapping.warning(
                    .invalidValue,
                    "the range ends before it starts, so it never holds (iSmartNews compares the two as they are; "
                        + "split a range over the week's or the month's end in two)",
                    at: reader.location)
            }
            let ids = spans.count == 1 ? [id] : spans.indices.map { "\(id)#\($0)" }
            for (span, spanID) in zip(spans, ids) {
                ranges.append(ShowRange(id: spanID, span: span, shownLimit: limit))
            }
        }
        return valid ? ranges : nil
    }

    /// `start` and `end` of one range: both dates, both weekly or both monthly.
    private func span(_ reader: inout FieldReader) -> ShowRange.Span? {
        let start = bound("start", &reader)
        let end = bound("end", &reader)
        guard let start, let end else {
            for key in ["start", "end"] where reader.node(key) == nil { reader.missing(key, ": a range has both") }
            return nil
        }
        switch (start, end) {
        case (.date(let from), .date(let to)): return .between(shift(from), shift(to))
        case (.weekly(let from), .weekly(let to)): return .weekly(start: from, end: to)
        case (.monthly(let from), .monthly(let to)): return .monthly(start: from, end: to)
        default:
            mapping.error(
                .invalidValue, "`start` and `end` must both be dates, both weekly or both monthly",
                at: reader.location(of: "start"))
            return nil
        }
    }

    private enum Bound {
        case date(Instant)
        case weekly(Int)
        case monthly(Int)
    }

    private func bound(_ key: String, _ reader: inout FieldReader) -> Bound? {
        guard let (name, node) = reader.node(key) else { return nil }
        if case .string(let text) = node.value, let (day, seconds) = Self.dayAndTime(text) {
            if let weekday = Self.weekdays.firstIndex(of: day.uppercased()) {
                return .weekly(weekday * 86_400 + seconds)
            }
            if let date = Int(day), (1...31).contains(date) { return .monthly((date - 1) * 86_400 + seconds) }
            mapping.error(
                .invalidDate,
                "`\(name)` names no weekday (MO…SU) or day of the month (1…31): \(QuotedInput.quoted(text))",
                at: reader.location(of: name, node))
            return nil
        }
        return reader.instant(key).map(Bound.date)
    }

    /// `MO(09:30)` → ("MO", 34200); `(09:30)` → ("", 34200); nil when not of that form.
    static func dayAndTime(_ text: String) -> (day: String, seconds: Int)? {
        guard let open = text.firstIndex(of: "("), text.hasSuffix(")") else { return nil }
        let time = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return nil }
        let day = String(text[..<open])
        guard day.allSatisfy({ $0.isASCIIDigit }) || day.count == 2 else { return nil }
        return (day, hour * 3600 + minute * 60)
    }

    /// The ranges a `templates` list stands for, between `start` and `end` (`(00:00)` and
    /// `(23:59)` when absent), as iSmartNews expands them.
    private func templateSpans(_ templates: String, _ reader: inout FieldReader) -> [ShowRange.Span]? {
        var times: [Int] = []
        for (key, fallback) in [("start", 0), ("end", 23 * 3600 + 59 * 60)] {
            guard let text = reader.string(key) else {
                times.append(fallback)
                continue
            }
            guard let (day, seconds) = Self.dayAndTime(text), day.isEmpty else {
                mapping.error(
                    .invalidDate,
                    "`\(key)` of a template must be a time such as (09:30), not \(QuotedInput.quoted(text))",
                    at: reader.location(of: key))
                return nil
            }
            times.append(seconds)
        }
        let (start, end) = (times[0], times[1])
        func weekly(_ first: Int, _ last: Int) -> ShowRange.Span {
            .weekly(start: first * 86_400 + start, end: last * 86_400 + end)
        }
        var spans: [ShowRange.Span] = []
        for template in templates.lowercased().split(separator: "|", omittingEmptySubsequences: false) {
            switch template {
            case "weekdays": spans.append(weekly(0, 4))
            case "weekend": spans.append(weekly(5, 6))
            case "each_day_of_weekdays": spans += (0...4).map { weekly($0, $0) }
            case "each_day_of_weekend": spans += (5...6).map { weekly($0, $0) }
            case "each_day": spans += (0...6).map { weekly($0, $0) }
            default:
                mapping.error(
                    .invalidValue,
                    "`templates` names \(QuotedInput.quoted(String(template))); it takes weekdays, weekend, "
                        + "each_day_of_weekdays, each_day_of_weekend or each_day",
                    at: reader.location(of: "templates"))
                return nil
            }
        }
        return spans
    }
}
