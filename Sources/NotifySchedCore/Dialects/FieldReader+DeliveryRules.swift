// Reading a portal feed's caps: an entry's `frequency`, `groups` and `priority`, and the
// feed's `groups` (docs/feed-formats.md, "Caps, groups and priority").
extension FieldReader {
    /// The keys an entry's delivery rules take.
    static let deliveryRuleKeys = ["frequency", "groups", "priority", "rollout", "targeting"]

    /// An entry's `frequency`, `groups` and `priority`; nil when it has none of them.
    mutating func deliveryRules() -> DeliveryRules? {
        let frequency = frequencyCap("frequency")
        var groups: [String] = []
        if let elements = array("groups") {
            for (index, element) in elements.enumerated() {
                let location = FeedLocation(
                    keyPath: KeyPath.element(KeyPath.child(path, key: "groups"), index: index),
                    line: element.line ?? line)
                guard case .string(let id) = element.value, MessageGroup.isValidID(id) else {
                    mapping.error(
                        .wrongType, "a group is named by a non-empty string without control characters",
                        at: location)
                    continue
                }
                if groups.contains(id) {
                    mapping.error(.duplicateID, "group \"\(id)\" is named twice", at: location)
                    continue
                }
                groups.append(id)
            }
        }
        let priority = integer("priority").map { Int(clamping: $0) } ?? 0
        let rules = DeliveryRules(
            frequency: frequency, groups: groups, priority: priority, rollout: rollout("rollout"),
            targeting: targeting("targeting"))
        return rules.isEmpty ? nil : rules
    }

    /// A feed's `groups`: an array of `{"id", "frequency", "enabled"}`, each id once.
    mutating func messageGroups(_ key: String) -> [MessageGroup] {
        var groups: [MessageGroup] = []
        for var reader in dictionaryElements(
            key, described: "a group must be a dictionary with `id`, `frequency` and `enabled`")
        {
            var id = reader.nonEmptyString("id")
            if reader.node("id") == nil { reader.missing("id") }
            if let named = id, !MessageGroup.isValidID(named) {
                mapping.error(
                    .invalidValue, "a group's `id` must have no control characters", at: reader.location(of: "id"))
                id = nil
            }
            let frequency = reader.frequencyCap("frequency")
            let enabled = reader.bool("enabled") ?? true
            reader.reportUnknownKeys()
            guard let id else { continue }
            if groups.contains(where: { $0.id == id }) {
                mapping.error(.duplicateID, "group \"\(id)\" is defined twice", at: reader.location(of: "id"))
                continue
            }
            groups.append(MessageGroup(id: id, frequency: frequency, enabled: enabled))
        }
        return groups
    }

    /// A `frequency`: `{"lifetime": N, "custom": [{"period": SPAN, "cap": N}, …]}`.
    mutating func frequencyCap(_ key: String) -> FrequencyCap? {
        guard let (dictionary, node) = self.dictionary(key) else { return nil }
        var reader = FieldReader(dictionary, at: place.member(key), line: node.line ?? line, mapping: mapping)
        let lifetime = reader.positiveCount("lifetime")
        if let count = lifetime, count > FrequencyCap.lifetimeLimit {
            mapping.warning(
                .invalidValue, "`lifetime` \(count) is read as \(FrequencyCap.lifetimeLimit), the highest",
                at: reader.location(of: "lifetime"))
        }
        var windows: [FrequencyCap.Window] = []
        for var window in reader.dictionaryElements(
            "custom", described: "a window must be a dictionary with `period` and `cap`")
        {
            let period = window.span("period")
            let cap = window.positiveCount("cap")
            if window.node("period") == nil { window.missing("period") }
            if window.node("cap") == nil { window.missing("cap") }
            window.reportUnknownKeys()
            if let period, period <= .zero || period > FrequencyCap.longestPeriod {
                mapping.error(
                    .invalidValue, "`period` must be from 1s to 90d, the longest an impression is kept",
                    at: window.location(of: "period"))
                continue
            }
            if let period, let cap { windows.append(.init(period: period, cap: cap)) }
        }
        reader.reportUnknownKeys()
        guard dictionary.index(of: "lifetime") != nil || dictionary.index(of: "custom") != nil else {
            mapping.error(.invalidValue, "`\(key)` must set `lifetime` or `custom`", at: location(of: key, node))
            return nil
        }
        guard lifetime != nil || !windows.isEmpty else { return nil }
        return FrequencyCap(lifetime: lifetime, windows: windows)
    }

    /// A `targeting` expression, parsed; an unknown transform in it is a warning (it fails, and
    /// counts as false, where it applies).
    mutating func targeting(_ key: String) -> TargetingExpression? {
        guard let text = string(key) else { return nil }
        do {
            let expression = try TargetingExpression(text)
            for name in expression.unknownTransforms {
                mapping.warning(
                    .invalidValue,
                    "`targeting` applies the transform \(QuotedInput.quoted(name)), which does not exist "
                        + "(\(TargetingTransforms.names.joined(separator: ", "))): it counts as false there",
                    at: location(of: key))
            }
            return expression
        } catch {
            mapping.error(.invalidValue, "`targeting` does not parse: \(error.message)", at: location(of: key))
            return nil
        }
    }

    /// A `rollout`: `{"namespace", "start", "count", "total"}`, as Firefox's `bucketSample`
    /// takes them: `total` buckets (1 to 2^31), `count` of them (0 to `total`) from `start`
    /// (from 0; past `total` it wraps).
    mutating func rollout(_ key: String) -> Rollout? {
        guard let (dictionary, node) = self.dictionary(key) else { return nil }
        var reader = FieldReader(dictionary, at: place.member(key), line: node.line ?? line, mapping: mapping)
        let namespace = reader.string("namespace")
        let start = reader.integer("start")
        let count = reader.integer("count")
        let total = reader.integer("total")
        for name in ["namespace", "start", "count", "total"] where reader.node(name) == nil { reader.missing(name) }
        reader.reportUnknownKeys()
        guard let namespace, let start, let count, let total else { return nil }
        let most = Int64(Rollout.mostBuckets)
        guard (1...most).contains(total) else {
            mapping.error(
                .invalidValue, "`total` must be a whole number from 1 to \(most), not \(total)",
                at: reader.location(of: "total"))
            return nil
        }
        guard (0...total).contains(count) else {
            mapping.error(
                .invalidValue, "`count` must be a whole number from 0 to `total` (\(total)), not \(count)",
                at: reader.location(of: "count"))
            return nil
        }
        guard (0...most * 4).contains(start) else {
            mapping.error(
                .invalidValue, "`start` must be a whole number from 0 (it wraps at `total`), not \(start)",
                at: reader.location(of: "start"))
            return nil
        }
        return Rollout(namespace: namespace, start: Int(start), count: Int(count), total: Int(total))
    }

    /// A reader for each dictionary of the array under `key`; any other element is an error
    /// that says what it must be (`described`).
    private mutating func dictionaryElements(_ key: String, described: String) -> [FieldReader] {
        guard let elements = array(key) else { return [] }
        return elements.enumerated().compactMap { index, element in
            let place = place.member(key).element(index)
            guard case .dictionary(let dictionary) = element.value else {
                mapping.error(.wrongType, described, at: FeedLocation(keyPath: place.path, line: element.line))
                return nil
            }
            return FieldReader(dictionary, at: place, line: element.line, mapping: mapping)
        }
    }

    /// A whole number from 1 to 2^31 - 1.
    private mutating func positiveCount(_ key: String) -> Int? {
        guard let value = integer(key) else { return nil }
        guard value >= 1, value <= Int64(Int32.max) else {
            mapping.error(
                .invalidValue, "`\(key)` must be a whole number from 1 to \(Int32.max), not \(value)",
                at: location(of: key))
            return nil
        }
        return Int(value)
    }
}
