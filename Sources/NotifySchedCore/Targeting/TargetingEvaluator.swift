import Foundation

/// Evaluates a parsed targeting expression as pyjexl evaluates it, within bounds: at most
/// `stepLimit` nodes visited (a filter visits its expression once per element), strings of at
/// most `maximumStringBytes`, lists of at most `maximumCount` elements, whole numbers within
/// 64 bits and fractional ones finite, whole numbers divided (`/`) within 2^53. Where Python
/// would go beyond them (a whole number of a hundred digits, an infinity) or do what JEXL does
/// not mean (`%` formatting a string, a complex power), the evaluation fails, and the rule
/// counts as false.
struct TargetingEvaluator {
    static let stepLimit = 10_000
    static let maximumStringBytes = 65_536
    static let maximumCount = 10_000

    /// The identifiers' values.
    let context: TargetingValue
    private var steps = 0

    init(context: TargetingValue) {
        self.context = context
    }

    mutating func evaluate(_ node: TargetingNode, relative: TargetingValue) throws(TargetingFailure) -> TargetingValue {
        steps += 1
        guard steps <= Self.stepLimit else {
            throw TargetingFailure("the expression takes more than \(Self.stepLimit) steps")
        }
        switch node {
        case .literal(let value):
            return value
        case .array(let elements):
            var values: [TargetingValue] = []
            for element in elements { values.append(try evaluate(element, relative: relative)) }
            return .array(values)
        case .object(let members):
            var values: [(key: String, value: TargetingValue)] = []
            for member in members { values.append((member.key, try evaluate(member.value, relative: relative))) }
            return .object(values)
        case .identifier(let name, let subject, let isRelative):
            let base =
                isRelative
                ? relative
                : try subject.map { node throws(TargetingFailure) in try evaluate(node, relative: relative) } ?? context
            guard case .object(let members) = base else {
                throw TargetingFailure("\(base.kindName) has no member \(name)")
            }
            return members.first { $0.key == name }?.value ?? .null
        case .filter(let expression, let subject, let isRelative):
            let values = try evaluate(subject, relative: relative)
            return isRelative
                ? try filtered(values, by: expression)
                : try indexed(values, by: try evaluate(expression, relative: relative))
        case .transform(let name, let arguments, let subject):
            // pyjexl evaluates a transform's arguments in an empty context.
            var empty = TargetingEvaluator(context: .object([]))
            empty.steps = steps
            var values: [TargetingValue] = []
            for argument in arguments { values.append(try empty.evaluate(argument, relative: .object([]))) }
            steps = empty.steps
            return try TargetingTransforms.apply(name, to: try evaluate(subject, relative: relative), values)
        case .not(let operand):
            return .bool(!(try evaluate(operand, relative: relative).isTruthy))
        case .binary(.and, let left, let right):
            let first = try evaluate(left, relative: relative)
            return first.isTruthy ? try evaluate(right, relative: relative) : first
        case .binary(.or, let left, let right):
            let first = try evaluate(left, relative: relative)
            return first.isTruthy ? first : try evaluate(right, relative: relative)
        case .binary(let found, let left, let right):
            let first = try evaluate(left, relative: relative)
            return try Self.apply(found, first, try evaluate(right, relative: relative))
        case .conditional(let test, let then, let otherwise):
            return try evaluate(test, relative: relative).isTruthy
                ? try evaluate(then, relative: relative) : try evaluate(otherwise, relative: relative)
        }
    }

    /// The elements of `values` (a list's elements, a string's characters, an object's keys) for
    /// which `expression` holds, each the relative value in turn.
    private mutating func filtered(
        _ values: TargetingValue, by expression: TargetingNode
    ) throws(TargetingFailure) -> TargetingValue {
        let elements: [TargetingValue]
        switch values {
        case .array(let list): elements = list
        case .string(let text): elements = text.unicodeScalars.map { .string(String($0)) }
        case .object(let members): elements = members.map { .string($0.key) }
        default: throw TargetingFailure("\(values.kindName) cannot be filtered")
        }
        var kept: [TargetingValue] = []
        for element in elements where try evaluate(expression, relative: element).isTruthy { kept.append(element) }
        return .array(kept)
    }

    /// `values[index]`: all of it for `true`, null for `false`, an element by its position
    /// (from the end when negative) or a member by its key; null when there is none.
    private func indexed(_ values: TargetingValue, by index: TargetingValue) throws(TargetingFailure) -> TargetingValue
    {
        if case .bool(let flag) = index { return flag ? values : .null }
        switch values {
        case .array(let list):
            guard case .integer(let position) = index else { throw TargetingFailure("a list's index must be whole") }
            return Self.element(at: position, count: list.count).map { list[$0] } ?? .null
        case .string(let text):
            guard case .integer(let position) = index else { throw TargetingFailure("a string's index must be whole") }
            let characters = Array(text.unicodeScalars)
            return Self.element(at: position, count: characters.count).map { .string(String(characters[$0])) } ?? .null
        case .object(let members):
            switch index {
            case .string(let key):
                return members.first { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }?.value ?? .null
            case .array, .object: throw TargetingFailure("\(index.kindName) cannot be a key")
            default: return .null
            }
        default:
            throw TargetingFailure("\(values.kindName) cannot be indexed")
        }
    }

    /// The position `index` names in a sequence of `count`, counting from the end when negative.
    private static func element(at index: Int64, count: Int) -> Int? {
        let position = index < 0 ? Int64(count) + index : index
        return (0..<Int64(count)).contains(position) ? Int(position) : nil
    }

    // MARK: Operators

    static func apply(
        _ found: TargetingOperator, _ left: TargetingValue, _ right: TargetingValue
    ) throws(TargetingFailure) -> TargetingValue {
        switch found {
        case .equal: return .bool(left.equals(right))
        case .notEqual: return .bool(!left.equals(right))
        case .less: return .bool(try left.order(against: right) < 0)
        case .lessOrEqual: return .bool(try left.order(against: right) <= 0)
        case .greater: return .bool(try left.order(against: right) > 0)
        case .greaterOrEqual: return .bool(try left.order(against: right) >= 0)
        case .in: return .bool(try contains(right, left))
        case .intersect:
            guard case .array(let first) = left, case .array(let second) = right else {
                throw TargetingFailure("intersect takes two lists, not \(left.kindName) and \(right.kindName)")
            }
            return .array(first.filter { element in second.contains { $0.equals(element) } })
        case .plus: return try add(left, right)
        case .minus: return try arithmetic(left, right, whole: { $0.subtractingReportingOverflow($1) }, real: -)
        case .times: return try multiply(left, right)
        case .divide:
            guard let a = left.number, let b = right.number else { throw unsupported(found, left, right) }
            // Python divides whole numbers exactly before it rounds; beyond 2^53 a double cannot.
            if let x = left.whole, let y = right.whole, x.magnitude > 1 << 53 || y.magnitude > 1 << 53 {
                throw TargetingFailure("a division of whole numbers beyond 2^53")
            }
            guard b != 0 else { throw TargetingFailure("division by zero") }
            return try finite(a / b)
        case .floorDivide: return try floorDivide(left, right)
        case .modulo: return try modulo(left, right)
        case .power: return try power(left, right)
        case .and, .or: preconditionFailure("&& and || are evaluated lazily")
        }
    }

    /// `needle in haystack`: a substring, a list's element, an object's key.
    private static func contains(_ haystack: TargetingValue, _ needle: TargetingValue) throws(TargetingFailure) -> Bool
    {
        switch (haystack, needle) {
        case (.string(let text), .string(let part)):
            let (whole, piece) = (Array(text.unicodeScalars), Array(part.unicodeScalars))
            guard !piece.isEmpty else { return true }
            guard piece.count <= whole.count else { return false }
            return (0...(whole.count - piece.count)).contains { whole[$0..<$0 + piece.count].elementsEqual(piece) }
        case (.array(let list), _): return list.contains { $0.equals(needle) }
        case (.object(let members), .string(let key)):
            return members.contains { $0.key.unicodeScalars.elementsEqual(key.unicodeScalars) }
        case (.object, .array), (.object, .object): throw TargetingFailure("\(needle.kindName) cannot be a key")
        case (.object, _): return false
        default: throw TargetingFailure("\(haystack.kindName) cannot hold \(needle.kindName)")
        }
    }

    private static func add(_ left: TargetingValue, _ right: TargetingValue) throws(TargetingFailure) -> TargetingValue
    {
        switch (left, right) {
        case (.string(let a), .string(let b)):
            guard a.utf8.count + b.utf8.count <= maximumStringBytes else { throw tooLong() }
            return .string(a + b)
        case (.array(let a), .array(let b)):
            guard a.count + b.count <= maximumCount else { throw tooLong() }
            return .array(a + b)
        default:
            return try arithmetic(left, right, whole: { $0.addingReportingOverflow($1) }, real: +)
        }
    }

    private static func multiply(_ left: TargetingValue, _ right: TargetingValue) throws(TargetingFailure)
        -> TargetingValue
    {
        switch (left, right) {
        case (.string(let text), _) where right.whole != nil, (_, .string(let text)) where left.whole != nil:
            let times = text.isEmpty ? 0 : max(0, (left.whole ?? right.whole)!)
            guard times == 0 || Int64(text.utf8.count) <= Int64(maximumStringBytes) / times else { throw tooLong() }
            return .string(String(repeating: text, count: Int(times)))
        case (.array(let list), _) where right.whole != nil, (_, .array(let list)) where left.whole != nil:
            let times = list.isEmpty ? 0 : max(0, (left.whole ?? right.whole)!)
            guard times == 0 || Int64(list.count) <= Int64(maximumCount) / times else { throw tooLong() }
            return .array(Array(repeatElement(list, count: Int(times)).joined()))
        default:
            return try arithmetic(left, right, whole: { $0.multipliedReportingOverflow(by: $1) }, real: *)
        }
    }

    /// `left` and `right` combined as whole numbers when both are, else as fractional ones.
    private static func arithmetic(
        _ left: TargetingValue, _ right: TargetingValue,
        whole: (Int64, Int64) -> (partialValue: Int64, overflow: Bool), real: (Double, Double) -> Double
    ) throws(TargetingFailure) -> TargetingValue {
        if let a = left.whole, let b = right.whole {
            let (result, overflow) = whole(a, b)
            guard !overflow else { throw TargetingFailure("a whole number beyond 64 bits") }
            return .integer(result)
        }
        guard let a = left.number, let b = right.number else {
            throw TargetingFailure("\(left.kindName) and \(right.kindName) cannot be combined")
        }
        return try finite(real(a, b))
    }

    private static func floorDivide(_ left: TargetingValue, _ right: TargetingValue) throws(TargetingFailure)
        -> TargetingValue
    {
        if let a = left.whole, let b = right.whole {
            guard b != 0 else { throw TargetingFailure("division by zero") }
            guard !(a == .min && b == -1) else { throw TargetingFailure("a whole number beyond 64 bits") }
            return .integer(a.floorDivided(by: b))
        }
        guard let a = left.number, let b = right.number else { throw unsupported(.floorDivide, left, right) }
        guard b != 0 else { throw TargetingFailure("division by zero") }
        return try finite(pythonDivMod(a, b).quotient)
    }

    private static func modulo(_ left: TargetingValue, _ right: TargetingValue) throws(TargetingFailure)
        -> TargetingValue
    {
        if let a = left.whole, let b = right.whole {
            guard b != 0 else { throw TargetingFailure("division by zero") }
            guard b != -1 else { return .integer(0) }
            return .integer(a.floorModulo(b))
        }
        guard let a = left.number, let b = right.number else { throw unsupported(.modulo, left, right) }
        guard b != 0 else { throw TargetingFailure("division by zero") }
        return try finite(pythonDivMod(a, b).remainder)
    }

    /// Python's `divmod` of two doubles: the floor of the quotient, and the remainder with the
    /// divisor's sign (`float_divmod` in CPython).
    private static func pythonDivMod(_ a: Double, _ b: Double) -> (quotient: Double, remainder: Double) {
        var remainder = fmod(a, b)
        var division = (a - remainder) / b
        if remainder != 0 {
            if (b < 0) != (remainder < 0) {
                remainder += b
                division -= 1
            }
        } else {
            remainder = copysign(0, b)
        }
        var quotient: Double
        if division != 0 {
            quotient = division.rounded(.down)
            if division - quotient > 0.5 { quotient += 1 }
        } else {
            quotient = copysign(0, a / b)
        }
        return (quotient, remainder)
    }

    private static func power(_ left: TargetingValue, _ right: TargetingValue) throws(TargetingFailure)
        -> TargetingValue
    {
        if let base = left.whole, let exponent = right.whole, exponent >= 0 {
            var result: Int64 = 1
            for _ in 0..<min(exponent, 64) {
                let (next, overflow) = result.multipliedReportingOverflow(by: base)
                guard !overflow else { throw TargetingFailure("a whole number beyond 64 bits") }
                result = next
            }
            // Beyond 64 steps only 0, 1 and -1 stay within 64 bits.
            if exponent > 64, ![0, 1, -1].contains(base) { throw TargetingFailure("a whole number beyond 64 bits") }
            return .integer(exponent > 64 && base == -1 ? (exponent % 2 == 0 ? 1 : -1) : result)
        }
        guard let base = left.number, let exponent = right.number else { throw unsupported(.power, left, right) }
        guard !(base == 0 && exponent < 0) else { throw TargetingFailure("zero to a negative power") }
        guard base >= 0 || exponent.rounded(.down) == exponent else {
            throw TargetingFailure("a negative number to a fractional power")
        }
        return try finite(pow(base, exponent))
    }

    private static func finite(_ value: Double) throws(TargetingFailure) -> TargetingValue {
        guard value.isFinite else { throw TargetingFailure("a number beyond the doubles' range") }
        return .real(value)
    }

    private static func unsupported(
        _ found: TargetingOperator, _ left: TargetingValue, _ right: TargetingValue
    ) -> TargetingFailure {
        TargetingFailure("\(found.rawValue) does not take \(left.kindName) and \(right.kindName)")
    }

    private static func tooLong() -> TargetingFailure {
        TargetingFailure(
            "a value longer than \(maximumStringBytes) bytes or \(maximumCount) elements")
    }
}
