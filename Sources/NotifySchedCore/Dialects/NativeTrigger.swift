/// Reads a native entry's timing keys (`fireDate`, `repeatInterval`, `calendar`, `until`,
/// `count`, `events`) into one `Trigger`, checking that they make sense together.
enum NativeTrigger {
    static func read(_ reader: inout FieldReader, zone: ZoneRules?) -> Trigger? {
        let mapping = reader.mapping
        let fireTime = reader.timestamp("fireDate").map { timestamp -> FireTime in
            switch timestamp {
            case .absolute(let instant): FireTime(.absolute(instant), zone: zone)
            case .floating(let civil): FireTime(.floating(civil), zone: zone)
            }
        }
        let interval = repeatInterval(&reader)
        let calendar = calendarExpression(&reader, zone: zone)
        let until = reader.instant("until")
        let count = reader.integer("count")
        let events = events(&reader)
        let hasFireDate = reader.dictionary["fireDate"] != nil

        if let count, count < 1 || count > RecurrenceBounds.maximumCount {
            mapping.error(
                .invalidValue, "`count` must be between 1 and \(RecurrenceBounds.maximumCount), not \(count)",
                at: reader.location(of: "count"))
            return nil
        }
        let bounds = RecurrenceBounds(until: until, count: count.map { Int(clamping: $0) })
        if events != nil, hasFireDate || interval != nil || calendar != nil {
            mapping.error(
                .invalidValue, "`events` cannot be combined with `fireDate`, `repeatInterval` or `calendar`",
                at: reader.location(of: "events"))
            return nil
        }
        if interval != nil, calendar != nil {
            mapping.error(
                .invalidValue, "use either `repeatInterval` or `calendar`, not both",
                at: reader.location(of: "calendar"))
            return nil
        }
        if let events { return .events(.local(events)) }
        if let interval {
            guard let fireTime else {
                if !hasFireDate { reader.missing("fireDate", ": `repeatInterval` repeats from it") }
                return nil
            }
            return .repeating(first: fireTime, every: interval, bounds: bounds)
        }
        if let calendar {
            if count != nil, !hasFireDate {
                mapping.error(
                    .missingKey, "`count` on a `calendar` entry needs `fireDate` to count from",
                    at: reader.location(of: "count"))
                return nil
            }
            if let count, count > RecurrenceBounds.maximumCalendarCount {
                mapping.error(
                    .invalidValue,
                    "`count` on a `calendar` entry must be at most \(RecurrenceBounds.maximumCalendarCount), "
                        + "not \(count): its occurrences are counted one by one; bound a longer series with `until`",
                    at: reader.location(of: "count"))
                return nil
            }
            return .calendar(calendar, zone: zone, notBefore: fireTime, bounds: bounds)
        }
        if until != nil || count != nil {
            mapping.warning(
                .invalidValue, "`until` and `count` have no effect without `repeatInterval` or `calendar`",
                at: reader.location)
        }
        if let fireTime { return .once(fireTime) }
        return hasFireDate ? nil : .immediate
    }

    private static func repeatInterval(_ reader: inout FieldReader) -> RepeatInterval? {
        guard let text = reader.string("repeatInterval") else { return nil }
        // As written first: lowercasing makes a string, and feeds write it lowercased.
        if let interval = RepeatInterval(rawValue: text) ?? RepeatInterval(rawValue: text.lowercased()) {
            return interval
        }
        let message =
            ["second", "seconds", "sec", "s"].contains(text.lowercased())
            ? "`repeatInterval` of less than a minute is not supported"
            : "`repeatInterval` must be minute, hour, day, week, month or year, not \(QuotedInput.quoted(text))"
        reader.mapping.error(.invalidValue, message, at: reader.location(of: "repeatInterval"))
        return nil
    }

    /// `calendar`, read in `zone`, else in the user's zone. The user's zone is taken only for an
    /// entry that has the key: its reference count is one that every thread mapping entries
    /// would otherwise write.
    private static func calendarExpression(_ reader: inout FieldReader, zone: ZoneRules?) -> CalendarExpression? {
        guard let text = reader.string("calendar") else { return nil }
        do {
            return try reader.mapping.calendarExpression(text, localZone: zone ?? reader.mapping.userZone)
        } catch {
            reader.mapping.error(
                .invalidCalendar, "`calendar`: \(error.message)", at: reader.location(of: "calendar"))
            return nil
        }
    }

    /// `events`: event name → pattern. An invalid pattern is a warning: it behaves as `ON=1`.
    static func events(_ reader: inout FieldReader) -> [EventRule]? {
        guard let (dictionary, node) = reader.dictionary("events") else { return nil }
        let path = KeyPath.child(reader.path, key: "events")
        var rules: [EventRule] = []
        for (name, patternNode) in dictionary.entries {
            let location = FeedLocation(keyPath: KeyPath.child(path, key: name), line: patternNode.line ?? node.line)
            let trimmedName = name.trimmingSpaces
            guard !trimmedName.isEmpty else {
                reader.mapping.error(.invalidValue, "an event name is empty", at: location)
                continue
            }
            guard case .string(let text) = patternNode.value else {
                reader.mapping.error(
                    .wrongType, "an event pattern must be a string, not \(patternNode.value.typeName)", at: location)
                continue
            }
            let rule = EventRule(name: trimmedName, patternText: text.trimmingSpaces)
            if EventPattern.parse(rule.patternText) == nil {
                reader.mapping.warning(
                    .invalidPattern,
                    "event pattern \(QuotedInput.quoted(text)) is not valid (ON=n|OFF=m…, n > 0); it behaves as ON=1",
                    at: location)
            }
            rules.append(rule)
        }
        if rules.isEmpty {
            reader.mapping.error(
                .invalidValue, "`events` names no event", at: FeedLocation(keyPath: path, line: node.line))
            return nil
        }
        return rules
    }
}
