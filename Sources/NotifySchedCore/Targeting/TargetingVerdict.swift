/// Why a targeting expression held an occurrence back: the expression, the members of the
/// context it read with their values, or why it could not be evaluated (then it counts as false).
public struct TargetingVerdict: Sendable, Hashable {
    /// A member of the context the expression read, and its value as JSON.
    public struct Reading: Sendable, Hashable {
        public var path: String
        public var value: String

        public init(path: String, value: String) {
            self.path = path
            self.value = value
        }
    }

    public var expression: String
    public var values: [Reading]
    /// Why it could not be evaluated; nil when it was, and was false.
    public var failure: String?

    public init(expression: String, values: [Reading], failure: String? = nil) {
        self.expression = expression
        self.values = values
        self.failure = failure
    }

    /// The verdict on `expression` in `context`: its readings, and `failure` when it failed.
    init(_ expression: TargetingExpression, in context: TargetingValue, failure: TargetingFailure?) {
        self.init(
            expression: expression.text,
            values: expression.valuesRead(in: context).map { Reading(path: $0.path, value: $0.value.json) },
            failure: failure?.message)
    }

    /// In words: `its targeting is false (tags = ["news"])`.
    public var words: String {
        let read = values.map { "\($0.path) = \($0.value)" }.joined(separator: ", ")
        if let failure { return "its targeting could not be evaluated (\(failure)), which counts as false" }
        return "its targeting is false" + (read.isEmpty ? "" : " (\(read))")
    }

    /// The fields as stored: each as its length in UTF-8 bytes, a colon, and itself; the
    /// expression, the failure (`-` for none, else `+` and it), then each path and value.
    var encoded: String {
        var fields = [expression, failure.map { "+" + $0 } ?? "-"]
        for reading in values { fields += [reading.path, reading.value] }
        return fields.map { "\($0.utf8.count):\($0)" }.joined()
    }

    /// The verdict `encoded` stored; nil for anything else.
    init?(encoded: Substring) {
        var rest = encoded.utf8[...]
        var fields: [String] = []
        while !rest.isEmpty {
            guard let colon = rest.firstIndex(of: UInt8(ascii: ":")),
                let count = Int(String(decoding: rest[..<colon], as: UTF8.self)), count >= 0,
                rest.distance(from: rest.index(after: colon), to: rest.endIndex) >= count
            else { return nil }
            let start = rest.index(after: colon)
            let end = rest.index(start, offsetBy: count)
            fields.append(String(decoding: rest[start..<end], as: UTF8.self))
            rest = rest[end...]
        }
        guard fields.count >= 2, fields.count % 2 == 0 else { return nil }
        let failure: String? = fields[1] == "-" ? nil : String(fields[1].dropFirst())
        let readings = stride(from: 2, to: fields.count, by: 2).map { Reading(path: fields[$0], value: fields[$0 + 1]) }
        self.init(expression: fields[0], values: readings, failure: failure)
    }
}

extension TargetingValue {
    /// The value as compact JSON.
    public var json: String {
        switch self {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer(let whole): return String(whole)
        case .real(let fraction): return fraction.description
        case .string(let text): return Self.quoted(text)
        case .array(let values): return "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String {
        String(decoding: BucketSample.jsonArray([text]).dropFirst().dropLast(), as: UTF8.self)
    }
}
