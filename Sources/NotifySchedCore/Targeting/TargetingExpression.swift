/// A parsed targeting expression (`targeting` of a portal entry): a subset of JEXL, the
/// expression language of Firefox's Messaging System, read as Mozilla's pyjexl reads it
/// (docs/feed-formats.md, "Targeting"). Parsing is bounded (`TargetingParser`), and so is
/// evaluating (`evaluate(in:)`).
public struct TargetingExpression: Sendable, Hashable {
    /// The text as the feed wrote it.
    public let text: String
    let root: TargetingNode

    /// Parses `text`.
    ///
    /// - Throws: `TargetingFailure` saying what is wrong and at which character.
    public init(_ text: String) throws(TargetingFailure) {
        self.text = text
        root = try TargetingParser.parse(text)
    }

    public static func == (lhs: TargetingExpression, rhs: TargetingExpression) -> Bool { lhs.text == rhs.text }

    public func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// The transforms it names that do not exist: it fails where it applies one.
    public var unknownTransforms: [String] {
        var unknown: [String] = []
        root.visit { node in
            if case .transform(let name, _, _) = node, !TargetingTransforms.names.contains(name),
                !unknown.contains(name)
            {
                unknown.append(name)
            }
        }
        return unknown
    }

    /// The members of the context it reads (`tags`, `server.name`, `app.version`), each once,
    /// in the order they come, with their values in `context`: what decided it.
    public func valuesRead(in context: TargetingValue) -> [(path: String, value: TargetingValue)] {
        var paths: [[String]] = []
        root.visit { node in
            if let path = node.contextPath, !paths.contains(path) { paths.append(path) }
        }
        // A path is kept only where no longer one that it begins is read too.
        return paths.filter { path in !paths.contains { $0.count > path.count && Array($0.prefix(path.count)) == path }
        }
        .map { path in
            (
                path.joined(separator: "."),
                path.reduce(context) { value, key in
                    guard case .object(let members) = value else { return .null }
                    return members.first { $0.key == key }?.value ?? .null
                }
            )
        }
    }
    /// What the expression gives in `context` (an object: its members are the identifiers).
    ///
    /// - Throws: `TargetingFailure` when it cannot be evaluated: a kind without the operation
    ///   (`1 < "a"`), a division by zero, a transform that does not exist, more work than
    ///   `TargetingEvaluator.stepLimit` or a value larger than its bounds.
    public func evaluate(in context: TargetingValue) throws(TargetingFailure) -> TargetingValue {
        var evaluator = TargetingEvaluator(context: context)
        return try evaluator.evaluate(root, relative: .object([]))
    }
}

/// A node of a parsed expression.
indirect enum TargetingNode: Sendable {
    case literal(TargetingValue)
    case array([TargetingNode])
    /// Each key once, where it first came, with the last value given for it.
    case object([(key: String, value: TargetingNode)])
    /// A member of the context (no subject), of the subject's value, or, relative, of the
    /// element a filter is looking at.
    case identifier(String, subject: TargetingNode?, relative: Bool)
    /// `subject[expression]`: relative (`[.x == 1]`) keeps the elements for which it holds;
    /// otherwise an index, a key, or `true` (all) and `false` (null).
    case filter(TargetingNode, subject: TargetingNode, relative: Bool)
    case transform(String, arguments: [TargetingNode], subject: TargetingNode)
    case not(TargetingNode)
    case binary(TargetingOperator, TargetingNode, TargetingNode)
    case conditional(TargetingNode, then: TargetingNode, else: TargetingNode)

    /// Calls `body` with this node and every node below it.
    func visit(_ body: (TargetingNode) -> Void) {
        body(self)
        switch self {
        case .literal: break
        case .array(let elements): elements.forEach { $0.visit(body) }
        case .object(let members): members.forEach { $0.value.visit(body) }
        case .identifier(_, let subject, _): subject?.visit(body)
        case .filter(let expression, let subject, _):
            subject.visit(body)
            expression.visit(body)
        case .transform(_, let arguments, let subject):
            subject.visit(body)
            arguments.forEach { $0.visit(body) }
        case .not(let operand): operand.visit(body)
        case .binary(_, let left, let right):
            left.visit(body)
            right.visit(body)
        case .conditional(let test, let then, let otherwise):
            test.visit(body)
            then.visit(body)
            otherwise.visit(body)
        }
    }

    /// The members of the context a chain of identifiers reads (`server.name`); nil for any
    /// other node.
    var contextPath: [String]? {
        guard case .identifier(let name, let subject, false) = self else { return nil }
        guard let subject else { return [name] }
        return subject.contextPath.map { $0 + [name] }
    }

    /// Whether a filter on this expression looks at each element, as pyjexl decides it: an
    /// identifier says whether it is itself relative (`.a` is, `.a.b` is not), a filter
    /// whether its subject is, anything else whether any part is.
    var containsRelative: Bool {
        switch self {
        case .literal: false
        case .identifier(_, _, let relative): relative
        case .filter(_, let subject, _): subject.containsRelative
        case .array(let elements): elements.contains { $0.containsRelative }
        case .object(let members): members.contains { $0.value.containsRelative }
        case .transform(_, let arguments, let subject):
            subject.containsRelative || arguments.contains { $0.containsRelative }
        case .not(let operand): operand.containsRelative
        case .binary(_, let left, let right): left.containsRelative || right.containsRelative
        case .conditional(let test, let then, let otherwise):
            test.containsRelative || then.containsRelative || otherwise.containsRelative
        }
    }
}

/// A binary operator, with pyjexl's precedence (higher binds tighter; all group to the left).
enum TargetingOperator: String, CaseIterable, Sendable {
    case or = "||", intersect, `in`, power = "^", greaterOrEqual = ">=", greater = ">", equal = "=="
    case lessOrEqual = "<=", less = "<", floorDivide = "//", divide = "/", minus = "-", plus = "+"
    case times = "*", and = "&&", modulo = "%", notEqual = "!="

    var precedence: Int {
        switch self {
        case .or, .and: 10
        case .equal, .notEqual, .greater, .greaterOrEqual, .less, .lessOrEqual, .in: 20
        case .plus, .minus: 30
        case .times, .divide, .floorDivide, .intersect: 40
        case .modulo, .power: 50
        }
    }
}
