/// The regular expressions of the `regExpMatch` transform: a subset that JavaScript's and
/// Python's engines read alike (with Python's `re.ASCII`), matched in linear time by a Pike
/// virtual machine that keeps the engines' order of preference, so that no pattern can make a
/// match take exponential time.
///
/// Literals and escaped punctuation, `.` (anything but a line feed), classes (`[a-z]`, `[^0-9]`,
/// a `]` first is a literal), `\d \D \w \W \s \S` (ASCII), `\n \t \r \f \v`, `^` and `$` (the
/// text's start and end), `\b \B`, groups (`( )`, `(?: )`), `|`, and the quantifiers `* + ?
/// {m} {m,} {m,n}` (up to 1000), greedy or lazy (`*?`). Anything else is refused.
struct TargetingRegex {
    /// The longest pattern, and the most instructions it may compile to.
    static let maximumPatternLength = 512
    static let maximumProgram = 4096
    /// The most steps a match may take: characters times instructions.
    static let maximumSteps = 2_000_000

    private enum Instruction {
        case scalar(Unicode.Scalar)
        case any
        case set([ClosedRange<UInt32>], negated: Bool)
        /// Try `preferred` first, then `other`.
        case split(preferred: Int, other: Int)
        case jump(Int)
        case save(Int)
        case start, end, wordBoundary(Bool)
        case match
    }

    private var program: [Instruction] = []
    /// How many capturing groups the pattern has.
    private(set) var groups = 0

    init(_ pattern: String) throws(TargetingFailure) {
        guard pattern.utf8.count <= Self.maximumPatternLength else {
            throw TargetingFailure("the pattern is longer than \(Self.maximumPatternLength) bytes")
        }
        var parser = PatternParser(Array(pattern.unicodeScalars))
        let tree = try parser.parse()
        groups = parser.groups
        program.append(.save(0))
        try emit(tree)
        program.append(.save(1))
        program.append(.match)
    }

    // MARK: Compiling

    private indirect enum Node {
        case empty
        case scalar(Unicode.Scalar)
        case any
        case set([ClosedRange<UInt32>], negated: Bool)
        case start, end, wordBoundary(Bool)
        case group(Node, index: Int?)
        case sequence([Node])
        case alternatives([Node])
        case repeated(Node, minimum: Int, maximum: Int?, lazy: Bool)
    }

    private mutating func append(_ instruction: Instruction) throws(TargetingFailure) {
        guard program.count < Self.maximumProgram else {
            throw TargetingFailure("the pattern compiles to more than \(Self.maximumProgram) instructions")
        }
        program.append(instruction)
    }

    private mutating func emit(_ node: Node) throws(TargetingFailure) {
        switch node {
        case .empty: break
        case .scalar(let scalar): try append(.scalar(scalar))
        case .any: try append(.any)
        case .set(let ranges, let negated): try append(.set(ranges, negated: negated))
        case .start: try append(.start)
        case .end: try append(.end)
        case .wordBoundary(let at): try append(.wordBoundary(at))
        case .group(let inner, let index):
            if let index { try append(.save(2 * index)) }
            try emit(inner)
            if let index { try append(.save(2 * index + 1)) }
        case .sequence(let nodes):
            for node in nodes { try emit(node) }
        case .alternatives(let branches):
            var jumps: [Int] = []
            for (position, branch) in branches.enumerated() {
                if position < branches.count - 1 {
                    let split = program.count
                    try append(.split(preferred: split + 1, other: 0))
                    try emit(branch)
                    jumps.append(program.count)
                    try append(.jump(0))
                    program[split] = .split(preferred: split + 1, other: program.count)
                } else {
                    try emit(branch)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repeated(let inner, let minimum, let maximum, let lazy):
            for _ in 0..<minimum { try emit(inner) }
            if let maximum {
                // Each optional copy: try it (or, lazy, skip it) first.
                var splits: [Int] = []
                for _ in minimum..<maximum {
                    splits.append(program.count)
                    try append(.split(preferred: 0, other: 0))
                    try emit(inner)
                }
                for split in splits { program[split] = branch(from: split, to: program.count, lazy: lazy) }
            } else {
                let split = program.count
                try append(.split(preferred: 0, other: 0))
                try emit(inner)
                try append(.jump(split))
                program[split] = branch(from: split, to: program.count, lazy: lazy)
            }
        }
    }

    /// The split at `split` that enters the copy after it or goes on at `next`, in the order a
    /// greedy or lazy quantifier prefers them.
    private func branch(from split: Int, to next: Int, lazy: Bool) -> Instruction {
        lazy ? .split(preferred: next, other: split + 1) : .split(preferred: split + 1, other: next)
    }

    // MARK: Matching

    /// The leftmost match in `text`, as Python's `re.search` and JavaScript's `match` find it:
    /// the whole match and each group (nil where a group took no part); nil for no match.
    func firstMatch(in text: [Unicode.Scalar]) throws(TargetingFailure) -> [String?]? {
        guard (text.count + 1) * program.count <= Self.maximumSteps else {
            throw TargetingFailure("matching the pattern over the text takes too many steps")
        }
        let slots = 2 * (groups + 1)
        var current: [(pc: Int, saved: [Int?])] = []
        var matched: [Int?]?
        for position in 0...text.count {
            if matched == nil {
                add(0, Array(repeating: nil, count: slots), at: position, in: text, to: &current)
            }
            var next: [(pc: Int, saved: [Int?])] = []
            for thread in current {
                switch program[thread.pc] {
                case .match:
                    matched = thread.saved
                    // Threads after it have lower preference: this match wins over them.
                    break
                case .scalar(let scalar):
                    if position < text.count, text[position] == scalar {
                        add(thread.pc + 1, thread.saved, at: position + 1, in: text, to: &next)
                    }
                    continue
                case .any:
                    if position < text.count, text[position] != "\n" {
                        add(thread.pc + 1, thread.saved, at: position + 1, in: text, to: &next)
                    }
                    continue
                case .set(let ranges, let negated):
                    if position < text.count, ranges.contains(where: { $0.contains(text[position].value) }) != negated {
                        add(thread.pc + 1, thread.saved, at: position + 1, in: text, to: &next)
                    }
                    continue
                default:
                    continue
                }
                break
            }
            current = next
            if current.isEmpty, matched != nil { break }
        }
        guard let matched, let start = matched[0], let end = matched[1] else { return nil }
        var result: [String?] = [String(String.UnicodeScalarView(text[start..<end]))]
        for group in 1...max(groups, 1) where group <= groups {
            if let from = matched[2 * group], let to = matched[2 * group + 1] {
                result.append(String(String.UnicodeScalarView(text[from..<to])))
            } else {
                result.append(nil)
            }
        }
        return result
    }

    /// Adds the thread at `pc` to `list`, following jumps, splits (preferred first), saves and
    /// assertions at once; a program counter already in the list is not added again (the
    /// earlier, preferred thread has it).
    private func add(
        _ pc: Int, _ saved: [Int?], at position: Int, in text: [Unicode.Scalar],
        to list: inout [(pc: Int, saved: [Int?])]
    ) {
        var stack: [(pc: Int, saved: [Int?])] = [(pc, saved)]
        var seen = Set(list.map(\.pc))
        while let (pc, saved) = stack.popLast() {
            guard seen.insert(pc).inserted else { continue }
            switch program[pc] {
            case .jump(let target): stack.append((target, saved))
            case .split(let preferred, let other):
                stack.append((other, saved))
                stack.append((preferred, saved))
            case .save(let slot):
                var updated = saved
                if slot < updated.count { updated[slot] = position }
                stack.append((pc + 1, updated))
            case .start: if position == 0 { stack.append((pc + 1, saved)) }
            case .end: if position == text.count { stack.append((pc + 1, saved)) }
            case .wordBoundary(let at):
                let before = position > 0 && Self.isWord(text[position - 1])
                let after = position < text.count && Self.isWord(text[position])
                if (before != after) == at { stack.append((pc + 1, saved)) }
            default:
                list.append((pc, saved))
            }
        }
    }

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || scalar.isASCIIDigit || scalar == "_")
    }

    // MARK: Reading a pattern

    private struct PatternParser {
        let scalars: [Unicode.Scalar]
        var position = 0
        var groups = 0
        var depth = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        mutating func parse() throws(TargetingFailure) -> Node {
            let node = try alternatives()
            guard position == scalars.count else { throw refused("an unbalanced )") }
            return node
        }

        private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard peek == scalar else { return false }
            position += 1
            return true
        }

        private func refused(_ what: String) -> TargetingFailure {
            TargetingFailure("the pattern has \(what), which regExpMatch does not take")
        }

        private mutating func alternatives() throws(TargetingFailure) -> Node {
            depth += 1
            defer { depth -= 1 }
            guard depth <= 32 else { throw refused("groups nested deeper than 32") }
            var branches = [try sequence()]
            while take("|") { branches.append(try sequence()) }
            return branches.count == 1 ? branches[0] : .alternatives(branches)
        }

        private mutating func sequence() throws(TargetingFailure) -> Node {
            var nodes: [Node] = []
            while let scalar = peek, scalar != "|", scalar != ")" {
                nodes.append(try quantified(try atom()))
            }
            return nodes.isEmpty ? .empty : .sequence(nodes)
        }

        private mutating func quantified(_ atom: Node) throws(TargetingFailure) -> Node {
            var bounds: (Int, Int?)?
            if take("*") {
                bounds = (0, nil)
            } else if take("+") {
                bounds = (1, nil)
            } else if take("?") {
                bounds = (0, 1)
            } else if peek == "{", let counted = counted() {
                bounds = counted
            }
            guard let (minimum, maximum) = bounds else { return atom }
            switch atom {
            case .start, .end, .wordBoundary, .empty: throw refused("a quantifier on nothing")
            default: break
            }
            if let maximum, maximum < minimum { throw refused("a repeat whose bounds are reversed") }
            guard minimum <= 1000, (maximum ?? 0) <= 1000 else { throw refused("a repeat above 1000") }
            let lazy = take("?")
            if let next = peek, "*+?{".unicodeScalars.contains(next), next != "{" || isCountedRepeat() {
                throw refused("a quantifier after a quantifier")
            }
            return .repeated(atom, minimum: minimum, maximum: maximum, lazy: lazy)
        }

        /// Whether `{m}`, `{m,}` or `{m,n}` starts here (anything else is a literal `{`).
        private mutating func isCountedRepeat() -> Bool {
            let start = position
            defer { position = start }
            return counted() != nil
        }

        private mutating func counted() -> (Int, Int?)? {
            let start = position
            guard take("{"), let minimum = number() else {
                position = start
                return nil
            }
            if take("}") { return (minimum, minimum) }
            guard take(",") else {
                position = start
                return nil
            }
            if take("}") { return (minimum, nil) }
            guard let maximum = number(), take("}") else {
                position = start
                return nil
            }
            return (minimum, maximum)
        }

        private mutating func number() -> Int? {
            let start = position
            while let scalar = peek, scalar.isASCIIDigit { position += 1 }
            guard position > start, position - start <= 6 else { return nil }
            return Int(String(String.UnicodeScalarView(scalars[start..<position])))
        }

        private mutating func atom() throws(TargetingFailure) -> Node {
            guard let scalar = peek else { throw refused("an end where an atom belongs") }
            position += 1
            switch scalar {
            case ".": return .any
            case "^": return .start
            case "$": return .end
            case "(":
                let index: Int?
                if take("?") {
                    guard take(":") else { throw refused("(? other than (?:") }
                    index = nil
                } else {
                    groups += 1
                    index = groups
                }
                let inner = try alternatives()
                guard take(")") else { throw refused("an unclosed (") }
                return .group(inner, index: index)
            case "[": return try set()
            case "\\": return try escape(inSet: false)
            case "*", "+", "?": throw refused("a quantifier on nothing")
            case "{": return .scalar("{")
            default: return .scalar(scalar)
            }
        }

        private mutating func set() throws(TargetingFailure) -> Node {
            let negated = take("^")
            var ranges: [ClosedRange<UInt32>] = []
            var first = true
            while true {
                guard let scalar = peek else { throw refused("an unclosed [") }
                if scalar == "]", !first {
                    position += 1
                    return .set(ranges, negated: negated)
                }
                first = false
                position += 1
                var low: UInt32
                if scalar == "\\" {
                    let escaped = try escape(inSet: true)
                    guard case .set(let more, false) = escaped else {
                        if case .scalar(let single) = escaped {
                            low = single.value
                        } else {
                            throw refused("a negated class escape in a class")
                        }
                        ranges.append(low...low)
                        continue
                    }
                    ranges += more
                    continue
                }
                low = scalar.value
                if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard var high = peek?.value else { throw refused("an unclosed [") }
                    position += 1
                    if high == UInt32(UInt8(ascii: "\\")) {
                        guard case .scalar(let escaped) = try escape(inSet: true) else {
                            throw refused("a class escape ending a range")
                        }
                        high = escaped.value
                    }
                    guard low <= high else { throw refused("a range whose ends are reversed") }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
        }

        private mutating func escape(inSet: Bool) throws(TargetingFailure) -> Node {
            guard let scalar = peek else { throw refused("a \\ at the end") }
            position += 1
            let digits: [ClosedRange<UInt32>] = [48...57]
            let word: [ClosedRange<UInt32>] = [48...57, 65...90, 95...95, 97...122]
            let spaces: [ClosedRange<UInt32>] = [9...13, 32...32]
            switch scalar {
            case "d": return .set(digits, negated: false)
            case "D": return .set(digits, negated: true)
            case "w": return .set(word, negated: false)
            case "W": return .set(word, negated: true)
            case "s": return .set(spaces, negated: false)
            case "S": return .set(spaces, negated: true)
            case "n": return .scalar("\n")
            case "t": return .scalar("\t")
            case "r": return .scalar("\r")
            case "f": return .scalar("\u{0C}")
            case "v": return .scalar("\u{0B}")
            case "b" where !inSet: return .wordBoundary(true)
            case "B" where !inSet: return .wordBoundary(false)
            default:
                guard scalar.isASCII, !scalar.properties.isAlphabetic, !scalar.isASCIIDigit else {
                    throw refused("the escape \\\(scalar)")
                }
                return .scalar(scalar)
            }
        }
    }
}
