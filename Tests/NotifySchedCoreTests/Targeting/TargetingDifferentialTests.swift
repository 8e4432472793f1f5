import Foundation
import NotifySchedCore
import NotifySchedTesting
import Testing

/// Targeting expressions read and evaluated as Mozilla's pyjexl reads and evaluates them: a
/// corpus of generated expressions (`scripts/targeting-corpus.py`), each with what pyjexl made
/// of it, in a context of every kind of value; the core must parse the same ones, fail to
/// evaluate the same ones, and give the same value for the rest.
@Suite(.computeThreads) struct TargetingDifferentialTests {
    /// The Python with pyjexl that `scripts/install-deps` makes.
    static let python = Repository.root.appendingPathComponent(".build-oracles/pyjexl/bin/python3").path

    @Test func tenThousandGeneratedExpressionsAgreeWithPyjexl() throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: Self.python),
            "pyjexl is the oracle: run scripts/install-deps, which installs it in .build-oracles/pyjexl")
        let output = try ExternalCommand.run(
            Self.python,
            [
                Repository.root.appendingPathComponent("scripts/targeting-corpus.py").path, "10000",
                ProcessInfo.processInfo.environment["NOTIFY_SCHED_TARGETING_SEED"] ?? "1",
            ])
        try #require(output.status == 0, "targeting-corpus.py: \(output.standardError)")
        var lines = output.standardOutput.split(separator: "\n")[...]
        let context = try JSONDecoder().decode(TargetingJSON.self, from: Data(lines.removeFirst().utf8)).value
        var outcomes: [String: Int] = [:]
        var mismatches: [String] = []
        for line in lines {
            let entry = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "a corpus line: \(line)")
            let (text, expected) = (entry["expression"] ?? "", entry["outcome"] ?? "")
            let actual: String
            do {
                let expression = try TargetingExpression(text)
                do {
                    actual = TargetingJSON.canonical(try expression.evaluate(in: context))
                } catch {
                    actual = "error"
                }
            } catch {
                actual = "parse-error"
            }
            outcomes[expected.hasPrefix("parse") || expected == "error" ? expected : "value", default: 0] += 1
            if actual != expected { mismatches.append("\(text.debugDescription): pyjexl \(expected), core \(actual)") }
        }
        print(
            "targeting differential: \(lines.count) expressions compared with pyjexl (\(outcomes["value"] ?? 0) values, "
                + "\(outcomes["error"] ?? 0) evaluation errors, \(outcomes["parse-error"] ?? 0) parse errors), "
                + "\(mismatches.count) mismatches")
        #expect(lines.count == 10_000)
        #expect(
            mismatches.isEmpty,
            "\(mismatches.count) mismatches, the first: \(mismatches.prefix(10).joined(separator: "\n"))")
    }
}

/// JSON to targeting values (whole numbers apart from fractional ones, an object's keys sorted, as
/// the corpus writes them), and targeting values to the corpus's canonical form.
struct TargetingJSON: Decodable {
    let value: TargetingValue

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let flag = try? container.decode(Bool.self) {
            value = .bool(flag)
        } else if let whole = try? container.decode(Int64.self) {
            value = .integer(whole)
        } else if let fraction = try? container.decode(Double.self) {
            value = .real(fraction)
        } else if let text = try? container.decode(String.self) {
            value = .string(text)
        } else if let elements = try? container.decode([TargetingJSON].self) {
            value = .array(elements.map(\.value))
        } else {
            let members = try container.decode([String: TargetingJSON].self)
            value = .object(members.keys.sorted().map { ($0, members[$0]!.value) })
        }
    }

    static func canonical(_ value: TargetingValue) -> String {
        switch value {
        case .null: "n"
        case .bool(let flag): flag ? "t" : "f"
        case .integer(let whole): "i\(whole)"
        case .real(let fraction): "d" + hex(fraction.bitPattern, digits: 16)
        case .string(let text): "s" + text.utf8.map { hex(UInt64($0), digits: 2) }.joined()
        case .array(let values): "[" + values.map(canonical).joined(separator: ",") + "]"
        case .object(let members):
            "{"
                + members.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) }.map {
                    $0.key.utf8.map { hex(UInt64($0), digits: 2) }.joined() + ":" + canonical($0.value)
                }.joined(separator: ",") + "}"
        }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: digits - text.count) + text
    }
}
