/// A value a targeting expression computes with: JSON's kinds, with whole numbers apart from
/// fractional ones, as pyjexl (Mozilla's Python JEXL, the oracle of `TargetingTests`) has them.
/// Equality, order, truth and arithmetic follow it: `true == 1`, `1 == 1.0`, `"a" < "b"` by code
/// points, lists compared element by element, empty values false.
public enum TargetingValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case real(Double)
    case string(String)
    case array([TargetingValue])
    /// Keys in the order they were first given; a key given again keeps its place, with the
    /// later value.
    case object([(key: String, value: TargetingValue)])

    public static func == (lhs: TargetingValue, rhs: TargetingValue) -> Bool { lhs.equals(rhs) }

    /// An object of `members`, in their order (a key given twice keeps its first place).
    public static func object(_ members: KeyValuePairs<String, TargetingValue>) -> TargetingValue {
        .object(merged(members.map { ($0.key, $0.value) }))
    }

    /// `members` with each key once, where it first came, holding its last value: an object
    /// literal's members, as Python builds a dictionary of them.
    static func merged<Value>(_ members: [(key: String, value: Value)]) -> [(key: String, value: Value)] {
        var result: [(key: String, value: Value)] = []
        var positions: [String: Int] = [:]
        for (key, value) in members {
            if let position = positions[key] {
                result[position].value = value
            } else {
                positions[key] = result.count
                result.append((key, value))
            }
        }
        return result
    }

    /// The number a boolean, whole or fractional number stands for; nil for other kinds.
    var number: Double? {
        switch self {
        case .bool(let flag): flag ? 1 : 0
        case .integer(let whole): Double(whole)
        case .real(let fraction): fraction
        default: nil
        }
    }

    /// The whole number a boolean or whole number stands for; nil for other kinds.
    var whole: Int64? {
        switch self {
        case .bool(let flag): flag ? 1 : 0
        case .integer(let whole): whole
        default: nil
        }
    }

    /// Whether the value counts as true: not null, false, zero, nor empty.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let flag): flag
        case .integer(let whole): whole != 0
        case .real(let fraction): fraction != 0
        case .string(let text): !text.isEmpty
        case .array(let values): !values.isEmpty
        case .object(let members): !members.isEmpty
        }
    }

    /// The kind, as messages name it.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .real: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Equality as pyjexl's `==`: numbers of any kind by value, strings by code points, lists
    /// element by element, objects by keys and values whatever their order; other kinds never.
    func equals(_ other: TargetingValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.string(let left), .string(let right)): return left.unicodeScalars.elementsEqual(right.unicodeScalars)
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { $0.equals($1) }
        case (.object(let left), .object(let right)):
            return left.count == right.count
                && left.allSatisfy { member in
                    right.first { $0.key.unicodeScalars.elementsEqual(member.key.unicodeScalars) }.map {
                        $0.value.equals(member.value)
                    } ?? false
                }
        default:
            return Self.compareNumbers(self, other) == 0
        }
    }

    /// The order of two numbers of any kind, exact between whole and fractional ones; nil when
    /// either is no number.
    static func compareNumbers(_ left: TargetingValue, _ right: TargetingValue) -> Int? {
        if let a = left.whole, let b = right.whole { return a < b ? -1 : a == b ? 0 : 1 }
        guard let a = left.number, let b = right.number else { return nil }
        if let whole = left.whole, case .real(let fraction) = right { return -compare(fraction, whole) }
        if case .real(let fraction) = left, let whole = right.whole { return compare(fraction, whole) }
        return a < b ? -1 : a == b ? 0 : 1
    }

    /// The order of a fractional and a whole number, exactly (a whole number beyond 2^53 has no
    /// double of its own).
    private static func compare(_ fraction: Double, _ whole: Int64) -> Int {
        if fraction.isNaN { return 1 }
        if fraction < -9.3e18 { return -1 }
        if fraction > 9.3e18 { return 1 }
        let floor = fraction.rounded(.down)
        let wholePart = Int64(floor)
        if wholePart != whole { return wholePart < whole ? -1 : 1 }
        return fraction > floor ? 1 : 0
    }

    /// The order pyjexl's `<` gives: numbers by value, strings by code points, lists element by
    /// element (the first that differ decides, else the shorter is less).
    ///
    /// - Throws: `TargetingFailure` for kinds that have no order between them.
    func order(against other: TargetingValue) throws(TargetingFailure) -> Int {
        switch (self, other) {
        case (.string(let left), .string(let right)):
            for (a, b) in zip(left.unicodeScalars, right.unicodeScalars) where a != b {
                return a.value < b.value ? -1 : 1
            }
            let (l, r) = (left.unicodeScalars.count, right.unicodeScalars.count)
            return l < r ? -1 : l == r ? 0 : 1
        case (.array(let left), .array(let right)):
            for (a, b) in zip(left, right) where !a.equals(b) { return try a.order(against: b) }
            return left.count < right.count ? -1 : left.count == right.count ? 0 : 1
        default:
            guard let order = Self.compareNumbers(self, other) else {
                throw TargetingFailure("\(kindName) and \(other.kindName) have no order")
            }
            return order
        }
    }
}

/// Why a targeting expression could not be evaluated: it then counts as false.
public struct TargetingFailure: Error, Sendable, Equatable {
    /// What went wrong, in words.
    public var message: String

    init(_ message: String) {
        self.message = message
    }
}
