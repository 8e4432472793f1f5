/// Reads a targeting expression as pyjexl's grammar does, character for character (its PEG,
/// by recursive descent: the first alternative that matches is taken), within bounds: at most
/// `maximumLength` bytes of text and `maximumDepth` levels of nesting, whole numbers that fit
/// 64 bits. Strings take Python's escapes but for `\N{…}` and surrogates.
struct TargetingParser {
    /// The longest expression: a targeting rule is a line or two (Firefox's longest are about
    /// 1 000 characters); a feed cannot make the daemon parse megabytes.
    static let maximumLength = 8192
    /// The deepest nesting of parentheses, lists, objects, filters, operators and conditions.
    static let maximumDepth = 64

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var depth = 0

    static func parse(_ text: String) throws(TargetingFailure) -> TargetingNode {
        guard text.utf8.count <= maximumLength else {
            throw TargetingFailure("the expression is longer than \(maximumLength) bytes")
        }
        var parser = TargetingParser(scalars: Array(text.unicodeScalars))
        let root = try parser.expression()
        guard parser.position == parser.scalars.count else { throw parser.unexpected() }
        return root
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    // MARK: Rules

    /// `expression = _ (conditional_expression / binary_expression / unary_expression / complex_value) _`
    private mutating func expression() throws(TargetingFailure) -> TargetingNode {
        try descend()
        defer { depth -= 1 }
        skipSpaces()
        let test = try binary()
        let afterTest = position
        skipSpaces()
        guard take("?") else {
            position = afterTest
            skipSpaces()
            return test
        }
        skipSpaces()
        let then = try expression()
        skipSpaces()
        guard take(":") else { throw unexpected() }
        skipSpaces()
        let otherwise = try expression()
        return .conditional(test, then: then, else: otherwise)
    }

    /// `binary_expression = binary_operand (_ binary_operator _ binary_operand)+`, or a lone
    /// operand; the operators grouped by precedence, to the left, as pyjexl builds its tree.
    private mutating func binary() throws(TargetingFailure) -> TargetingNode {
        var operands = [try operand()]
        var operators: [TargetingOperator] = []
        while true {
            let before = position
            skipSpaces()
            guard let found = binaryOperator() else {
                position = before
                break
            }
            skipSpaces()
            guard let right = try? operand() else {
                position = before
                break
            }
            operators.append(found)
            operands.append(right)
        }
        return Self.grouped(operands, operators)
    }

    /// The tree of `operands` joined by `operators`: each operator takes, on its left, everything
    /// before it that binds at least as tightly.
    private static func grouped(_ operands: [TargetingNode], _ operators: [TargetingOperator]) -> TargetingNode {
        var values = [operands[0]]
        var pending: [TargetingOperator] = []
        func reduce() {
            let right = values.removeLast()
            let left = values.removeLast()
            values.append(.binary(pending.removeLast(), left, right))
        }
        for (found, right) in zip(operators, operands.dropFirst()) {
            while let last = pending.last, last.precedence >= found.precedence { reduce() }
            pending.append(found)
            values.append(right)
        }
        while !pending.isEmpty { reduce() }
        return values[0]
    }

    /// The first operator, in pyjexl's order of trying them, that the text goes on with.
    private mutating func binaryOperator() -> TargetingOperator? {
        TargetingOperator.allCases.first { take($0.rawValue) }
    }

    /// `binary_operand = unary_expression / complex_value`, with
    /// `unary_expression = "!" _ unary_operand`.
    private mutating func operand() throws(TargetingFailure) -> TargetingNode {
        try descend()
        defer { depth -= 1 }
        let start = position
        if take("!") {
            skipSpaces()
            do {
                return .not(try operand())
            } catch {
                position = start
                throw error
            }
        }
        return try complexValue()
    }

    /// `complex_value = value (transform / attribute / filter_expression)*`
    private mutating func complexValue() throws(TargetingFailure) -> TargetingNode {
        var current = try value()
        while let modified = try modifier(of: current) { current = modified }
        return current
    }

    /// `transform / attribute / filter_expression` applied to `subject`; nil, with nothing
    /// consumed, when none follows.
    private mutating func modifier(of subject: TargetingNode) throws(TargetingFailure) -> TargetingNode? {
        let before = position
        if take("|"), let name = identifierName() {
            return .transform(name, arguments: transformArguments(), subject: subject)
        }
        position = before
        if take("."), let name = identifierName() { return .identifier(name, subject: subject, relative: false) }
        position = before
        if take("[") {
            try descend()
            defer { depth -= 1 }
            skipSpaces()
            if let inner = try? expression() {
                skipSpaces()
                if take("]") { return .filter(inner, subject: subject, relative: inner.containsRelative) }
            }
        }
        position = before
        return nil
    }

    /// `transform_arguments = "(" _ value_list _ ")"`, when it follows; none otherwise.
    private mutating func transformArguments() -> [TargetingNode] {
        let before = position
        if take("(") {
            skipSpaces()
            if let list = try? valueList() {
                skipSpaces()
                if take(")") { return list }
            }
        }
        position = before
        return []
    }

    /// `value = boolean / string / numeric / subexpression / object_literal / array_literal /
    /// identifier / relative_identifier`
    private mutating func value() throws(TargetingFailure) -> TargetingNode {
        if take("true") { return .literal(.bool(true)) }
        if take("false") { return .literal(.bool(false)) }
        if let quote = peek, quote == "\"" || quote == "'" { return .literal(.string(try string(quote))) }
        if let number = try numeric() { return .literal(number) }
        let start = position
        if take("(") {
            try descend()
            defer { depth -= 1 }
            skipSpaces()
            let inner = try expression()
            skipSpaces()
            guard take(")") else { throw unexpected() }
            return inner
        }
        if take("{") {
            try descend()
            defer { depth -= 1 }
            skipSpaces()
            var members: [(key: String, value: TargetingNode)] = []
            if let first = try keyValue() {
                members.append(first)
                while true {
                    let before = position
                    skipSpaces()
                    guard take(",") else {
                        position = before
                        break
                    }
                    skipSpaces()
                    guard let next = try keyValue() else { throw unexpected() }
                    members.append(next)
                }
            }
            skipSpaces()
            guard take("}") else { throw unexpected() }
            return .object(TargetingValue.merged(members))
        }
        if take("[") {
            try descend()
            defer { depth -= 1 }
            skipSpaces()
            let elements = peek == "]" ? [] : try valueList()
            skipSpaces()
            guard take("]") else { throw unexpected() }
            return .array(elements)
        }
        if let name = identifierName() { return .identifier(name, subject: nil, relative: false) }
        if take("."), let name = identifierName() { return .identifier(name, subject: nil, relative: true) }
        position = start
        throw unexpected()
    }

    /// `value_list = expression (_ "," _ expression)*`
    private mutating func valueList() throws(TargetingFailure) -> [TargetingNode] {
        var values = [try expression()]
        while true {
            let before = position
            skipSpaces()
            guard take(",") else {
                position = before
                return values
            }
            skipSpaces()
            values.append(try expression())
        }
    }

    /// `object_key_value = identifier _ ":" _ expression`; nil when no identifier starts here.
    private mutating func keyValue() throws(TargetingFailure) -> (key: String, value: TargetingNode)? {
        guard let key = identifierName() else { return nil }
        skipSpaces()
        guard take(":") else { throw unexpected() }
        skipSpaces()
        return (key, try expression())
    }

    /// `identifier = [a-zA-Z_$][a-zA-Z0-9_$]*`
    private mutating func identifierName() -> String? {
        guard let first = peek, Self.startsIdentifier(first) else { return nil }
        var name = ""
        while let scalar = peek, Self.startsIdentifier(scalar) || scalar.isASCIIDigit {
            name.unicodeScalars.append(scalar)
            position += 1
        }
        return name
    }

    private static func startsIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == "$"
    }

    /// `numeric = "-"? number ("." number)?`: whole when it has no fraction.
    private mutating func numeric() throws(TargetingFailure) -> TargetingValue? {
        let start = position
        _ = take("-")
        guard digits() > 0 else {
            position = start
            return nil
        }
        let wholeEnd = position
        if take("."), digits() == 0 { position = wholeEnd }
        let text = String(String.UnicodeScalarView(scalars[start..<position]))
        if position == wholeEnd {
            guard let whole = Int64(text) else { throw TargetingFailure("the number \(text) is too large") }
            return .integer(whole)
        }
        guard let fraction = Double(text), fraction.isFinite else {
            throw TargetingFailure("the number \(text) is too large")
        }
        return .real(fraction)
    }

    private mutating func digits() -> Int {
        let start = position
        while let scalar = peek, scalar.isASCIIDigit { position += 1 }
        return position - start
    }

    /// A string in `quote`s, as Python reads the literal: no line break but an escaped one.
    private mutating func string(_ quote: Unicode.Scalar) throws(TargetingFailure) -> String {
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = peek else {
                position = start
                throw TargetingFailure("a string at character \(start + 1) is not closed")
            }
            position += 1
            switch scalar {
            case quote:
                return String(text)
            case "\n", "\r":
                position = start
                throw TargetingFailure("a string at character \(start + 1) has a line break")
            case "\\":
                try escape(into: &text)
            default:
                text.append(scalar)
            }
        }
    }

    /// The escape after a backslash, as Python's string literals read it; an unknown one
    /// stays as it is, backslash and all.
    private mutating func escape(into text: inout String.UnicodeScalarView) throws(TargetingFailure) {
        guard let scalar = peek else { return }
        position += 1
        let simple: [Unicode.Scalar: Unicode.Scalar] = [
            "\\": "\\", "'": "'", "\"": "\"", "a": "\u{07}", "b": "\u{08}", "f": "\u{0C}", "n": "\n",
            "r": "\r", "t": "\t", "v": "\u{0B}",
        ]
        if let replacement = simple[scalar] {
            text.append(replacement)
            return
        }
        switch scalar {
        case "\n":
            return  // A line continuation.
        case "\r":
            _ = take("\n")
        case "0"..."7":
            var value = scalar.value - 48
            for _ in 0..<2 {
                guard let next = peek, ("0"..."7").contains(next) else { break }
                value = value * 8 + next.value - 48
                position += 1
            }
            text.append(Unicode.Scalar(value)!)
        case "x", "u", "U":
            let count = scalar == "x" ? 2 : scalar == "u" ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let next = peek, next.isASCII, let digit = JSONReader.hexValue(UInt8(next.value)) else {
                    throw TargetingFailure("the escape \\\(scalar) at character \(position) needs \(count) hex digits")
                }
                value = value * 16 + UInt32(digit)
                position += 1
            }
            guard let decoded = Unicode.Scalar(value) else {
                throw TargetingFailure("the escape at character \(position) names no character")
            }
            text.append(decoded)
        case "N":
            throw TargetingFailure("the escape \\N{…} at character \(position) is not supported")
        default:
            text.append("\\")
            text.append(scalar)
        }
    }

    // MARK: Characters

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    /// Consumes `literal` when the text goes on with it.
    private mutating func take(_ literal: String) -> Bool {
        let wanted = Array(literal.unicodeScalars)
        guard position + wanted.count <= scalars.count, Array(scalars[position..<position + wanted.count]) == wanted
        else { return false }
        position += wanted.count
        return true
    }

    /// `_ = \s*`: what Python's regular expressions take for white space.
    private mutating func skipSpaces() {
        while let scalar = peek, scalar.properties.isWhitespace || (0x1C...0x1F).contains(scalar.value) {
            position += 1
        }
    }

    private mutating func descend() throws(TargetingFailure) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw TargetingFailure("the expression nests deeper than \(Self.maximumDepth) levels")
        }
    }

    private func unexpected() -> TargetingFailure {
        guard let scalar = peek else { return TargetingFailure("the expression ends too soon") }
        return TargetingFailure("unexpected \(scalar.escaped(asASCII: false)) at character \(position + 1)")
    }
}
